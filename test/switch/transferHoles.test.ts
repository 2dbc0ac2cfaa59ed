import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { WorkflowNotFoundError } from '@temporalio/client';
import { BulkTransfers } from '../../activities/hub/conversations/bulkTransfers';
import { Transfers } from '../../activities/hub/conversations/transfers';
import { LedgerTransfer } from '../../activities/hub/db/entities';
import { BulkTransferRecord, TransferRecord } from '../../activities/hub/db/switchEntities';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { requestHash } from '../../activities/shared/contracts/requestHash';
import { reservationSweep } from '../../workflows';
import { fulfilSignal, transfer, TransferInput } from '../../workflows/hub/transfer';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkTransferBody, ilpPair, transferBody } from '../helpers/fspiopBodies';
import { signalsTo } from '../helpers/histories';
import { pollUntil } from '../helpers/polling';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;
const isPost = (resource: string) => (r: { method: string; path: string }) => r.method === 'POST' && r.path === `/${resource}`;
const position = (dfsp: SimulatedDfsp) => hub.position(dfsp);
const temporal = () => hub.worker.client;
const taskQueue = () => hub.worker.taskQueue;

function post(body: ReturnType<typeof transferBody>, source: string) {
  return hub.fspiop('POST', '/transfers', { source, destination: body.payeeFsp, body });
}

function fulfil(transferId: string, from: SimulatedDfsp, to: string, fulfilment: string, transferState: 'COMMITTED' | 'RESERVED' = 'COMMITTED') {
  return hub.fspiop('PUT', `/transfers/${transferId}`, {
    source: from.name,
    destination: to,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState },
  });
}

async function exists(workflowId: string): Promise<boolean> {
  try {
    await temporal().workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** A committed transfer whose workflow history is then deleted, as Temporal does once its retention has passed. */
async function committedLongAgo(payer: SimulatedDfsp, payee: SimulatedDfsp) {
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '6', { condition });
  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));
  await fulfil(body.transferId, payee, payer.name, fulfilment);
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  const workflowId = workflowIds.transfer(body.transferId);
  await temporal().workflow.getHandle(workflowId).result();
  await temporal().workflowService.deleteWorkflowExecution({ namespace: 'default', workflowExecution: { workflowId } });
  // Temporal deletes a history some seconds after it is asked to.
  const stillThere = await pollUntil(
    () => exists(workflowId),
    (found) => !found,
    60_000,
  );
  if (stillThere) throw new Error(`${workflowId} was not deleted`);
  payer.received.length = 0;
  payee.received.length = 0;
  return { body, fulfilment, workflowId };
}

test('a POST /transfers whose FSPIOP-Source is not the payerFsp it names gets 3100 and takes nothing: the payer can still use its transferId', async (t) => {
  const [payer, payee, squatter] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '9', { condition });
  t.is((await post(body, squatter.name)).status, 202);
  t.is((await squatter.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3100');
  t.is(await hub.services.db.read((manager) => manager.findOneBy(TransferRecord, { transferId: body.transferId })), null, 'no record under its ID');

  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));
  await fulfil(body.transferId, payee, payer.name, fulfilment);
  t.is((await payer.waitFor((r) => r.path.startsWith(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
  t.is(await position(payer), 9);
});

test("a finished transfer's POST repeated by someone other than its payer gets 3100, never the transfer's state", async (t) => {
  const [payer, payee, stranger] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '4', { condition });
  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));
  await fulfil(body.transferId, payee, payer.name, fulfilment);
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));

  await post(body, stranger.name);
  t.is((await stranger.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3100');
  t.false(stranger.received.some(isPut(`/transfers/${body.transferId}`)));
});

test('a POST /bulkTransfers whose FSPIOP-Source is not its payerFsp gets 3100 and takes nothing: the payer can still use its bulkTransferId', async (t) => {
  const [payer, payee, squatter] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const body = bulkTransferBody(payer.name, payee.name, [bulkItem('2'), bulkItem('3')]);
  const path = `/bulkTransfers/${body.bulkTransferId}`;
  await hub.fspiop('POST', '/bulkTransfers', { source: squatter.name, destination: payee.name, body });
  t.is((await squatter.waitFor(isPut(`${path}/error`))).body.errorInformation.errorCode, '3100');
  t.is(await hub.services.db.read((manager) => manager.findOneBy(BulkTransferRecord, { bulkTransferId: body.bulkTransferId })), null);

  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
  const forwarded = await payee.waitFor(isPost('bulkTransfers'));
  t.is(forwarded.body.bulkTransferId, body.bulkTransferId);
  t.is(await position(payer), 5, 'both items reserved for the payer');
});

