import crypto from 'node:crypto';
import test from 'ava';
import { In } from 'typeorm';
import { LedgerTransfer, ParticipantAccount } from '../../activities/hub/db/entities';
import { FUNDS_OUT_VALIDITY_MS } from '../../activities/hub/ledger/funds';
import { FundsOutExpiry1795000001250 } from '../../activities/hub/db/migrations/1795000001250-FundsOutExpiry';
import { checkLedger, ledgerSnapshot, ledgerViolations } from '../../activities/hub/ledger/invariants';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

async function dfspWithSettlement(currency = 'USD') {
  const name = uniqueName();
  const { body } = await admin.call('POST', '/participants', { name, currency });
  const settlement = body.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT').id as number;
  const position = body.accounts.find((a: any) => a.ledgerAccountType === 'POSITION').id as number;
  return { name, settlement, position };
}

const fundsIn = (amount: number | string, transferId: string = crypto.randomUUID(), currency = 'USD') => ({
  transferId,
  externalReference: 'bank-ref-1',
  action: 'recordFundsIn',
  reason: 'deposit',
  amount: { amount, currency },
});

const fundsOut = (amount: number | string, transferId: string = crypto.randomUUID()) => ({
  transferId,
  externalReference: 'bank-ref-2',
  action: 'recordFundsOutPrepareReserve',
  reason: 'withdrawal',
  amount: { amount, currency: 'USD' },
});

async function account(name: string, id: number) {
  return (await admin.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.id === id);
}

async function hubReconciliation(currency: string) {
  return (await admin.call('GET', `/participants/${HUB_NAME}/accounts`)).body.find(
    (a: any) => a.currency === currency && a.ledgerAccountType === 'HUB_RECONCILIATION',
  );
}

test('recordFundsIn lowers the settlement account by the deposit and the hub reconciliation account mirrors it', async (t) => {
  const { name, settlement } = await dfspWithSettlement('GHS');
  const before = (await hubReconciliation('GHS')).value;
  const { status } = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(5000.25, undefined, 'GHS'));
  t.is(status, 202);
  t.like(await account(name, settlement), { value: -5000.25, reservedValue: 0 });
  t.is((await hubReconciliation('GHS')).value, before + 5000.25);
});

test('funds in is idempotent by transferId: a repeat moves nothing, a changed repeat is rejected with 3106', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  const transferId = crypto.randomUUID();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(100, transferId));
  const repeat = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(100, transferId));
  t.is(repeat.status, 202);
  t.is((await account(name, settlement)).value, -100);
  const changed = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(999, transferId));
  t.is(changed.status, 400);
  t.is(changed.body.errorInformation.errorCode, '3106');
  t.is((await account(name, settlement)).value, -100);
});

test('funds out is reserved first, then committed: the reservation blocks the money until the commit moves it', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(1000));
  const transferId = crypto.randomUUID();
  const reserve = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(400, transferId));
  t.is(reserve.status, 202);
  t.like(await account(name, settlement), { value: -600, reservedValue: 0 }, 'central-ledger shows a reserve in value at once');

  const tooMuch = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(600.01));
  t.is(tooMuch.status, 400);
  t.is(tooMuch.body.errorInformation.errorCode, '4001');

  const commit = await admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${transferId}`, {
    action: 'recordFundsOutCommit',
    reason: 'paid out',
  });
  t.is(commit.status, 202);
  t.like(await account(name, settlement), { value: -600, reservedValue: 0 });

  const commitAgain = await admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${transferId}`, {
    action: 'recordFundsOutCommit',
    reason: 'paid out',
  });
  t.is(commitAgain.status, 202);
  t.like(await account(name, settlement), { value: -600, reservedValue: 0 });
});

