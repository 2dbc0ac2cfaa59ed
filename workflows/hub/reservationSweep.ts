import { continueAsNew, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import type { StalePage, SweepCursor } from '../../activities/hub/conversations/reservationSweep';

const { staleReservations, releaseStaleReservation } = proxyActivities<HubActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

/**
 * Run every minute by a Temporal Schedule: releases reservations that expired long ago (a transfer's, a funds out's),
 * oldest first, a page at a time until none is left. A release that still fails is left to the next run and holds up none of the
 * others; a long backlog goes on in a new run of the workflow before its history grows too long.
 */
/** How many reservations this run released. */
export async function reservationSweep(after?: SweepCursor): Promise<number> {
  let swept = 0;
  let cursor = after;
  do {
    const page = pageOf(await staleReservations(cursor));
    for (const transferId of page.transferIds) if (await released(transferId)) swept++;
    cursor = page.next;
    if (cursor && workflowInfo().continueAsNewSuggested) await continueAsNew<typeof reservationSweep>(cursor);
  } while (cursor);
  return swept;
}

/** A release that still fails after its retries is left to the next run, and holds up none of the others. */
async function released(transferId: string): Promise<boolean> {
  try {
    await releaseStaleReservation(transferId);
    return true;
  } catch (error) {
    log.warn(`release of ${transferId} failed`, { error: (error as Error).message });
    return false;
  }
}

/**
 * A run begun before the sweep read pages (a deploy makes the new worker replay it) recorded a bare list: read as a
 * last page it replays unchanged, instead of failing its workflow task for ever and holding up every later run.
 */
function pageOf(result: StalePage | string[]): StalePage {
  return Array.isArray(result) ? { transferIds: result } : result;
}
