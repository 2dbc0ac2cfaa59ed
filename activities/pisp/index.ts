import type { Client } from '@temporalio/client';
import { createMessageActivities } from '../connector/messageActivities';
import type { PeerSender } from '../connector/peerSender';
import { createCredentialActivities } from './genericCredentials';
import { LinkedConsents } from './linkedConsents';

/** The PISP connector's activities: sending to the switch, and the GENERIC credentials it keeps for its users. */
export function createPispActivities({ sender, genericKeySecret, client }: { sender: PeerSender; genericKeySecret: string; client: Client }) {
  return { ...createMessageActivities(sender), ...createCredentialActivities({ genericKeySecret, linkedConsents: new LinkedConsents(client) }) };
}

export type PispActivities = ReturnType<typeof createPispActivities>;
