import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { reservationSweep } from '../workflows';

export const SWEEP_SCHEDULE_ID = 'reservation-sweep';

/** Creates the every-minute reservation sweep once; any worker may try, the first one wins. */
export async function ensureSweepSchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 minute' }] },
      action: { type: 'startWorkflow', workflowType: reservationSweep, taskQueue, workflowId: 'reservationSweep' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
