import { log, patched, proxyActivities } from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import { bestEffort } from '../kit/failures';

const { pendingNotifications } = proxyActivities<HubActivities>({ startToCloseTimeout: '1 minute' });
const { sendNotification } = proxyActivities<HubActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '2 minutes', maximumAttempts: 8 },
});

/**
 * Run by the Temporal Schedule `notification-sender` when SMTP_URL is set: sends the participants' e-mails due (limit
 * alarms, limit adjustments, settlement position changes), each tried once. One the mail server refuses is counted and
 * tried again at a later run, or set aside after its last try: it holds up none of the others. A mail server out of
 * reach (or the database), still after the activity's retries, ends the run: the rest wait for the next, none counted.
 */
export async function sendNotifications(): Promise<number> {
  const ids = await pendingNotifications();
  const endsWhenUnreachable = patched('notifications-run-ends-when-unreachable');
  for (const id of ids) {
    if (!endsWhenUnreachable) {
      await bestEffort(sendNotification(id), `e-mail ${id}`);
      continue;
    }
    try {
      await sendNotification(id);
    } catch (error) {
      log.warn('e-mails not sent: the mail server is out of reach', { notification: id, error: (error as Error).message });
      break;
    }
  }
  return ids.length;
}
