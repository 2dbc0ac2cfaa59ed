import crypto from 'node:crypto';
import test from 'ava';
import { openHubServices, HubServices } from '../../activities/hub';
import { healthCheck } from '../../workflows';
import { testDatabaseUrl } from '../helpers/database';
import { startWorker, WorkerHarness } from '../helpers/worker';

let services: HubServices;
let harness: WorkerHarness;
test.before(async () => {
  services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: 'Hub' });
  harness = await startWorker(services);
});
test.after.always(async () => {
  await harness?.close();
  await services?.db.close();
});

test('the worker runs a workflow on the real Temporal dev server and its activity reaches the database', async (t) => {
  const result = await harness.client.workflow.execute(healthCheck, {
    taskQueue: harness.taskQueue,
    workflowId: `healthCheck/${crypto.randomUUID()}`,
  });
  t.deepEqual(result, { database: process.env.DATABASE_URL?.startsWith('mysql') ? 'mysql' : 'sqlite' });
});
