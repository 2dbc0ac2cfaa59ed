import crypto from 'node:crypto';
import test from 'ava';
import { LedgerTransfer } from '../../activities/hub/db/entities';
import pino from 'pino';
import { Transfers } from '../../activities/hub/conversations/transfers';
import { ReservationSweep } from '../../activities/hub/conversations/reservationSweep';
import { CallbackSender } from '../../activities/hub/delivery/callbacks';
import { ParticipantDirectory } from '../../activities/hub/delivery/directory';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { ilpPair, transferBody } from '../helpers/fspiopBodies';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

async function settlementAccountOf(name: string): Promise<number> {
  return (await admin.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.ledgerAccountType === 'SETTLEMENT').id;
}

async function dfsp(): Promise<string> {
  const name = uniqueName();
  const { body } = await admin.call('POST', '/participants', { name, currency: 'USD' });
  await admin.call('PUT', `/participants/${name}`, { isActive: true });
  await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 1000 },
    initialPosition: 0,
  });
  const settlement = body.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT').id;
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'x',
    action: 'recordFundsIn',
    reason: 'x',
    amount: { amount: 1000, currency: 'USD' },
  });
  return name;
}

test('a prepare retried after its reservation stands (even past expiry) keeps the reservation and re-checks nothing', async (t) => {
  const transfers = new Transfers(admin.services);
  const [payer, payee] = [await dfsp(), await dfsp()];
  const body = transferBody(payer, payee, '25', { expiresInMs: 1_000, condition: ilpPair().condition });
  t.deepEqual(await transfers.prepare({ body, source: payer, requestHash: 'h' }), { outcome: 'reserved' });
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  t.deepEqual(await transfers.prepare({ body, source: payer, requestHash: 'h' }), { outcome: 'reserved' });
  t.is((await transfers.get(body.transferId)).transferState, 'RESERVED');

  // The abort decides from the ledger: the reservation is released exactly once.
  const error = { errorCode: '3303', errorDescription: 'Transfer expired' };
  await transfers.abort({ transferId: body.transferId, errorInformation: error });
  await transfers.abort({ transferId: body.transferId, errorInformation: error });
  const ledger = await admin.services.db.read((m) => m.findOneBy(LedgerTransfer, { transferId: body.transferId }));
  t.is(ledger!.state, 'ABORTED');
  t.is((await admin.call('GET', `/participants/${payer}/positions?currency=USD`)).body.value, 0);
});

test('a decided transfer is never rewritten: a later prepare of the same request is a repeat, a late commit is refused', async (t) => {
  const transfers = new Transfers(admin.services);
  const [payer, payee] = [await dfsp(), await dfsp()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer, payee, '5', { condition });
  await transfers.prepare({ body, source: payer, requestHash: 'h' });
  await transfers.commit({ transferId: body.transferId, fulfilment, payeeWantsNotification: false });
  t.deepEqual(await transfers.prepare({ body, source: payer, requestHash: 'h' }), { outcome: 'repeat', transferState: 'COMMITTED' });
  t.is((await transfers.get(body.transferId)).transferState, 'COMMITTED');
  await t.throwsAsync(transfers.abort({ transferId: body.transferId, errorInformation: { errorCode: '3303', errorDescription: 'late' } }));
  t.is((await transfers.get(body.transferId)).transferState, 'COMMITTED');
  t.is((await admin.call('GET', `/participants/${payer}/positions?currency=USD`)).body.value, 5);
});

/** The reservation sweep as the worker runs it, over this file's hub. */
function reservationSweep(transfers: Transfers): ReservationSweep {
  const log = pino({ level: 'silent' });
  return new ReservationSweep(
    admin.services,
    transfers,
    new CallbackSender({ directory: new ParticipantDirectory(admin.services.db, 0), log, hubId: HUB_NAME }),
    log,
  );
}

