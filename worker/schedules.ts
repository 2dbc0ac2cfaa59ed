import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { SettlementWindows } from '../activities/hub/settlement/windows';
import { workflowIds } from '../api/contracts/conversations';
import { closeOpenSettlementWindow, reservationSweep, sendNotifications, settlementWindow } from '../workflows';

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

export const WINDOW_CLOSE_SCHEDULE_ID = 'settlement-window-close';

/**
 * The open settlement window's workflow, started if it is not running (the first window of a new hub), and, with
 * `closeCron` (SETTLEMENT_WINDOW_CLOSE_CRON), the schedule that closes the open window: created, or changed to the
 * cron given. Without it the schedule is left as it is: an operator may keep one of their own (`temporal schedule`).
 */
export async function ensureSettlementWindows(client: Client, taskQueue: string, windows: SettlementWindows, closeCron?: string): Promise<void> {
  const { settlementWindowId } = await windows.open();
  await client.workflow.start(settlementWindow, {
    workflowId: workflowIds.settlementWindow(settlementWindowId),
    taskQueue,
    args: [settlementWindowId],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  if (!closeCron) return;
  const spec = { cronExpressions: [closeCron] };
  try {
    await client.schedule.create({
      scheduleId: WINDOW_CLOSE_SCHEDULE_ID,
      spec,
      action: { type: 'startWorkflow', workflowType: closeOpenSettlementWindow, taskQueue, workflowId: 'closeOpenSettlementWindow' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(WINDOW_CLOSE_SCHEDULE_ID).update((schedule) => ({ ...schedule, spec }));
  }
}

export const NOTIFICATION_SCHEDULE_ID = 'notification-sender';

/** With SMTP configured, the schedule that sends participants' queued e-mails every 15 seconds; any worker may create it. */
export async function ensureNotificationSchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: NOTIFICATION_SCHEDULE_ID,
      spec: { intervals: [{ every: '15 seconds' }] },
      action: { type: 'startWorkflow', workflowType: sendNotifications, taskQueue, workflowId: 'sendNotifications' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
