import test from 'ava';
import {
  capShare,
  historyPoints,
  minuteFigures,
  nearestRank,
  paymentMinutes,
  positionsAt,
  type DecidedCount,
  type RankedTook,
} from '../../../../../activities/hub/metrics/glanceSeries';
import { Decimal } from '../../../../../activities/hub/db/money';

const FIRST = 29_000_000; // an epoch minute

test('a percentile is an observed value: the smallest rank whose share of the values reaches it', (t) => {
  t.is(nearestRank(1, 50), 1);
  t.is(nearestRank(1, 95), 1);
  t.is(nearestRank(2, 50), 1);
  t.is(nearestRank(3, 50), 2);
  t.is(nearestRank(4, 50), 2);
  t.is(nearestRank(20, 95), 19);
  t.is(nearestRank(21, 95), 20);
  t.is(nearestRank(100, 95), 95);
});

test('each minute of the window has its committed and aborted payments, a minute without any has zero, and the totals add up', (t) => {
  const decided: DecidedCount[] = [
    { minute: FIRST, state: 'COMMITTED', errorCode: null, count: 4 },
    { minute: FIRST + 2, state: 'COMMITTED', errorCode: null, count: 1 },
    { minute: FIRST + 2, state: 'ABORTED', errorCode: '3303', count: 2 },
    { minute: FIRST + 2, state: 'ABORTED', errorCode: '4001', count: 1 },
    // Decided after the window's last minute was read: not charted.
    { minute: FIRST + 3, state: 'COMMITTED', errorCode: null, count: 9 },
  ];
  const minutes = paymentMinutes(FIRST, 3, minuteFigures(decided, []));
  t.deepEqual(minutes.minutes, [FIRST * 60_000, (FIRST + 1) * 60_000, (FIRST + 2) * 60_000]);
  t.deepEqual(minutes.committed, [4, 0, 1]);
  t.deepEqual(minutes.aborted, [0, 0, 3]);
  t.deepEqual(minutes.total, { committed: 5, aborted: 3 });
  t.deepEqual(minutes.abortsByCode, [
    { errorCode: '3303', counts: [0, 0, 2], total: 2 },
    { errorCode: '4001', counts: [0, 0, 1], total: 1 },
  ]);
});

test('the most frequent error codes are charted one by one, the rarest summed as other', (t) => {
  const codes = ['3100', '3303', '4001', '5000', '2001', '3106', '4200'];
  const decided = codes.map((errorCode, index) => ({ minute: FIRST, state: 'ABORTED' as const, errorCode, count: 10 - index }));
  const { abortsByCode } = paymentMinutes(FIRST, 1, minuteFigures(decided, []));
  t.deepEqual(
    abortsByCode.map(({ errorCode, total }) => [errorCode, total]),
    [
      ['3100', 10],
      ['3303', 9],
      ['4001', 8],
      ['5000', 7],
      ['other', 6 + 5 + 4],
    ],
  );
});

test('the p50 and p95 of a minute are the transfers at their ranks; a minute without decisions has none; the latest minute with some is printed', (t) => {
  // Ranks as the database gives them: only those at a percentile's rank. 20 transfers in the first minute, 1 in the third.
  const ranked: RankedTook[] = [
    { minute: FIRST, rank: 10, of: 20, took: 40.4 },
    { minute: FIRST, rank: 19, of: 20, took: 900 },
    { minute: FIRST + 2, rank: 1, of: 1, took: 12 },
  ];
  const { latency, latest } = paymentMinutes(FIRST, 4, minuteFigures([], ranked));
  t.deepEqual(latency.p50, [40, null, 12, null]);
  t.deepEqual(latency.p95, [900, null, 12, null]);
  t.deepEqual(latest, { minute: (FIRST + 2) * 60_000, p50: 12, p95: 12 });
  t.is(paymentMinutes(FIRST, 4, new Map()).latest, null);
});

test('a position uses its share of the Net Debit Cap, none when at or below zero, all of it past a cap of zero', (t) => {
  t.is(capShare(new Decimal('250'), new Decimal('1000')), 25);
  t.is(capShare(new Decimal('1000.5'), new Decimal('1000')), 100.05);
  t.is(capShare(new Decimal('-300'), new Decimal('1000')), 0);
  t.is(capShare(new Decimal('1'), new Decimal('3')), 33.33);
  t.is(capShare(new Decimal('5'), new Decimal('0')), 100);
  t.is(capShare(new Decimal('0'), new Decimal('0')), 0);
});

test("a position's history is the position now less every change of its journal from each point on", (t) => {
  // Now 150; +100 in minute 10, +75 in minute 12, -25 in minute 14 (a release), all before the last point.
  const changes = new Map([
    [10, new Decimal('100')],
    [12, new Decimal('75')],
    [14, new Decimal('-25')],
  ]);
  const at = positionsAt([8, 10, 11, 13, 15], new Decimal('150'), changes);
  t.deepEqual(
    at.map((value) => value.toFixed()),
    ['0', '0', '100', '175', '150'],
  );
});

test('a history of hours is charted at about 72 points a few minutes apart, the last at the end of the minute under way', (t) => {
  const six = historyPoints(1_000, 6);
  t.is(six.length, 73);
  t.is(six[six.length - 1], 1_001);
  t.is(six[0], 1_001 - 360);
  t.is(six[1] - six[0], 5);
  const one = historyPoints(1_000, 1);
  t.is(one[1] - one[0], 1);
  t.is(one[0], 1_001 - 60);
});
