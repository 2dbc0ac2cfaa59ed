import { errorInformation, type ErrorInformation } from '../../activities/shared/contracts/errors';
import type { OutgoingMessage } from '../../activities/shared/contracts/peers';
import { errorOf } from '../kit/failures';
import { messages } from '../participant/participantProxies';

/** Sends a message to the switch; undefined once it took it, else why not (its refusal, or a delivery that failed for good). */
export async function whySendingFailed(message: OutgoingMessage): Promise<ErrorInformation | undefined> {
  try {
    await messages.sendToSwitch(message);
    return undefined;
  } catch (error) {
    return errorOf(error);
  }
}

/** The answer for a callback that did not come in time (REQUEST_TIMEOUT_MS): the SDK's request timeout. */
export function timedOut(awaited: string, waitedMs: number): ErrorInformation {
  return errorInformation('serverTimedOut', `no ${awaited} within ${waitedMs} ms`);
}
