import type { MessageActivities } from '../../activities/connector/messages';
import { firstAttemptLocally } from '../kit/firstAttemptLocally';

/**
 * Messages to the switch: a first attempt as a local activity, then ordinary activities retried with backoff on network
 * errors and 5xx, as the hub retries its deliveries; a refusal (4xx) ends the step at once with the switch's
 * ErrorInformation.
 */
export const messages = firstAttemptLocally<MessageActivities>(
  { startToCloseTimeout: '15 seconds' },
  {
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 6 },
  },
);
