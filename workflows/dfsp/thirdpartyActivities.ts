import { proxyActivities } from '@temporalio/workflow';
import type { ThirdpartyActivities } from '../../activities/dfsp/thirdparty/activities';

/** The bank's systems answer quickly; a bank that is down is retried with backoff, as messages to the switch are. */
export const bank = proxyActivities<ThirdpartyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * The debit after a committed transfer is never given up: the switch has moved the money, so the bank must follow
 * (an operator sees the retries in the Temporal UI if it cannot).
 */
export const ledger = proxyActivities<Pick<ThirdpartyActivities, 'debitLinkedAccount'>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
