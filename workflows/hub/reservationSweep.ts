import { proxyActivities } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';

const { staleReservations, releaseStaleReservation } = proxyActivities<HubActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

/** Run every minute by a Temporal Schedule: releases reservations whose transfers expired long ago. */
export async function reservationSweep(): Promise<number> {
  const stale = await staleReservations();
  for (const transferId of stale) await releaseStaleReservation(transferId);
  return stale.length;
}
