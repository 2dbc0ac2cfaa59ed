import crypto from 'node:crypto';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { ensureNamespace } from '../../temporal/namespaces';
import { waitUntilReady } from '../../worker/readiness';
import { testDatabaseUrl, uniqueName } from '../helpers/database';
import { SimulatedDfsp } from '../helpers/dfsp';
import { hubProcessSettings, logTail, onboardParticipant, startProcess } from '../helpers/hubProcesses';
import { QuotedPayments } from '../helpers/quotedPayments';
import { switchAt } from '../helpers/switchHarness';
import { connectClient, temporalAddress } from '../helpers/worker';

const logDir = path.join(os.tmpdir(), `one-process-hub-${process.pid}`);
const LOG = 'one-process-hub';

/**
 * `npm start`'s hub, dist/worker/hub.js: the worker and both gateways in one process, on the suite's Temporal server
 * in a namespace of its own (its schedules are no other file's) and on its own task queue, so its worker is the only
 * one there: a workflow whose first task was accepted eagerly can only have run on it.
 */
test('the one-process hub serves a quoted payment, its conversations start eagerly on its own worker, and SIGTERM stops it cleanly', async (t) => {
  const namespace = `hub-${crypto.randomBytes(4).toString('hex')}`;
  await ensureNamespace({ address: temporalAddress() }, namespace);
  const settings = await hubProcessSettings({ databaseUrl: testDatabaseUrl(), temporalAddress: temporalAddress(), host: '127.0.0.1' });
  const taskQueue = `hub-${crypto.randomUUID()}`;
  const env = { ...settings.env, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue, NEW_PARTICIPANTS_ACTIVE: 'true' };
  const hub = startProcess('worker/hub.js', LOG, env, logDir);
  t.teardown(() => void hub.kill('SIGKILL'));
  await waitUntilReady({
    healthUrl: `${settings.adminUrl}/health`,
    temporalAddress: temporalAddress(),
    namespace,
    taskQueue,
    timeoutMs: 90_000,
    failed: () => (hub.exitCode !== null ? `the hub exited during start-up; ${logTail(logDir, LOG)}` : undefined),
  });

  const [payer, payee] = await Promise.all([SimulatedDfsp.start(uniqueName('payer')), SimulatedDfsp.start(uniqueName('payee'))]);
  t.teardown(() => Promise.all([payer.close(), payee.close()]).then(() => undefined));
  for (const dfsp of [payer, payee]) await onboardParticipant(settings.adminUrl, dfsp.name, dfsp.url, { currency: 'USD' });
  const payments = new QuotedPayments(switchAt(settings.switchUrl));
  payments.quotes(payee);
  const paid = await payments.pay(payer, payee, '12.5');
  t.is(paid.state, 'COMMITTED', `${JSON.stringify(paid)}; ${logTail(logDir, LOG)}`);

  const temporal = await connectClient(taskQueue, namespace);
  t.teardown(() => temporal.close());
  const history = await temporal.client.workflow.getHandle(workflowIds.transfer(paid.transferId)).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  t.true(started?.eagerExecutionAccepted, 'the transfer workflow was started eagerly');

  hub.kill('SIGTERM');
  const [code] = await once(hub, 'exit');
  t.is(code, 0, logTail(logDir, LOG));
});
