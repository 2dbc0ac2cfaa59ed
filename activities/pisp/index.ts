import { createMessageActivities } from '../connector/messages';
import type { PeerSender } from '../connector/peerSender';
import { createCredentialActivities } from './credentials';

/** The PISP connector's activities: sending to the switch, and the GENERIC credentials it keeps for its users. */
export function createPispActivities({ sender, genericKeySecret }: { sender: PeerSender; genericKeySecret: string }) {
  return { ...createMessageActivities(sender), ...createCredentialActivities({ genericKeySecret }) };
}

export type PispActivities = ReturnType<typeof createPispActivities>;
