import type { PeerMessage } from '../../activities/shared/contracts/peers';

/**
 * A participant's message to a connector as its inbound gateway hands it on (a signal to the conversation): from
 * `source` (by default the peer the tests talk to), addressed to `destination`, never the switch's own.
 */
export function messagesTo(destination: string, defaultSource: string) {
  return (resource: PeerMessage['resource'], name: PeerMessage['name'], body: unknown, source = defaultSource, id?: string): PeerMessage => ({
    resource,
    name,
    ...(id ? { id } : {}),
    source,
    fromSwitch: false,
    headers: { 'fspiop-source': source, 'fspiop-destination': destination },
    body,
  });
}