test('the sweep releases a reservation still held long after its transfer expired, and leaves live ones alone', async (t) => {
  const transfers = new Transfers(admin.services);
  const sweep = reservationSweep(transfers);
  const [payer, payee] = [await dfsp(), await dfsp()];
  const stranded = transferBody(payer, payee, '12', { expiresInMs: 500 });
  const live = transferBody(payer, payee, '3', { expiresInMs: 60_000 });
  await transfers.prepare({ body: stranded, source: payer, requestHash: 'a' });
  await transfers.prepare({ body: live, source: payer, requestHash: 'b' });
  await new Promise((resolve) => setTimeout(resolve, 800));

  const stale = (await sweep.stale({ graceMs: 0 })).transferIds;
  t.true(stale.includes(stranded.transferId));
  t.false(stale.includes(live.transferId));
  await sweep.release(stranded.transferId);
  t.is((await transfers.get(stranded.transferId)).transferState, 'ABORTED');
  t.is((await transfers.get(live.transferId)).transferState, 'RESERVED');
  t.is((await admin.call('GET', `/participants/${payer}/positions?currency=USD`)).body.value, 3);
  t.false((await sweep.stale({ graceMs: 0 })).transferIds.includes(stranded.transferId));
});

test('the sweep releases a funds-out reservation nobody committed or aborted once it has lapsed, and leaves one still waiting', async (t) => {
  const sweep = reservationSweep(new Transfers(admin.services));
  const name = await dfsp();
  const settlement = await settlementAccountOf(name);
  const [stranded, waiting] = [crypto.randomUUID(), crypto.randomUUID()];
  for (const [transferId, amount] of [
    [stranded, 300],
    [waiting, 200],
  ] as const) {
    const reserved = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, {
      transferId,
      externalReference: 'bank-ref',
      action: 'recordFundsOutPrepareReserve',
      reason: 'withdrawal',
      amount: { amount, currency: 'USD' },
    });
    t.is(reserved.status, 202);
  }
  const ledgerState = async (transferId: string) => (await admin.services.db.read((m) => m.findOneByOrFail(LedgerTransfer, { transferId }))).state;
  await admin.services.db.transaction((m) => m.update(LedgerTransfer, { transferId: stranded }, { expiresAt: new Date(Date.now() - 1) }));

  const stale = (await sweep.stale({ graceMs: 0 })).transferIds;
  t.true(stale.includes(stranded));
  t.false(stale.includes(waiting));
  await sweep.release(stranded);
  await sweep.release(stranded);
  await sweep.release(waiting);
  t.is(await ledgerState(stranded), 'ABORTED');
  t.is(await ledgerState(waiting), 'RESERVED', 'even asked by name, the sweep releases nothing before its expiry');
  const account = (await admin.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.id === settlement);
  t.like(account, { value: -800, reservedValue: 0 }, 'the 300 is back, once; the 200 still held');
  t.false((await sweep.stale({ graceMs: 0 })).transferIds.includes(stranded));
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

test('the ledger itself refuses a commit at or after the expiry its reservation carries (3303), whoever asks, and the reservation stands', async (t) => {
  const transfers = new Transfers(admin.services);
  const [payer, payee] = [await dfsp(), await dfsp()];
  const body = transferBody(payer, payee, '8', { expiresInMs: 60_000 });
  await transfers.prepare({ body, source: payer, requestHash: 'h' });
  const reservationOf = () => admin.services.db.read((m) => m.findOneBy(LedgerTransfer, { transferId: body.transferId }));
  t.is((await reservationOf())!.expiresAt?.toISOString(), new Date(body.expiration).toISOString(), 'the reservation carries the expiration');
  await admin.services.db.transaction((m) => m.update(LedgerTransfer, { transferId: body.transferId }, { expiresAt: new Date(Date.now() - 1) }));
  await t.throwsAsync(admin.services.ledger.commit(body.transferId), { message: /expired at .* before it could commit/ });
  t.is((await reservationOf())!.state, 'RESERVED', 'left to the transfer to release');
  t.is((await admin.call('GET', `/participants/${payer}/positions?currency=USD`)).body.value, 8);
  await admin.services.db.transaction((m) => m.update(LedgerTransfer, { transferId: body.transferId }, { expiresAt: new Date(Date.now() + 60_000) }));
  await admin.services.ledger.commit(body.transferId);
  t.is((await reservationOf())!.state, 'COMMITTED');
});
