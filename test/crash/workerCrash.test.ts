import { ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '../../activities/shared/platform/config';
import { Like } from 'typeorm';
import { JournalEntry } from '../../activities/hub/db/entities';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { testDatabaseUrl } from '../helpers/database';
import { ilpPair, transferBody } from '../helpers/fspiopBodies';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { temporalAddress } from '../helpers/worker';
import { ensureNamespace } from '../../temporal/namespaces';
import { closingWindowsInTurn, deferredNetModel, type AdminCall } from '../helpers/settlementCycle';

const taskQueue = `crash-${crypto.randomUUID()}`;
// A namespace of its own: the worker process opens settlement windows, whose workflow IDs (settlementWindow/1, …) are
// numbered by this file's database and would meet another test file's in the shared default namespace.
const namespace = taskQueue;
const databaseUrl = testDatabaseUrl();
let hub: SwitchHarness;
let worker: ChildProcess | undefined;

/** The production worker entry point, in a process of its own that the test can kill. */
function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'worker', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: taskQueue,
      TEMPORAL_NAMESPACE: namespace,
      HUB_ID,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

test.before(async () => {
  await ensureNamespace({ address: temporalAddress() }, namespace);
  hub = await startSwitch({ databaseUrl, externalWorkerTaskQueue: taskQueue, externalWorkerNamespace: namespace });
  worker = startWorkerProcess();
});
test.after.always(async () => {
  worker?.kill('SIGKILL');
  await hub?.close();
});

test.serial('a worker killed with SIGKILL between prepare and fulfil is restarted and the transfer completes exactly once', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '33.3', { condition, expiresInMs: 120_000 });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId, 60_000);

  // Prepared and forwarded: the reservation is in the ledger. Now the worker dies without warning.
  worker!.kill('SIGKILL');
  await new Promise((resolve) => worker!.once('exit', resolve));
  const reserved = await hub.admin.call('GET', `/participants/${payer.name}/positions?currency=USD`);
  t.is(reserved.body.value, 33.3);

  // The payee fulfils while no worker runs; Temporal keeps the signal until one is back.
  const ack = await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
  });
  t.is(ack.status, 200);
  worker = startWorkerProcess();

  const committed = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}`, 90_000);
  t.is(committed.body.transferState, 'COMMITTED');
  t.is((await hub.admin.call('GET', `/participants/${payer.name}/positions?currency=USD`)).body.value, 33.3);
  t.is((await hub.admin.call('GET', `/participants/${payee.name}/positions?currency=USD`)).body.value, -33.3);
  const rows = await hub.services.db.read((manager) => manager.findBy(JournalEntry, { transferId: body.transferId }));
  t.deepEqual(rows.map((row) => row.phase).sort(), ['COMMIT', 'COMMIT', 'RESERVE'], 'one reservation, one commit of two legs');
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

/** Kills the worker process and waits until it is gone. */
async function killWorker(): Promise<void> {
  worker!.kill('SIGKILL');
  await new Promise((resolve) => worker!.once('exit', resolve));
}

test.serial('a worker killed while a settlement moves is restarted and the settlement goes on: each position is reset once', (t) =>
  closingWindowsInTurn(hub.services.db, async () => {
    const currency = 'MWK';
    const admin: AdminCall = (method, path, body) => hub.admin.call(method, path, body);
    const model = await deferredNetModel(admin, currency);
    const payer = await hub.provision({ currency });
    const payee = await hub.provision({ currency });
    const { fulfilment, condition } = ilpPair();
    payee.react(async (request) => {
      if (request.method !== 'POST' || request.path !== '/transfers') return;
      await hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
        source: payee.name,
        destination: payer.name,
        body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
      });
    });
    const body = transferBody(payer.name, payee.name, '40', { condition, currency: currency as 'USD' });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}`, 60_000);

    const v2 = (method: string, path: string, payload?: unknown) => hub.admin.call(method, `/v2${path}`, payload);
    const open = (await v2('GET', '/settlementWindows?state=OPEN')).body[0].settlementWindowId;
    t.is((await v2('POST', `/settlementWindows/${open}`, { state: 'CLOSED', reason: 'crash' })).status, 200);
    const settlement = (await v2('POST', '/settlements', { settlementModel: model, reason: 'crash', settlementWindows: [{ id: open }] })).body;
    const to = (state: string) =>
      v2('PUT', `/settlements/${settlement.id}`, {
        participants: settlement.participants.map((participant: any) => ({
          id: participant.id,
          accounts: participant.accounts.map((account: any) => ({ id: account.id, state, reason: state })),
        })),
      });
    t.is((await to('PS_TRANSFERS_RECORDED')).body.state, 'PS_TRANSFERS_RECORDED');
    /**
     * An operator's change that waits for the worker to be back: its connection may be dropped meanwhile (a loaded
     * machine, a long restart), and the operator asks again, which is safe: a change already made is only restated.
     */
    const surely = async (change: Promise<{ status: number; body: any }>, state: string) => {
      try {
        return await change;
      } catch (error) {
        t.log(`the change to ${state} was asked again after ${(error as Error).message}`);
        return to(state);
      }
    };

    // The operator's change reaches a settlement with no worker: it waits, and is carried out once one is back.
    await killWorker();
    const reserving = surely(to('PS_TRANSFERS_RESERVED'), 'PS_TRANSFERS_RESERVED');
    worker = startWorkerProcess();
    t.is((await reserving).body.state, 'PS_TRANSFERS_RESERVED');

    // The worker dies again with the commit under way, wherever in it the signal lands.
    const committing = surely(to('PS_TRANSFERS_COMMITTED'), 'PS_TRANSFERS_COMMITTED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await killWorker();
    worker = startWorkerProcess();
    t.is((await committing).body.state, 'PS_TRANSFERS_COMMITTED');
    t.is((await hub.admin.call('GET', `/participants/${payer.name}/positions?currency=${currency}`)).body.value, 0);
    t.is((await hub.admin.call('GET', `/participants/${payee.name}/positions?currency=${currency}`)).body.value, 0);
    t.is((await to('SETTLED')).body.state, 'SETTLED');
    const resets = await hub.services.db.read((manager) => manager.find(JournalEntry, { where: { transferId: Like(`settlement-${settlement.id}-%`) } }));
    t.deepEqual(
      resets.map((row) => row.phase).sort(),
      ['COMMIT', 'COMMIT', 'COMMIT', 'COMMIT', 'RESERVE', 'RESERVE'],
      'for each of the two accounts one reservation and one commit of two legs',
    );
    t.deepEqual((await checkLedger(hub.services.db)).violations, []);
  }),
);
