import { proxyActivities } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import { bestEffort } from '../kit/failures';

const { pendingNotifications } = proxyActivities<HubActivities>({ startToCloseTimeout: '1 minute' });
const { sendNotification } = proxyActivities<HubActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '2 minutes', maximumAttempts: 8 },
});

/**
 * Run by the Temporal Schedule `notification-sender` when SMTP_URL is set: sends the participants' queued e-mails
 * (limit alarms, limit adjustments, settlement position changes), each an activity retried while the SMTP server
 * fails; one that still fails stays queued for the next run and holds up none of the others.
 */
export async function sendNotifications(): Promise<number> {
  const ids = await pendingNotifications();
  for (const id of ids) await bestEffort(sendNotification(id), `e-mail ${id}`);
  return ids.length;
}
