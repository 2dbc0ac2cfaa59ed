import crypto from 'node:crypto';
import test from 'ava';
import { HubError } from '../../activities/shared/platform/hubError';
import { BulkTransfers } from '../../activities/hub/conversations/bulkTransfers';
import { JournalEntry, LedgerTransfer, ParticipantAccount } from '../../activities/hub/db/entities';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { bulkItem, bulkTransferBody } from '../helpers/fspiopBodies';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

async function dfsp(netDebitCap = 1_000): Promise<{ name: string; position: number; settlement: number }> {
  const name = uniqueName();
  const { body } = await admin.call('POST', '/participants', { name, currency: 'USD' });
  await admin.call('PUT', `/participants/${name}`, { isActive: true });
  await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: netDebitCap },
    initialPosition: 0,
  });
  const account = (type: string) => body.accounts.find((a: any) => a.ledgerAccountType === type).id;
  await admin.call('POST', `/participants/${name}/accounts/${account('SETTLEMENT')}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'x',
    action: 'recordFundsIn',
    reason: 'x',
    amount: { amount: 1_000, currency: 'USD' },
  });
  return { name, position: account('POSITION'), settlement: account('SETTLEMENT') };
}

const positionOf = async (name: string) => (await admin.call('GET', `/participants/${name}/positions?currency=USD`)).body.value;

test('a bulk prepare retried after its reservations stand (even past expiration) re-checks nothing and reserves no item twice', async (t) => {
  const bulks = new BulkTransfers(admin.services);
  const [payer, payee] = [await dfsp(100), await dfsp()];
  const body = bulkTransferBody(payer.name, payee.name, [bulkItem('60'), bulkItem('50'), bulkItem('40')], { expiresInMs: 1_000 });
  const first = await bulks.prepare({ body, source: payer.name, requestHash: 'h' });
  t.like(first, { outcome: 'prepared', accepted: 2 });
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  t.like(await bulks.prepare({ body, source: payer.name, requestHash: 'h' }), { outcome: 'prepared', accepted: 2 });
  t.is(await positionOf(payer.name), 100);
  const modified = await t.throwsAsync<HubError>(bulks.prepare({ body, source: payer.name, requestHash: 'other' }), { instanceOf: HubError });
  t.deepEqual(modified?.errorInformation, { errorCode: '3106', errorDescription: 'Modified request' }, "central-ledger's words alone");
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

test('a bulk fulfilment handled after the bulk expired commits nothing: each item is released with 3303 (Transfer expired), which both payer and payee see', async (t) => {
  const bulks = new BulkTransfers(admin.services);
  const [payer, payee] = [await dfsp(), await dfsp()];
  const items = [bulkItem('30'), bulkItem('20')];
  const body = bulkTransferBody(payer.name, payee.name, items, { expiresInMs: 1_000 });
  t.like(await bulks.prepare({ body, source: payer.name, requestHash: 'h' }), { outcome: 'prepared', accepted: 2 });
  // The payee's answer was in time, but the worker handles it only after the expiration (paused, or down).
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const results = items.map(({ transfer, fulfilment }) => ({ transferId: transfer.transferId, fulfilment }));
  t.deepEqual(await bulks.fulfil({ bulkTransferId: body.bulkTransferId, results }), { open: 0 });

  t.is(await positionOf(payer.name), 0, 'no item commits, and no reservation is left');
  t.is(await positionOf(payee.name), 0);
  const bulk = (await bulks.find(body.bulkTransferId))!;
  for (const party of ['payer', 'payee'] as const) {
    const seen = await bulks.results(bulk, party);
    t.deepEqual(
      seen.map((result) => [result.transferId, result.fulfilment, result.errorInformation?.errorCode]),
      items.map(({ transfer }) => [transfer.transferId, undefined, '3303']),
      `the ${party}'s view`,
    );
  }
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

/** A movement of each amount from the payer's position to the payee's, in USD. */
function movementsBetween(payer: { position: number }, payee: { position: number }, amounts: string[]) {
  return amounts.map((amount) => ({
    transferId: crypto.randomUUID(),
    kind: 'TRANSFER',
    debitAccountId: payer.position,
    creditAccountId: payee.position,
    amount,
    currency: 'USD',
  }));
}

