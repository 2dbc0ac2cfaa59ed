import crypto from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import type { healthCheck } from '../../workflows/healthCheck';
import { StubActivities, stubbedWorkflowTest } from '../helpers/stubbedWorkflows';

// The hub's healthCheck workflow, which the launchers' readiness wait runs (worker/readiness.ts) to prove a worker
// polls the task queue and reaches the ledger database, on the time-skipping server with a stub database check.
const stubs = new StubActivities({ checkDatabase: async () => 'sqlite' });
const test = stubbedWorkflowTest('hub', stubs);

test.serial('a hub whose database answers is healthy, and says which database it uses', async (t) => {
  const handle = await t.context.start<typeof healthCheck>('healthCheck', `healthCheck/${crypto.randomUUID()}`);
  t.deepEqual(await handle.result(), { database: 'sqlite' });
  t.is(stubs.inputs('checkDatabase').length, 1);
});

test.serial('a database that does not answer fails the check after three tries: the hub is not reported ready', async (t) => {
  stubs.script({
    checkDatabase: async () => {
      throw new Error('SQLITE_CANTOPEN: unable to open database file');
    },
  });
  const handle = await t.context.start<typeof healthCheck>('healthCheck', `healthCheck/${crypto.randomUUID()}`);
  await t.throwsAsync(handle.result(), { instanceOf: WorkflowFailedError });
  t.is(stubs.inputs('checkDatabase').length, 3);
});
