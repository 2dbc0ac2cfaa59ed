import type { OutgoingMessage } from '../shared/contracts/peers';
import type { PeerSender } from './peerSender';

/** The activity every connector conversation sends its messages with. */
export function createMessageActivities(sender: PeerSender) {
  return {
    /** Sends one message to the switch as this participant; retried by the workflow's policy. */
    sendToSwitch: (message: OutgoingMessage) => sender.send(message),
  };
}

export type MessageActivities = ReturnType<typeof createMessageActivities>;