test('an aborted funds out releases the reservation and cannot be committed afterwards', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(300));
  const transferId = crypto.randomUUID();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(300, transferId));
  const abort = await admin.call('POST', `/participants/${name}/accounts/${settlement}/transfers/${transferId}`, {
    action: 'recordFundsOutAbort',
    reason: 'bank rejected',
  });
  t.is(abort.status, 202);
  t.like(await account(name, settlement), { value: -300, reservedValue: 0 });
  const commit = await admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${transferId}`, {
    action: 'recordFundsOutCommit',
    reason: 'too late',
  });
  t.is(commit.status, 400);
  t.like(await account(name, settlement), { value: -300, reservedValue: 0 });
});

test('funds out recorded in one step (recordFundsOut, as the console records it) moves the money at once and leaves nothing reserved', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(1000));
  const transferId = crypto.randomUUID();
  const out = { ...fundsOut('400.25', transferId), action: 'recordFundsOut' };
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, out)).status, 202);
  const movement = await admin.services.db.read((manager) => manager.findOneByOrFail(LedgerTransfer, { transferId }));
  t.like(movement, { kind: 'FUNDS_OUT', state: 'COMMITTED' });
  t.like(await account(name, settlement), { value: -599.75, reservedValue: 0 });

  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, out)).status, 202, 'a repeat is answered as the first');
  t.like(await account(name, settlement), { value: -599.75, reservedValue: 0 }, 'and moves nothing');
  const changed = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, { ...out, amount: { amount: 1, currency: 'USD' } });
  t.is(changed.body.errorInformation.errorCode, '3106');

  const tooMuch = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, { ...fundsOut('599.76'), action: 'recordFundsOut' });
  t.is(tooMuch.status, 400);
  t.is(tooMuch.body.errorInformation.errorCode, '4001');
  t.like(await account(name, settlement), { value: -599.75, reservedValue: 0 });
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

test("a funds-out reservation lapses after central-ledger's five days: its commit is then refused with 3303, and an abort still releases it", async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(500));
  const transferId = crypto.randomUUID();
  const before = Date.now();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(200, transferId));
  const reservation = () => admin.services.db.read((manager) => manager.findOneByOrFail(LedgerTransfer, { transferId }));
  const { expiresAt } = await reservation();
  t.not(expiresAt, null, 'the reservation carries its expiry');
  t.true(expiresAt!.getTime() >= before + FUNDS_OUT_VALIDITY_MS && expiresAt!.getTime() <= Date.now() + FUNDS_OUT_VALIDITY_MS);

  await admin.services.db.transaction((manager) => manager.update(LedgerTransfer, { transferId }, { expiresAt: new Date(Date.now() - 1) }));
  const path = `/participants/${name}/accounts/${settlement}/transfers/${transferId}`;
  const late = await admin.call('PUT', path, { action: 'recordFundsOutCommit', reason: 'paid out' });
  t.is(late.status, 400);
  t.is(late.body.errorInformation.errorCode, '3303');
  t.is((await reservation()).state, 'RESERVED', 'left for an abort, or the sweep, to release');
  t.is((await admin.call('PUT', path, { action: 'recordFundsOutAbort', reason: 'never paid' })).status, 202);
  t.is((await reservation()).state, 'ABORTED');
  t.like(await account(name, settlement), { value: -500, reservedValue: 0 });
});

test('funds-out reservations made before they lapsed take, on migration, the expiry they would have had: five days after they were made', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(1000));
  const made = { stranded: new Date(Date.now() - 6 * 86_400_000), recent: new Date(Date.now() - 3_600_000) };
  const ids = { stranded: crypto.randomUUID(), recent: crypto.randomUUID(), committed: crypto.randomUUID() };
  for (const transferId of Object.values(ids)) await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(10, transferId));
  await admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${ids.committed}`, { action: 'recordFundsOutCommit', reason: 'paid' });
  // As the hub left them before: no expiry.
  await admin.services.db.transaction(async (manager) => {
    await manager.update(LedgerTransfer, { transferId: In(Object.values(ids)) }, { expiresAt: null });
    await manager.update(LedgerTransfer, { transferId: ids.stranded }, { createdDate: made.stranded });
    await manager.update(LedgerTransfer, { transferId: ids.recent }, { createdDate: made.recent });
  });
  const runner = admin.services.db.dataSource.createQueryRunner();
  try {
    await new FundsOutExpiry1795000001250().up(runner);
  } finally {
    await runner.release();
  }
  const expiryOf = async (transferId: string) =>
    (await admin.services.db.read((manager) => manager.findOneByOrFail(LedgerTransfer, { transferId }))).expiresAt?.toISOString();
  t.is(await expiryOf(ids.stranded), new Date(made.stranded.getTime() + FUNDS_OUT_VALIDITY_MS).toISOString(), 'lapsed a day ago: the sweep releases it');
  t.is(await expiryOf(ids.recent), new Date(made.recent.getTime() + FUNDS_OUT_VALIDITY_MS).toISOString(), 'still waiting, for five days less an hour');
  t.is(await expiryOf(ids.committed), undefined, 'a decided movement is left as it was');
});

