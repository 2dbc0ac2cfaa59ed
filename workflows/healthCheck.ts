import { proxyActivities } from '@temporalio/workflow';
import type { HubActivities } from '../activities';

const { checkDatabase } = proxyActivities<HubActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/**
 * Proves the whole chain works end to end: Temporal schedules the workflow on the hub's task queue,
 * a worker runs it, and the worker's activities reach the ledger database.
 */
export async function healthCheck(): Promise<{ database: string }> {
  return { database: await checkDatabase() };
}
