import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { Participant, ParticipantAccount } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { committedPayment } from '../helpers/ledgerPayments';

// GET /ledger/invariants checks the whole ledger, so this file breaks a balance on a database of its own (SQLite, even
// where DATABASE_URL names the suite's shared MariaDB): another file's check must never see the damage.
let admin: AdminHarness;
test.before(async () => {
  const databaseUrl = `sqlite:${path.join(os.tmpdir(), `hub-ledger-invariants-${crypto.randomUUID()}.sqlite`)}`;
  admin = await startAdmin(await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME, newParticipantsActive: true }));
});
test.after.always(async () => {
  await admin?.close();
  await admin?.services.db.close();
});

const payment = (amount: string) => committedPayment(admin, amount);

/** Each invariant the check ran, and whether it holds. */
const verdicts = (report: { invariants: { invariant: string; holds: boolean }[] }) =>
  Object.fromEntries(report.invariants.map(({ invariant, holds }) => [invariant, holds]));

test.serial('after a payment every invariant of the ledger holds: balances are their journals, each currency sums to zero', async (t) => {
  await payment('125.5');
  const { status, body } = await admin.call('GET', '/ledger/invariants');
  t.is(status, 200);
  t.true(body.holds);
  t.deepEqual(verdicts(body), {
    amountsExact: true,
    balancesMatchJournal: true,
    currenciesSumToZero: true,
    positionsMatchTransfers: true,
    reservationsMatchOpenTransfers: true,
    settlementAccountsMatchFunds: true,
  });
  t.deepEqual(body.violations, []);
  t.true(body.journalRows > 0);
});

test.serial("a balance changed behind the ledger's back is reported: the account it names, what it holds and what its journal sums to", async (t) => {
  const { payee } = await payment('40');
  const { id: accountId } = await admin.services.db.read(async (manager) => {
    const { participantId } = await manager.findOneByOrFail(Participant, { name: payee });
    return manager.findOneByOrFail(ParticipantAccount, { participantId, ledgerAccountType: 'POSITION' });
  });
  await admin.services.db.transaction((manager) => manager.update(ParticipantAccount, { id: accountId }, { value: '-39.9999' }));

  const { status, body } = await admin.call('GET', '/ledger/invariants');
  t.is(status, 200, 'a check that finds the ledger broken has still answered');
  t.false(body.holds);
  t.deepEqual(verdicts(body), {
    amountsExact: true,
    balancesMatchJournal: false,
    currenciesSumToZero: false,
    positionsMatchTransfers: false,
    reservationsMatchOpenTransfers: true,
    settlementAccountsMatchFunds: true,
  });
  t.deepEqual(body.violations, [
    {
      invariant: 'balancesMatchJournal',
      accountId,
      participant: payee,
      ledgerAccountType: 'POSITION',
      currency: 'USD',
      balance: 'value',
      held: '-39.9999',
      journal: '-40.0000',
    },
    { invariant: 'currenciesSumToZero', currency: 'USD', sum: '0.0001' },
    {
      invariant: 'positionsMatchTransfers',
      accountId,
      participant: payee,
      ledgerAccountType: 'POSITION',
      currency: 'USD',
      balance: 'value',
      held: '-39.9999',
      expected: '-40.0000',
    },
  ]);
});

test.serial('a balance changed together with its journal row still disagrees with the transfer that moved it', async (t) => {
  const { payee } = await payment('25');
  const { id: accountId } = await admin.services.db.read(async (manager) => {
    const { participantId } = await manager.findOneByOrFail(Participant, { name: payee });
    return manager.findOneByOrFail(ParticipantAccount, { participantId, ledgerAccountType: 'POSITION' });
  });
  await admin.services.db.transaction(async (manager) => {
    await manager.query(`UPDATE journal_entry SET postedAmount = ? WHERE accountId = ? AND phase = 'COMMIT'`, ['-20.0000', accountId]);
    await manager.query('UPDATE participant_account SET value = ? WHERE id = ?', ['-20.0000', accountId]);
  });

  const { body } = await admin.call('GET', '/ledger/invariants');
  const against = (invariant: string) =>
    body.violations.filter((violation: { invariant: string; accountId?: number }) => violation.invariant === invariant && violation.accountId === accountId);
  t.deepEqual(against('balancesMatchJournal'), [], 'its balance is its journal');
  t.deepEqual(against('positionsMatchTransfers'), [
    {
      invariant: 'positionsMatchTransfers',
      accountId,
      participant: payee,
      ledgerAccountType: 'POSITION',
      currency: 'USD',
      balance: 'value',
      held: '-20.0000',
      expected: '-25.0000',
    },
  ]);
});
