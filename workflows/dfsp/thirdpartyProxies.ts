import { proxyActivities } from '@temporalio/workflow';
import type { ThirdpartyActivities } from '../../activities/dfsp/thirdparty/thirdpartyActivities';

/** The bank's systems answer quickly; a bank that is down is retried with backoff, as messages to the switch are. */
export const bank = proxyActivities<ThirdpartyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * A hold is committed once the switch committed the transfer, or released otherwise, and never given up: the PISP has its answer
 * already, and the account must follow what the switch did (an operator sees the retries in the Temporal UI).
 */
export const ledger = proxyActivities<Pick<ThirdpartyActivities, 'commitReservation' | 'releaseReservation'>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
