import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import { firstAttemptLocally } from './firstAttemptLocally';

/**
 * The retry presets every conversation shares, one proxy each.
 *
 * Ledger and record steps are local activities: short and idempotent, they run in the worker that runs the
 * workflow (recorded in its history, retried by the worker), which saves the server three round trips a step.
 */
export const records = proxyLocalActivities<HubActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/**
 * Messages to DFSPs: a first attempt as a local activity, then, on a network error or 5xx, ordinary activities retried
 * with backoff for minutes if need be, without holding up the workflow's timers and signals meanwhile.
 */
export const deliveries = firstAttemptLocally<HubActivities>(
  { startToCloseTimeout: '15 seconds' },
  {
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
  },
);

/** Answers read from a conversation's record (repeats, late callbacks, GETs), each with its own attempts. */
export const followUps = proxyActivities<HubActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
