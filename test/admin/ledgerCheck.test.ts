import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { JournalEntry, Notification, Participant, ParticipantAccount } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { LEDGER_ALARM_EMAIL, LedgerChecks } from '../../activities/hub/ledger/ledgerChecks';
import { registerLedgerCheckMetrics } from '../../activities/hub/metrics/ledgerCheckMetrics';
import { schemeRegistry } from '../../api/http/observability';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { committedPayment } from '../helpers/ledgerPayments';
import { pollUntil } from '../helpers/polling';
import { openTestHub, startWorker } from '../helpers/worker';
import { ensureLedgerCheckSchedule, LEDGER_CHECK_SCHEDULE_ID } from '../../worker/schedules';

// The check reads the whole ledger, so this file breaks balances on a database of its own (SQLite, where one writer at
// a time lets the checkpoint take every row read): another file's check must never see the damage.
const databaseUrl = `sqlite:${path.join(os.tmpdir(), `hub-ledger-check-${crypto.randomUUID()}.sqlite`)}`;
let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin(await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME, newParticipantsActive: true }));
  registerLedgerCheckMetrics(schemeRegistry, admin.services);
  const operator = { type: LEDGER_ALARM_EMAIL, value: 'operator@hub.example' };
  if ((await admin.call('POST', `/participants/${HUB_NAME}/endpoints`, operator)).status !== 201) throw new Error('the hub operator has no address');
});
test.after.always(async () => {
  await admin?.close();
  await admin?.services.db.close();
});

const payment = (amount: string) => committedPayment(admin, amount);

async function positionOf(name: string): Promise<ParticipantAccount> {
  return admin.services.db.read(async (manager) => {
    const { participantId } = await manager.findOneByOrFail(Participant, { name });
    return manager.findOneByOrFail(ParticipantAccount, { participantId, ledgerAccountType: 'POSITION' });
  });
}

/** What an attacker or a bad migration does: one SQL UPDATE of a balance, past the ledger. */
async function setBalance(accountId: number, balance: 'value' | 'reservedValue', amount: string): Promise<void> {
  await admin.services.db.transaction((manager) => manager.query(`UPDATE participant_account SET ${balance} = ? WHERE id = ?`, [amount, accountId]));
}

const checkNow = async () => {
  const { status, body } = await admin.call('POST', '/ledger/checks', {});
  if (status !== 200) throw new Error(`POST /ledger/checks answered ${status}: ${JSON.stringify(body)}`);
  return body;
};

const alarmEmails = () => admin.services.db.read((manager) => manager.findBy(Notification, { endpointType: LEDGER_ALARM_EMAIL }));

/** The ledger_invariant_violations series on the metrics endpoint, by invariant. */
async function violationsMetric(): Promise<Record<string, number>> {
  const { body } = await admin.call('GET', '/metrics');
  const series = [...String(body).matchAll(/^hub_ledger_invariant_violations\{invariant="(\w+)"\} (\d+)$/gm)];
  return Object.fromEntries(series.map(([, invariant, value]) => [invariant, Number(value)]));
}

test.serial('a balance changed in the database behind the ledger raises an alarm naming its account, until it is put back', async (t) => {
  await payment('125.5');
  const first = await checkNow();
  t.true(first.holds);
  t.is(first.invariants.length, 6);
  t.true(first.full, 'the first check reads the whole ledger');

  const { payee } = await payment('40');
  const before = await checkNow();
  t.true(before.holds);
  t.false(before.full, 'later checks start from the checkpoint');
  t.is(before.checkedFrom, first.checkpoint, 'and read only the journal rows after it');
  t.true(before.checkedTo > before.checkedFrom);

  const position = await positionOf(payee);
  await setBalance(position.id, 'value', '-39.9999');
  const broken = await checkNow();
  t.false(broken.holds);
  const named = { accountId: position.id, participant: payee, ledgerAccountType: 'POSITION', currency: 'USD', balance: 'value', held: '-39.9999' };
  t.like(
    broken.violations.find((violation: { invariant: string }) => violation.invariant === 'balancesMatchJournal'),
    { ...named, journal: '-40.0000' },
  );
  t.like(
    broken.violations.find((violation: { invariant: string }) => violation.invariant === 'positionsMatchTransfers'),
    { ...named, expected: '-40.0000' },
  );
  t.deepEqual((await admin.call('GET', '/ledger/checks/latest')).body.violations, broken.violations, 'the alarm stays, as the latest check');
  t.like(await violationsMetric(), { balancesMatchJournal: 1, positionsMatchTransfers: 1, currenciesSumToZero: 1, reservationsMatchOpenTransfers: 0 });
  const [email] = await alarmEmails();
  t.is(email?.participantId, (await admin.services.db.read((manager) => manager.findOneByOrFail(Participant, { name: HUB_NAME }))).participantId);
  t.regex(email.body, new RegExp(`${payee} POSITION USD \\(account ${position.id}\\) value is -39\\.9999, expected -40\\.0000`));

  t.false((await checkNow()).holds, 'the next check finds it still');
  t.is((await alarmEmails()).length, 1, 'the operator is told once, not at every check');

  await setBalance(position.id, 'value', '-40');
  t.true((await checkNow()).holds);
  t.true((await admin.call('GET', '/ledger/checks/latest')).body.holds, 'the alarm clears');
  t.like(await violationsMetric(), { balancesMatchJournal: 0, positionsMatchTransfers: 0, currenciesSumToZero: 0 });
});

