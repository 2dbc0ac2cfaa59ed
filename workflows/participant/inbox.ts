import { condition, defineSignal, patched, setHandler } from '@temporalio/workflow';
import type { MessageName } from '../../activities/shared/contracts/conversations';
import type { PeerMessage } from '../../activities/shared/contracts/peers';

/** Every message the connector's gateway hands to a conversation arrives as this one signal. */
export const peerMessageSignal = defineSignal<[PeerMessage]>('peerMessage');

/** Matches messages of the given kinds (answer, error, patch…) on a resource. */
export const kindsOn =
  (resource: PeerMessage['resource'], ...names: MessageName[]) =>
  (message: PeerMessage): boolean =>
    message.resource === resource && names.includes(message.name);

/**
 * Matches what a conversation's counterparty says: its own messages, and the switch's own errors (the switch reports
 * there a message it could not deliver). An error in another participant's name is not the counterparty's, however
 * it came: with the transaction request's or consent request's ID alone, it would end a conversation not its own.
 */
export function saidBy(counterparty: string): (message: PeerMessage) => boolean {
  // Before the patch, an error in anyone's name was taken for the switch's.
  const switchErrorsOnly = patched('errors-from-the-switch-itself');
  return (message) => message.source === counterparty || (message.name === 'error' && (message.fromSwitch === true || !switchErrorsOnly));
}

/**
 * The messages a conversation has been sent and not yet taken. A conversation waits for the one its next step needs;
 * one that came early (a PATCH before the PUT it follows) waits here until then.
 */
export class Inbox {
  private readonly messages: PeerMessage[] = [];

  constructor() {
    setHandler(peerMessageSignal, (message) => void this.messages.push(message));
  }

  /** The first message that matches, taken from the inbox; undefined when none came within `timeoutMs`. */
  async next<Body = unknown>(match: (message: PeerMessage) => boolean, timeoutMs: number): Promise<PeerMessage<Body> | undefined> {
    const arrived = await condition(() => this.messages.some(match), Math.max(timeoutMs, 0));
    if (!arrived) return undefined;
    const index = this.messages.findIndex(match);
    return this.messages.splice(index, 1)[0] as PeerMessage<Body>;
  }
}
