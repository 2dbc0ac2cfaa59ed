import { proxyActivities } from '@temporalio/workflow';
import type { MessageActivities } from '../../activities/connector/messageActivities';

/**
 * Messages to the switch are retried with backoff on network errors and 5xx, as the hub retries its deliveries;
 * a refusal (4xx) ends the step at once with the switch's ErrorInformation.
 */
export const messages = proxyActivities<MessageActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 6 },
});
