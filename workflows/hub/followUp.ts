import type { FollowUp } from '../../activities/shared/contracts/followUps';
import { deliveries } from '../kit/hubProxies';

/**
 * An answer from a conversation's record (a GET, a repeat after the conversation ended, a callback no running
 * conversation waits for), made durable: its delivery is an activity that Temporal retries with the backoff
 * every delivery has, even if the gateway that took the request stops meanwhile.
 */
export async function followUp(request: FollowUp): Promise<void> {
  await deliveries.answerFollowUp(request);
}
