import crypto from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { sendNotifications } from '../../../workflows/hub/sendNotifications';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// One run of the Temporal Schedule `notification-sender` (participants' e-mails: limit alarms and adjustments,
// settlement position changes) on the time-skipping server, with stub mail activities: each e-mail due is tried once,
// in order; a mail server out of reach after the activity's retries ends the run, leaving the rest to the next.
// Serial: each test moves the one server clock the file shares.

let due: number[] = [];
const stubs = new StubActivities({
  pendingNotifications: async () => due,
  sendNotification: async () => undefined,
});
const test = stubbedWorkflowTest('hub', stubs);

/** One run, as the schedule starts it; its result is how many e-mails were due. */
const run = (t: ExecutionContext<StubbedWorkflows>) =>
  t.context.client.workflow.execute<typeof sendNotifications>('sendNotifications', {
    workflowId: `sendNotifications/${crypto.randomUUID()}`,
    taskQueue: t.context.taskQueue,
    args: [],
  });

/** A mail server out of reach for `id`'s first `failures` tries (the activity throws; a refusal it only counts). */
const outOfReach = (id: number, failures: number) => async (sending: number) => {
  if (sending === id && failures-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
};

test.serial('each e-mail due is sent once, in the order the record gives them', async (t) => {
  due = [7, 8, 9];
  t.is(await run(t), 3);
  t.deepEqual(stubs.inputs('pendingNotifications'), [undefined]);
  t.deepEqual(stubs.inputs('sendNotification'), [7, 8, 9]);
});

test.serial('a run with no e-mail due sends nothing', async (t) => {
  due = [];
  t.is(await run(t), 0);
  t.deepEqual(stubs.inputs('sendNotification'), []);
});

test.serial('a mail server out of reach for a moment delays the e-mail it was sending: it is tried again, and the run goes on', async (t) => {
  due = [7, 8];
  stubs.script({ sendNotification: outOfReach(7, 2) });
  t.is(await run(t), 2);
  t.deepEqual(stubs.inputs('sendNotification'), [7, 7, 7, 8]);
});

test.serial('a mail server out of reach through all eight tries ends the run: the e-mails after it wait for the next run', async (t) => {
  due = [7, 8, 9];
  stubs.script({ sendNotification: outOfReach(8, Infinity) });
  t.is(await run(t), 3, 'the run still ends, not failed');
  t.deepEqual(stubs.inputs('sendNotification'), [7, ...Array(8).fill(8)], 'e-mail 9 is not tried');
});