test.serial('the check from the checkpoint finds a balance changed on an account no movement touched since the checkpoint', async (t) => {
  const { payer } = await payment('10');
  const checkpoint = (await checkNow()).checkpoint;
  const position = await positionOf(payer);
  await setBalance(position.id, 'reservedValue', '10');
  const emailsBefore = (await alarmEmails()).length;

  const check = await checkNow();
  t.false(check.full);
  t.is(check.checkedFrom, checkpoint);
  t.is(check.journalRows, 0, 'no journal row was written since the checkpoint');
  const reservation = { accountId: position.id, participant: payer, ledgerAccountType: 'POSITION', currency: 'USD', balance: 'reservedValue', held: '10.0000' };
  t.like(
    check.violations.find((violation: { invariant: string }) => violation.invariant === 'reservationsMatchOpenTransfers'),
    { ...reservation, expected: '0.0000' },
  );
  t.like(
    check.violations.find((violation: { invariant: string }) => violation.invariant === 'balancesMatchJournal'),
    { ...reservation, journal: '0.0000' },
  );
  t.is((await alarmEmails()).length, emailsBefore + 1, 'a new violation is e-mailed');
  await setBalance(position.id, 'reservedValue', '0');
  t.true((await checkNow()).holds);
});

test.serial('a full check is had on asking: it reads the whole journal', async (t) => {
  const { status, body } = await admin.call('POST', '/ledger/checks?full=true', {});
  t.is(status, 200);
  t.true(body.full);
  t.is(body.checkedFrom, 0);
  t.true(body.holds);
  t.is((await admin.call('POST', '/ledger/checks?full=yes', {})).status, 400);
});

test.serial(
  'the Temporal Schedule ledger-check runs the check every LEDGER_CHECK_INTERVAL, and a worker started with another interval changes it',
  async (t) => {
    const hub = await openTestHub(HUB_NAME, databaseUrl);
    // A namespace of its own: the schedule's ID is the hub's one, whichever file runs beside this one.
    const worker = await startWorker(hub, { namespace: `ledger-check-${crypto.randomUUID()}` });
    try {
      await ensureLedgerCheckSchedule(worker.client, worker.taskQueue, '7 minutes');
      const schedule = worker.client.schedule.getHandle(LEDGER_CHECK_SCHEDULE_ID);
      const every = async () => (await schedule.describe()).spec.intervals?.map((interval) => Number(interval.every));
      t.deepEqual(await every(), [7 * 60_000]);

      const before = (await admin.call('GET', '/ledger/checks/latest')).body.checkedAt;
      // What the schedule does every 7 minutes, now.
      await schedule.trigger();
      const latest = await pollUntil(
        async () => (await admin.call('GET', '/ledger/checks/latest')).body,
        (check) => check.checkedAt !== before,
      );
      t.true(latest.holds, 'the scheduled run checked the ledger and kept its outcome');

      await ensureLedgerCheckSchedule(worker.client, worker.taskQueue, '5 minutes');
      t.deepEqual(await every(), [5 * 60_000]);
      await schedule.delete();
    } finally {
      await worker.close();
      await hub.close();
    }
  },
);

test.serial('the journal and the transfers are read a page at a time: pages of 3 rows find what the whole read finds', async (t) => {
  const { payer } = await payment('3.25');
  await payment('7');
  const paged = new LedgerChecks(admin.services.db, HUB_NAME, 0, 3);
  t.true((await paged.run({ full: true })).holds);
  await payment('1.5');
  const position = await positionOf(payer);
  await setBalance(position.id, 'value', '99');

  const whole = await checkLedger(admin.services.db);
  const inPages = await checkLedger(admin.services.db, 3);
  t.false(inPages.holds);
  t.deepEqual(inPages.violations, whole.violations);
  t.is(inPages.journalRows, whole.journalRows);
  const incremental = await paged.run();
  t.false(incremental.full);
  t.true(incremental.journalRows > 3, 'the rows since the checkpoint span pages');
  t.deepEqual(incremental.violations, whole.violations);
  t.deepEqual((await paged.run({ full: true })).violations, whole.violations);
  t.true(
    whole.violations.some((violation) => 'accountId' in violation && violation.accountId === position.id),
    JSON.stringify(whole.violations),
  );

  await setBalance(position.id, 'value', position.value);
  t.true((await paged.run()).holds);
  t.true((await checkNow()).holds);
});

test.serial('a check reads one snapshot and holds up no payment: one made while it reads goes through, and is not in what it read', async (t) => {
  const { db } = admin.services;
  let resume!: () => void;
  const paused = new Promise<void>((resolve) => (resume = resolve));
  let opened!: (rows: number) => void;
  const reading = new Promise<number>((resolve) => (opened = resolve));
  const snapshot = db.snapshot(async (manager) => {
    opened(await manager.count(JournalEntry));
    await paused;
    return manager.count(JournalEntry);
  });
  const before = await reading;
  await payment('2');
  const now = await db.read((manager) => manager.count(JournalEntry));
  resume();
  t.true(now > before, 'the payment was written while the snapshot was open');
  t.is(await snapshot, before, 'the snapshot still reads the ledger as it was when it began');
});
