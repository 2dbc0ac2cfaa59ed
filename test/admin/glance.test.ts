import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { In } from 'typeorm';
import { Transfers } from '../../activities/hub/conversations/transfers';
import { JournalEntry, ParticipantAccount, TransferRecord } from '../../activities/hub/db/entities';
import { repoRoot } from '../../activities/shared/platform/config';
import { errorInformation } from '../../activities/shared/contracts/errors';
import type { SchemeGlance } from '../../activities/shared/contracts/glance';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { ilpPair, transferBody } from '../helpers/fspiopBodies';

// GET /scheme/glance over HTTP, after real payments through the hub's transfer steps and ledger: committed, refused at
// prepare past the payer's Net Debit Cap, and aborted after a reservation. In a currency of its own (CURRENCY), so on a
// database every test file shares (MariaDB), and kept from one run to the next, the figures asked for in it are this
// run's alone. Each transfer's POST time is then set back a known number of milliseconds from its decision, so the
// percentiles are known exactly.

/** A code no ISO currency has (none begins QB…QZ), and no account of the database yet. */
let CURRENCY: string;
const letter = (from: string) => String.fromCharCode(from.charCodeAt(0) + crypto.randomInt('Z'.charCodeAt(0) - from.charCodeAt(0) + 1));
const MINUTE = 60_000;

let admin: AdminHarness;
let payer: string;
let payee: string;
/** Each decided transfer and its time to decision (ms), as the test sets it. */
const took = new Map<string, number>();
let backdated: { transferId: string; decidedAt: Date };
let journalMovedTo: Date;

test.before(async () => {
  admin = await startAdmin();
  do CURRENCY = `Q${letter('B')}${letter('A')}`;
  while (await admin.services.db.manager.existsBy(ParticipantAccount, { currency: CURRENCY }));
  const { participants, limits, funds } = admin.services;
  [payer, payee] = [uniqueName('glancepayer'), uniqueName('glancepayee')];
  for (const name of [payer, payee]) {
    const { accounts } = await participants.create(name, CURRENCY);
    await participants.setActive(name, true);
    await limits.initialPositionAndLimits(name, { currency: CURRENCY, limit: { type: 'NET_DEBIT_CAP', value: '1000' } });
    const settlement = accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!.id;
    await funds.recordFundsIn(name, settlement, { transferId: crypto.randomUUID(), externalReference: 'glance', reason: 'cover', amount: '2000' });
  }
  const transfers = new Transfers(admin.services);
  const prepare = async (amount: string) => {
    const { fulfilment, condition } = ilpPair();
    const body = transferBody(payer, payee, amount, { condition, currency: CURRENCY as 'USD' });
    await transfers.prepare({ body, source: payer, requestHash: body.transferId });
    return { transferId: body.transferId, fulfilment };
  };
  const committed: string[] = [];
  for (const amount of ['100', '100', '100']) {
    const { transferId, fulfilment } = await prepare(amount);
    await transfers.commit({ transferId, fulfilment, payeeWantsNotification: false });
    committed.push(transferId);
  }
  // Past the payer's cap: refused at prepare, and recorded ABORTED.
  const refused = await prepare('5000').then(
    () => undefined,
    (error: { errorInformation?: { errorCode: string } }) => error,
  );
  if (!refused) throw new Error('a transfer past the Net Debit Cap was reserved');
  const refusedId = (await admin.services.db.manager.findOneByOrFail(TransferRecord, { payerFsp: payer, amount: '5000' })).transferId;
  const rejected = await prepare('50');
  await transfers.abort({ transferId: rejected.transferId, errorInformation: errorInformation('payeeRejectedTransaction', 'no') });
  [committed[0], committed[1], committed[2], refusedId, rejected.transferId].forEach((transferId, index) =>
    took.set(transferId, [100, 200, 300, 1000, 2000][index]),
  );
  for (const [transferId, ms] of took) {
    const { completedTimestamp } = await admin.services.db.manager.findOneByOrFail(TransferRecord, { transferId });
    await admin.services.db.manager.update(TransferRecord, { transferId }, { createdDate: new Date(completedTimestamp!.getTime() - ms) });
  }
  // One commit decided five minutes ago, and its ledger steps two hours ago: it shows in another minute, and the
  // payer's position rose by it long before the others.
  const decidedAt = new Date(Date.now() - 5 * MINUTE);
  backdated = { transferId: committed[0], decidedAt };
  await admin.services.db.manager.update(
    TransferRecord,
    { transferId: committed[0] },
    { completedTimestamp: decidedAt, createdDate: new Date(decidedAt.getTime() - 100) },
  );
  journalMovedTo = new Date(Date.now() - 2 * 60 * MINUTE);
  await admin.services.db.manager.update(JournalEntry, { transferId: In([committed[0]]) }, { createdDate: journalMovedTo });
});
test.after.always(async () => {
  await admin?.close();
});

const glance = async (query: string) => {
  const { status, body } = await admin.call('GET', `/scheme/glance?${query}`);
  if (status !== 200) throw new Error(`GET /scheme/glance?${query} answered ${status} ${JSON.stringify(body)}`);
  return body as SchemeGlance;
};

const minuteOf = (minutes: number[], at: Date) => minutes.findIndex((start) => start <= at.getTime() && at.getTime() < start + MINUTE);