test("a bulk's repeated POST is answered from the record and a stranger's PUT refused (3100), neither a signal to its workflow; the payee's answer completes it", async (t) => {
  const [payer, payee, stranger] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const items = [bulkItem('2'), bulkItem('3')];
  const body = bulkTransferBody(payer.name, payee.name, items);
  const path = `/bulkTransfers/${body.bulkTransferId}`;
  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor(isPost('bulkTransfers'));

  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
  const results = {
    bulkTransferState: 'COMPLETED',
    individualTransferResults: items.map(({ transfer, fulfilment }) => ({ transferId: transfer.transferId, fulfilment })),
  };
  await hub.fspiop('PUT', path, { source: stranger.name, destination: payer.name, body: results });
  t.is((await stranger.waitFor(isPut(`${path}/error`))).body.errorInformation.errorCode, '3100');
  t.deepEqual(await signalsTo(temporal(), workflowIds.bulkTransfer(body.bulkTransferId)), []);

  await hub.fspiop('PUT', path, { source: payee.name, destination: payer.name, body: results });
  t.is((await payer.waitFor(isPut(path))).body.bulkTransferState, 'COMPLETED');
  t.deepEqual(await signalsTo(temporal(), workflowIds.bulkTransfer(body.bulkTransferId)), ['bulkTransferAnswer']);
  t.is(await position(payer), 5);
});

// Serial, as is the next: Temporal deletes a history slowly when asked for several at once.
test.serial('a POST repeated after its transfer history is gone is answered from the record, and no new run starts; a later PUT is answered too', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const { body, fulfilment, workflowId } = await committedLongAgo(payer, payee);

  await post(body, payer.name);
  const again = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(again.body.transferState, 'COMMITTED');
  t.is(again.body.fulfilment, fulfilment);
  t.false(await exists(workflowId), 'no conversation runs again for a decided transfer');

  await fulfil(body.transferId, payee, payer.name, fulfilment);
  t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
  t.is(await position(payer), 6, 'money moved once');
});

test.serial(
  'a run started for a transfer already decided (by a gateway that did not read the record) answers a PUT from the record and completes',
  async (t) => {
    const [payer, payee] = [await hub.provision(), await hub.provision()];
    const { body, fulfilment, workflowId } = await committedLongAgo(payer, payee);

    // The payer's endpoint fails for a while, so the run is still answering the repeat when the payee's PUT arrives.
    payer.status = 503;
    const input: TransferInput = {
      body,
      rawBody: JSON.stringify(body),
      headers: { 'fspiop-source': payer.name, 'fspiop-destination': payee.name },
      requestHash: requestHash(body),
      version: '1.1',
    };
    const run = await temporal().workflow.start(transfer, { workflowId, taskQueue: taskQueue(), args: [input] });
    try {
      await pollUntil(
        async () => (await run.fetchHistory()).events?.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'repeatedTransfer'),
        Boolean,
        30_000,
      );
      const put = { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' as const };
      await run.signal(fulfilSignal, { headers: { 'fspiop-source': payee.name, 'fspiop-destination': payer.name }, body: put, rawBody: JSON.stringify(put) });
      payer.status = undefined;

      const outcome = await Promise.race([run.result(), sleep(30_000, undefined, { ref: false }).then(() => 'still running')]);
      t.deepEqual(outcome, { transferState: 'COMMITTED' });
      t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
      t.is(await position(payer), 6);
    } finally {
      payer.status = undefined;
      await run.terminate().catch(() => undefined);
    }
  },
);

test('a PUT /transfers/{ID} from someone other than its payee never reaches the transfer: 3100 to the sender, naming no one, and the payee still fulfils', async (t) => {
  const [payer, payee, stranger] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '8', { condition });
  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));

  t.is((await fulfil(body.transferId, stranger, payer.name, fulfilment)).status, 200);
  const rejection = { errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } };
  t.is((await hub.fspiop('PUT', `/transfers/${body.transferId}/error`, { source: stranger.name, destination: payer.name, body: rejection })).status, 200);
  const refused = await stranger.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.is(refused.body.errorInformation.errorCode, '3100');
  t.false(refused.body.errorInformation.errorDescription.includes(payee.name), 'the payee is not named to a stranger');

  await fulfil(body.transferId, payee, payer.name, fulfilment);
  t.is((await payer.waitFor((r) => r.path.startsWith(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
  t.deepEqual(await signalsTo(temporal(), workflowIds.transfer(body.transferId)), ['fulfil'], "only the payee's message reached the workflow");
});

test('POSTs repeating a transfer in progress are answered from the record, none of them a signal to its workflow', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '3', { condition });
  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));

  for (let i = 0; i < 3; i++) t.is((await post(body, payer.name)).status, 202);
  await post({ ...body, amount: { amount: '30', currency: 'USD' } }, payer.name);
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3106');
  t.deepEqual(await signalsTo(temporal(), workflowIds.transfer(body.transferId)), []);

  await fulfil(body.transferId, payee, payer.name, fulfilment);
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
  t.is(payee.received.filter(isPost('transfers')).length, 1, 'forwarded once');
  t.is(await position(payer), 3);
});

