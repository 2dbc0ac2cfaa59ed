import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import type { MessageName } from '../../api/contracts/conversations';
import type { PeerMessage } from '../../api/contracts/peers';

/** Every message the connector's gateway hands to a conversation arrives as this one signal. */
export const peerMessageSignal = defineSignal<[PeerMessage]>('peerMessage');

/** Matches messages of the given kinds (answer, error, patch…) on a resource. */
export const kindsOn =
  (resource: PeerMessage['resource'], ...names: MessageName[]) =>
  (message: PeerMessage): boolean =>
    message.resource === resource && names.includes(message.name);

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
