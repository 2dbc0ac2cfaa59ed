import { log, proxyActivities } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';

const { checkLedgerNow } = proxyActivities<HubActivities>({
  startToCloseTimeout: '10 minutes',
  // A full check sums a large journal in one stretch of JavaScript, between heartbeats.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the Temporal Schedule `ledger-check` (every LEDGER_CHECK_INTERVAL, 5 minutes by default): one check of the
 * ledger's invariants from its checkpoint (the whole ledger once a day), whose activity keeps the outcome, raises the
 * alarm and e-mails the operator. A broken ledger is logged as a warning; the run itself succeeds, as the check did.
 */
export async function ledgerCheck(): Promise<{ holds: boolean; violations: number }> {
  const { holds, violations, checkedFrom, checkedTo, full } = await checkLedgerNow();
  if (!holds) log.warn('the ledger breaks its invariants', { violations, checkedFrom, checkedTo, full });
  return { holds, violations };
}