test("a payee's PUT repeated after the transfer is decided is answered from the record, not signalled, even while its workflow still delivers", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '5', { condition });
  const workflowId = workflowIds.transfer(body.transferId);
  await post(body, payer.name);
  await payee.waitFor(isPost('transfers'));

  // The payee's endpoint fails: the workflow keeps retrying the PATCH it asked for, so it stays open.
  payee.status = 503;
  await fulfil(body.transferId, payee, payer.name, fulfilment, 'RESERVED');
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
  t.is((await temporal().workflow.getHandle(workflowId).describe()).status.name, 'RUNNING');
  for (let i = 0; i < 3; i++) t.is((await fulfil(body.transferId, payee, payer.name, fulfilment, 'RESERVED')).status, 200);
  t.deepEqual(await signalsTo(temporal(), workflowId), ['fulfil']);

  payee.status = undefined;
  t.is((await payee.waitFor((r) => r.method === 'PATCH', 60_000)).body.transferState, 'COMMITTED');
  t.is(await position(payer), 5);
});

test('the sweep releases a reservation long expired however many live reservations come before it', async (t) => {
  const payer = await hub.provision({ netDebitCap: 100_000, fundsIn: 100_000 });
  const payee = await hub.provision();
  // More live reservations than the sweep ever read at once, all made before the stale one.
  const bulks = new BulkTransfers(hub.services);
  for (let i = 0; i < 5; i++) {
    const items = Array.from({ length: 1_000 }, () => bulkItem('1'));
    const body = bulkTransferBody(payer.name, payee.name, items, { expiresInMs: 3_600_000 });
    await bulks.prepare({ body, source: payer.name, requestHash: `live-${i}` });
  }
  const transfers = new Transfers(hub.services);
  const stale = transferBody(payer.name, payee.name, '7', { expiresInMs: 60_000 });
  await transfers.prepare({ body: stale, source: payer.name, requestHash: 'stale' });
  // Its workflow is gone and it expired ten minutes ago: the reservation carries the expiry the sweep reads.
  const tenMinutesAgo = new Date(Date.now() - 600_000);
  await hub.services.db.transaction(async (manager) => {
    await manager.update(TransferRecord, { transferId: stale.transferId }, { expiration: tenMinutesAgo });
    await manager.update(LedgerTransfer, { transferId: stale.transferId }, { expiresAt: tenMinutesAgo });
  });
  t.is(await position(payer), 5_007);

  await temporal().workflow.execute(reservationSweep, { workflowId: `sweep-${crypto.randomUUID()}`, taskQueue: taskQueue() });
  t.is((await transfers.get(stale.transferId)).transferState, 'ABORTED');
  t.is(await position(payer), 5_000, 'the live reservations stand');
});

/** A transfer recorded as RECEIVED whose workflow ended before it prepared anything, its expiration long past. */
async function recordedButNeverPrepared(payer: SimulatedDfsp, payee: SimulatedDfsp) {
  const body = transferBody(payer.name, payee.name, '9');
  await hub.services.db.transaction((manager) =>
    manager.insert(TransferRecord, {
      transferId: body.transferId,
      payerFsp: body.payerFsp,
      payeeFsp: body.payeeFsp,
      amount: body.amount.amount,
      currency: body.amount.currency,
      ilpCondition: body.condition,
      ilpPacket: body.ilpPacket,
      expiration: new Date(Date.now() - 600_000),
      requestHash: requestHash(body),
      transferState: 'RECEIVED',
      payeeWantsNotification: false,
      createdDate: new Date(Date.now() - 660_000),
    }),
  );
  return body;
}

test('a transfer left RECEIVED by a workflow that ended before preparing it is answered: its payer repeating the POST gets 3303', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = await recordedButNeverPrepared(payer, payee);
  t.is((await post(body, payer.name)).status, 202);
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`), 30_000);
  t.is(error.body.errorInformation.errorCode, '3303');
  t.is((await new Transfers(hub.services).get(body.transferId)).transferState, 'ABORTED');
  t.false(
    payee.received.some((r) => r.path.startsWith(`/transfers/${body.transferId}`)),
    'the payee never heard of it',
  );
  t.is(await position(payer), 0);
});

test('the sweep aborts a transfer left RECEIVED long after its expiration and tells its payer 3303', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = await recordedButNeverPrepared(payer, payee);
  await temporal().workflow.execute(reservationSweep, { workflowId: `sweep-${crypto.randomUUID()}`, taskQueue: taskQueue() });
  t.is((await new Transfers(hub.services).get(body.transferId)).transferState, 'ABORTED');
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`), 30_000);
  t.is(error.body.errorInformation.errorCode, '3303');
  t.false(
    payee.received.some((r) => r.path.startsWith(`/transfers/${body.transferId}`)),
    'the payee never heard of it',
  );
});