test('a ledger step over many movements, repeated, reserves each once; a movement the Net Debit Cap refuses is left out and the rest go on', async (t) => {
  const [payer, payee] = [await dfsp(100), await dfsp()];
  const movements = movementsBetween(payer, payee, ['70', '40', '30']);
  const first = await admin.services.ledger.reserveEach(movements);
  t.deepEqual(
    first.map((r) => ('refused' in r ? r.refused.errorInformation.errorCode : 'reserved')),
    ['reserved', '4200', 'reserved'],
  );
  const again = await admin.services.ledger.reserveEach([movements[0], movements[2]]);
  t.true(again.every((r) => 'reserved' in r));
  const ids = movements.map((m) => m.transferId);
  const journal = await admin.services.db.read((manager) => manager.find(JournalEntry, { where: ids.map((transferId) => ({ transferId })) }));
  t.is(journal.length, 2, 'one RESERVE row per reserved movement');
  t.is(await positionOf(payer.name), 100);

  const resolved = await admin.services.ledger.resolveEach([
    { transferId: ids[0], outcome: 'COMMITTED' },
    { transferId: ids[2], outcome: 'ABORTED' },
  ]);
  t.deepEqual(
    resolved.map((m) => m.state),
    ['COMMITTED', 'ABORTED'],
  );
  const repeated = await admin.services.ledger.resolveEach([
    { transferId: ids[0], outcome: 'ABORTED' },
    { transferId: ids[2], outcome: 'COMMITTED' },
  ]);
  t.deepEqual(
    repeated.map((m) => m.state),
    ['COMMITTED', 'ABORTED'],
    'a resolved movement keeps its outcome',
  );
  const states = await admin.services.db.read((manager) => manager.find(LedgerTransfer, { where: ids.map((transferId) => ({ transferId })) }));
  t.is(states.length, 2);
  t.is(await positionOf(payer.name), 70);
  t.is(await positionOf(payee.name), -70);
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

test('the ledger checks every reservation by the accounts it moves, whoever calls it: a payment against cover and cap, a withdrawal against the deposit', async (t) => {
  const [payer, payee] = [await dfsp(100), await dfsp()];
  const { ledger, db } = admin.services;
  const [beyondCap] = movementsBetween(payer, payee, ['100.0001']);
  await t.throwsAsync(ledger.reserve(beyondCap), { message: /Net Debit Cap 100/ });
  const [atCap] = movementsBetween(payer, payee, ['100']);
  await ledger.reserve(atCap);
  t.is(await positionOf(payer.name), 100);

  // 1000 deposited, 100 of it covering the position: 900 may leave, not a minor unit more.
  const reconciliation = (await db.read((m) => m.findOneBy(ParticipantAccount, { ledgerAccountType: 'HUB_RECONCILIATION', currency: 'USD' })))!;
  const withdrawal = (amount: string) => ({
    transferId: crypto.randomUUID(),
    kind: 'FUNDS_OUT',
    debitAccountId: payer.settlement,
    creditAccountId: reconciliation.id,
    amount,
    currency: 'USD',
  });
  await t.throwsAsync(ledger.reserve(withdrawal('900.0001')), { message: /exceeds the available 900/ });
  await t.throwsAsync(ledger.post(withdrawal('900.0001')), { message: /exceeds the available 900/ }, 'posting at once is no way round it');
  await ledger.reserve(withdrawal('900'));
  t.deepEqual((await checkLedger(db)).violations, []);
});

test('the ledger refuses a commit at or after the expiry a reservation carries and releases it instead; one before its expiry commits', async (t) => {
  const [payer, payee] = [await dfsp(), await dfsp()];
  const [lapsing, lasting] = movementsBetween(payer, payee, ['8', '5']);
  await admin.services.ledger.reserveEach([
    { ...lapsing, expiresAt: new Date(Date.now() - 1) },
    { ...lasting, expiresAt: new Date(Date.now() + 60_000) },
  ]);
  const resolved = await admin.services.ledger.resolveEach([
    { transferId: lapsing.transferId, outcome: 'COMMITTED' },
    { transferId: lasting.transferId, outcome: 'COMMITTED' },
  ]);
  t.deepEqual(
    resolved.map((m) => m.state),
    ['ABORTED', 'COMMITTED'],
  );
  t.is(await positionOf(payer.name), 5, 'only the live movement moved the position, and nothing stays reserved');
  t.is(await positionOf(payee.name), -5);
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});