test('payments per minute: each is counted in the minute it was decided, committed or aborted, and the window adds up', async (t) => {
  const { payments, at } = await glance(`currency=${CURRENCY}`);
  t.is(payments.minutes.length, 60);
  t.true(payments.minutes[59] <= at && at < payments.minutes[59] + MINUTE, 'the last minute is the one under way');
  t.deepEqual(payments.total, { committed: 3, aborted: 2 });
  const earlier = minuteOf(payments.minutes, backdated.decidedAt);
  t.is(payments.committed[earlier], 1, 'the commit of five minutes ago, in its minute');
  t.is(
    payments.committed.reduce((sum, count) => sum + count, 0),
    3,
  );
  t.is(
    payments.aborted.reduce((sum, count) => sum + count, 0),
    2,
  );
});

test('aborts by error code: the refusal past the cap and the payee’s rejection, each under its own code', async (t) => {
  const { payments } = await glance(`currency=${CURRENCY}`);
  const refusal = await admin.services.db.manager.findOneByOrFail(TransferRecord, { payerFsp: payer, amount: '5000' });
  t.deepEqual(
    payments.abortsByCode.map(({ errorCode, total }) => ({ errorCode, total })).sort((a, b) => (a.errorCode < b.errorCode ? -1 : 1)),
    [
      { errorCode: refusal.errorCode!, total: 1 },
      { errorCode: '5104', total: 1 },
    ],
  );
  t.regex(refusal.errorCode!, /^4\d{3}$/, 'a payer error (4xxx)');
  payments.aborted.forEach((count, minute) =>
    t.is(
      payments.abortsByCode.reduce((sum, code) => sum + code.counts[minute], 0),
      count,
      'every abort of a minute is under one code',
    ),
  );
});

test('decision latency: the median and 95th percentile of each minute are the times of its own transfers', async (t) => {
  const { payments } = await glance(`currency=${CURRENCY}`);
  const earlier = minuteOf(payments.minutes, backdated.decidedAt);
  t.is(payments.latency.p50[earlier], 100, 'the one decided five minutes ago, alone in its minute');
  t.is(payments.latency.p95[earlier], 100);
  // The other four (200, 300, 1000 and 2000 ms) were decided in the last minute or two: ranked in their own minutes.
  const records = await admin.services.db.manager.findBy(TransferRecord, { transferId: In([...took.keys()]) });
  const byMinute = new Map<number, number[]>();
  for (const record of records) {
    const minute = minuteOf(payments.minutes, record.completedTimestamp!);
    byMinute.set(
      minute,
      [...(byMinute.get(minute) ?? []), took.get(record.transferId)!].sort((a, b) => a - b),
    );
  }
  const rank = (count: number, percent: number) => Math.ceil((count * percent) / 100) - 1;
  payments.minutes.forEach((_, minute) => {
    const times = byMinute.get(minute);
    t.is(payments.latency.p50[minute], times ? times[rank(times.length, 50)] : null);
    t.is(payments.latency.p95[minute], times ? times[rank(times.length, 95)] : null);
  });
  const last = Math.max(...byMinute.keys());
  t.deepEqual(payments.latest, { minute: payments.minutes[last], p50: payments.latency.p50[last], p95: payments.latency.p95[last] });
});

test("liquidity used: the payer's position against its cap over the hours, derived from its journal", async (t) => {
  const { liquidity, at } = await glance(`currency=${CURRENCY}&hours=6`);
  const [first, second] = liquidity.positions;
  t.deepEqual(
    liquidity.positions.map(({ participant, position, netDebitCap }) => ({ participant, position, netDebitCap })),
    [
      { participant: payer, position: '300', netDebitCap: '1000' },
      { participant: payee, position: '-300', netDebitCap: '1000' },
    ],
  );
  t.is(liquidity.times.length, 73);
  t.is(liquidity.times[liquidity.times.length - 1], at, 'the last point is now');
  t.true(at - liquidity.times[0] > 6 * 60 * MINUTE - MINUTE);
  const before = liquidity.times.findIndex((time) => time > journalMovedTo.getTime()) - 1;
  t.is(first.used[0], 0, 'six hours ago it had paid nothing');
  t.is(first.used[before], 0, 'nor just before the first payment');
  t.is(first.used[before + 1], 10, 'then 100 of its 1000');
  t.is(first.used[liquidity.times.length - 1], 30, 'and now 300');
  t.true(
    second.used.every((share) => share === 0),
    'the payee is owed: it uses none of its cap',
  );
});

test('a window or a currency the route cannot read is refused with 3101', async (t) => {
  for (const query of ['minutes=0', 'minutes=181', 'minutes=ten', 'hours=25', 'hours=-1', 'currency=usd', 'currency=USDX', 'minutes=5&minutes=6']) {
    const { status, body } = await admin.call('GET', `/scheme/glance?${query}`);
    t.is(status, 400, query);
    t.is(body.errorInformation.errorCode, '3101', query);
  }
  const { status } = await admin.call('GET', '/scheme/glance?minutes=180&hours=24');
  t.is(status, 200);
});

test("the console's charting library is served by the hub from its own dependencies (no CDN), and no other file of them", async (t) => {
  const served = await fetch(`${admin.url}/console/uPlot.js`);
  t.is(served.status, 200);
  t.regex(served.headers.get('content-type')!, /^text\/javascript/);
  t.is(
    await served.text(),
    fs.readFileSync(path.join(repoRoot, 'node_modules', 'uplot', 'dist', 'uPlot.esm.js'), 'utf8'),
    'the package’s ES module as it ships',
  );
  const style = await fetch(`${admin.url}/console/uPlot.css`);
  t.regex(style.headers.get('content-type')!, /^text\/css/);
  for (const file of ['uPlot.esm.js', 'uPlot.cjs.js', '..%2Fpackage.json', 'uPlot.d.ts']) t.is((await fetch(`${admin.url}/console/${file}`)).status, 404, file);
});
