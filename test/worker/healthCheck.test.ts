import crypto from 'node:crypto';
import test from 'ava';
import type { Hub } from '../../activities/hub/hubServices';
import { healthCheck } from '../../workflows';
import { openTestHub, startWorker, WorkerHarness } from '../helpers/worker';

let hub: Hub;
let harness: WorkerHarness;
test.before(async () => {
  hub = await openTestHub('Hub');
  harness = await startWorker(hub);
});
test.after.always(async () => {
  await harness?.close();
  await hub?.close();
});

test('the worker runs a workflow on the real Temporal dev server and its activity reaches the database', async (t) => {
  const result = await harness.client.workflow.execute(healthCheck, {
    taskQueue: harness.taskQueue,
    workflowId: `healthCheck/${crypto.randomUUID()}`,
  });
  t.deepEqual(result, { database: process.env.DATABASE_URL?.startsWith('mysql') ? 'mysql' : 'sqlite' });
});