test('committing an unknown funds-out transfer is 400 with 3208', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  const { status, body } = await admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${crypto.randomUUID()}`, {
    action: 'recordFundsOutCommit',
    reason: 'x',
  });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3208');
});

test('funds move only through SETTLEMENT accounts, in their own currency', async (t) => {
  const { name, position, settlement } = await dfspWithSettlement();
  const onPosition = await admin.call('POST', `/participants/${name}/accounts/${position}`, fundsIn(10));
  t.is(onPosition.status, 400);
  const wrongCurrency = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(10, undefined, 'EUR'));
  t.is(wrongCurrency.status, 400);
  const unknownAccount = await admin.call('POST', `/participants/${name}/accounts/99999999`, fundsIn(10));
  t.is(unknownAccount.status, 400);
});

test('amounts must be positive with at most four decimals', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(0))).status, 400);
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(-5))).status, 400);
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(1.23456))).status, 400);
  t.is((await account(name, settlement)).value, 0);
});

test('after concurrent deposits and withdrawals every balance equals its journal and each currency sums to zero', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  await Promise.all(Array.from({ length: 20 }, () => admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(10.5))));
  const outs = Array.from({ length: 10 }, () => crypto.randomUUID());
  await Promise.all(outs.map((id) => admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut(20, id))));
  await Promise.all(
    outs.map((id, i) =>
      admin.call('PUT', `/participants/${name}/accounts/${settlement}/transfers/${id}`, {
        action: i % 2 === 0 ? 'recordFundsOutCommit' : 'recordFundsOutAbort',
        reason: 'settle',
      }),
    ),
  );
  // 20 × 10.5 in, 5 × 20 out: the settlement account shows -210 + 100.
  t.like(await account(name, settlement), { value: -110, reservedValue: 0 });
  const check = await checkLedger(admin.services.db);
  t.deepEqual(check.violations, []);
  t.true(check.journalRows > 0);
});

test('two deposits of 5000000000000000.0001 leave exactly -10000000000000000.0002, as the ledger check confirms', async (t) => {
  // 17 integer digits and 4 decimals: 21 significant digits, one more than decimal.js computes by default.
  const { name, settlement } = await dfspWithSettlement('CHF');
  for (let i = 0; i < 2; i++) {
    t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn('5000000000000000.0001', undefined, 'CHF'))).status, 202);
  }
  // The admin API answers in JSON numbers, which hold no such figure: the ledger's own text is the one to check.
  const stored = await admin.services.db.read((manager) => manager.findOneByOrFail(ParticipantAccount, { id: settlement }));
  t.is(stored.value, '-10000000000000000.0002');
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
  // The figure a 20-digit sum gives, which the check must not take for the journal's.
  const { accounts, rows } = await admin.services.db.read(ledgerSnapshot);
  const rounded = accounts.map((each) => (each.id === settlement ? { ...each, value: '-10000000000000000.0000' } : each));
  t.like(
    ledgerViolations(rounded, rows).find((violation) => violation.invariant === 'balancesMatchJournal' && violation.accountId === settlement),
    { accountId: settlement, balance: 'value', held: '-10000000000000000.0000', journal: '-10000000000000000.0002' },
  );
});

test("funds out cannot withdraw the cover of a DFSP's open position", async (t) => {
  const { name, settlement } = await dfspWithSettlement('XAF');
  await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(100, undefined, 'XAF'));
  await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'XAF',
    limit: { type: 'NET_DEBIT_CAP', value: 1000 },
    initialPosition: 90,
  });
  const all = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, { ...fundsOut(100), amount: { amount: 100, currency: 'XAF' } });
  t.is(all.status, 400);
  t.is(all.body.errorInformation.errorCode, '4001');
  const spare = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, { ...fundsOut(10), amount: { amount: 10, currency: 'XAF' } });
  t.is(spare.status, 202);
});

test('a funds movement needs a UUID transferId and bounded texts', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  const notUuid = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(10, 'not-a-uuid'));
  t.is(notUuid.status, 400);
  t.is(notUuid.body.errorInformation.errorCode, '3101');
  const longReason = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, { ...fundsIn(10), reason: 'r'.repeat(600) });
  t.is(longReason.status, 400);
  t.is((await account(name, settlement)).value, 0);
});

test('amounts written as numeric strings, as Mojaloop onboarding sends them, are taken exactly', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn('5000'))).status, 202);
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn('0.0001'))).status, 202);
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsOut('1234.5678'))).status, 202);
  t.like(await account(name, settlement), { value: -3765.4323, reservedValue: 0 });
});

test('an amount with more than 4 decimal places is refused (3100), never rounded; a string that is no number is 3101', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  for (const amount of ['100.12345', 100.12345]) {
    const refused = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(amount));
    t.is(refused.status, 400, String(amount));
    t.is(refused.body.errorInformation.errorCode, '3100', String(amount));
  }
  for (const amount of ['12abc', '1e3', ' 5', '']) {
    const refused = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, fundsIn(amount));
    t.is(refused.status, 400, JSON.stringify(amount));
    t.is(refused.body.errorInformation.errorCode, '3101', JSON.stringify(amount));
  }
  t.is((await account(name, settlement)).value, 0);
});

test('an amount written as a JSON number with more decimals than a double keeps is refused (3100), not rounded by the parser', async (t) => {
  const { name, settlement } = await dfspWithSettlement();
  // JSON.parse would read each of these as a nearby double (100, 0.3, 12345678901234567000) and lose the rest.
  for (const amount of ['100.00000000000000001', '0.30000000000000000001', '12345678901234567.1']) {
    const text = JSON.stringify(fundsIn(0)).replace('"amount":0', `"amount":${amount}`);
    const refused = await admin.call('POST', `/participants/${name}/accounts/${settlement}`, text);
    t.is(refused.status, 400, amount);
    t.is(refused.body.errorInformation.errorCode, '3100', amount);
    t.regex(refused.body.errorInformation.errorDescription, new RegExp(amount.replace('.', '\\.')), amount);
  }
  const outText = JSON.stringify(fundsOut(0)).replace('"amount":0', '"amount":1.00000000000000001');
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, outText)).status, 400);
  t.is((await account(name, settlement)).value, 0);
  // Numbers a double holds exactly are taken as before, in any JSON spelling.
  const exact = JSON.stringify(fundsIn(0)).replace('"amount":0', '"amount":1.5e2');
  t.is((await admin.call('POST', `/participants/${name}/accounts/${settlement}`, exact)).status, 202);
  t.is((await account(name, settlement)).value, -150);
});
