import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleSpec } from '@temporalio/client';
import type { Duration, Workflow } from '@temporalio/common';
import type { SettlementWindows } from '../activities/hub/settlement/windows';
import { workflowIds } from '../activities/shared/contracts/conversations';
import { closeOpenSettlementWindow, ledgerCheck, reservationSweep, sendNotifications, settlementWindow } from '../workflows';

export const SWEEP_SCHEDULE_ID = 'reservation-sweep';
export const WINDOW_CLOSE_SCHEDULE_ID = 'settlement-window-close';
export const NOTIFICATION_SCHEDULE_ID = 'notification-sender';
export const LEDGER_CHECK_SCHEDULE_ID = 'ledger-check';

/**
 * A Temporal Schedule that starts `workflow` (its own ID each time, never two at once): created once, whichever worker
 * tries first; with `respecify`, one that exists already takes `spec`, so a changed setting applies at the next start.
 */
async function ensureSchedule(client: Client, scheduleId: string, spec: ScheduleSpec, workflow: Workflow, taskQueue: string, respecify = false): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action: { type: 'startWorkflow', workflowType: workflow, taskQueue, workflowId: workflow.name },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    if (respecify) await client.schedule.getHandle(scheduleId).update((schedule) => ({ ...schedule, spec }));
  }
}

/** The every-minute reservation sweep. */
export function ensureSweepSchedule(client: Client, taskQueue: string): Promise<void> {
  return ensureSchedule(client, SWEEP_SCHEDULE_ID, { intervals: [{ every: '1 minute' }] }, reservationSweep, taskQueue);
}

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
  if (closeCron) await ensureSchedule(client, WINDOW_CLOSE_SCHEDULE_ID, { cronExpressions: [closeCron] }, closeOpenSettlementWindow, taskQueue, true);
}

/** With SMTP configured, the schedule that sends participants' queued e-mails every 15 seconds. */
export function ensureNotificationSchedule(client: Client, taskQueue: string): Promise<void> {
  return ensureSchedule(client, NOTIFICATION_SCHEDULE_ID, { intervals: [{ every: '15 seconds' }] }, sendNotifications, taskQueue);
}

/** The check of the ledger's invariants, every `every` (LEDGER_CHECK_INTERVAL): a changed interval applies at the next start. */
export function ensureLedgerCheckSchedule(client: Client, taskQueue: string, every: string): Promise<void> {
  return ensureSchedule(client, LEDGER_CHECK_SCHEDULE_ID, { intervals: [{ every: every as Duration }] }, ledgerCheck, taskQueue, true);
}
