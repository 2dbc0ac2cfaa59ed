import type { PaymentMinutes } from '../../../api/contracts/glance';
import { Decimal, MONEY_SCALE } from '../db/money';

/**
 * The rules that turn what the database grouped into the series the console charts: plain functions over plain rows,
 * so a unit test calls them directly (schemeGlance.ts reads the rows).
 */

export const MINUTE_MS = 60_000;

/** Error codes charted one by one; the rest are summed as 'other', so the chart keeps a handful of lines. */
export const CHARTED_CODES = 5;

/** Transfers of one minute (epoch minute `minute`) in one final state, and for aborts one error code. */
export interface DecidedCount {
  minute: number;
  state: 'COMMITTED' | 'ABORTED';
  errorCode: string | null;
  count: number;
}

/** One transfer's time to decision, with its rank among the `of` transfers of its minute (1 the quickest). */
export interface RankedTook {
  minute: number;
  rank: number;
  of: number;
  took: number;
}

/** The percentiles the page shows. */
export const PERCENTILES = [50, 95] as const;

/**
 * The rank of the nearest-rank `percent`th percentile of `count` values: the smallest rank whose share of the values
 * at or below it reaches the percentile. An observed value, never an interpolation between two.
 */
export function nearestRank(count: number, percent: number): number {
  return Math.max(1, Math.ceil((count * percent) / 100));
}

/**
 * The minutes `first`…`first + count - 1` (epoch minutes) as the page charts them: committed and aborted per minute,
 * aborts per error code, and the p50 and p95 of the time to decision per minute and over the whole window. `ranked`
 * holds the transfers at a percentile's rank in their minute; `overall` the same over the window (its minute ignored).
 */
export function paymentMinutes(first: number, count: number, decided: DecidedCount[], ranked: RankedTook[], overall: RankedTook[]): PaymentMinutes {
  const minutes = Array.from({ length: count }, (_, index) => (first + index) * MINUTE_MS);
  const zeros = () => minutes.map(() => 0);
  const committed = zeros();
  const aborted = zeros();
  const byCode = new Map<string, number[]>();
  for (const row of decided) {
    const at = row.minute - first;
    if (at < 0 || at >= count) continue;
    if (row.state === 'COMMITTED') committed[at] += row.count;
    else {
      aborted[at] += row.count;
      const code = row.errorCode ?? 'none';
      const counts = byCode.get(code) ?? zeros();
      counts[at] += row.count;
      byCode.set(code, counts);
    }
  }
  const atRank = (percent: number) => (row: RankedTook) => row.rank === nearestRank(row.of, percent);
  const perMinute = (percent: number) => {
    const series: Array<number | null> = minutes.map(() => null);
    for (const row of ranked.filter(atRank(percent))) {
      const at = row.minute - first;
      if (at >= 0 && at < count) series[at] = Math.round(row.took);
    }
    return series;
  };
  const whole = (percent: number) => {
    const row = overall.find(atRank(percent));
    return row ? Math.round(row.took) : null;
  };
  const sum = (series: number[]) => series.reduce((total, value) => total + value, 0);
  return {
    minutes,
    committed,
    aborted,
    abortsByCode: chartedCodes(byCode, zeros),
    latency: { p50: perMinute(50), p95: perMinute(95) },
    total: { committed: sum(committed), aborted: sum(aborted), p50: whole(50), p95: whole(95) },
  };
}

/** The most frequent error codes first (ties by code), those past CHARTED_CODES summed as 'other'. */
function chartedCodes(byCode: Map<string, number[]>, zeros: () => number[]): PaymentMinutes['abortsByCode'] {
  const codes = [...byCode]
    .map(([errorCode, counts]) => ({ errorCode, counts, total: counts.reduce((total, value) => total + value, 0) }))
    .sort((a, b) => b.total - a.total || (a.errorCode < b.errorCode ? -1 : 1));
  if (codes.length <= CHARTED_CODES) return codes;
  const other = { errorCode: 'other', counts: zeros(), total: 0 };
  for (const code of codes.slice(CHARTED_CODES - 1)) {
    code.counts.forEach((value, at) => (other.counts[at] += value));
    other.total += code.total;
  }
  return [...codes.slice(0, CHARTED_CODES - 1), other];
}

/**
 * The share of a Net Debit Cap a position uses, in percent, as the console's participants page reckons it: a position
 * at or below zero uses none; without a cap above zero, any debit uses all of it.
 */
export function capShare(position: Decimal, netDebitCap: Decimal): number {
  if (netDebitCap.lessThanOrEqualTo(0)) return position.greaterThan(0) ? 100 : 0;
  return Decimal.max(position, 0).dividedBy(netDebitCap).times(100).toDecimalPlaces(2).toNumber();
}

/**
 * A position's history, derived from its journal: the position at each of `points` (epoch minutes, oldest first) is
 * the position now less every change from that minute on. `changes` maps an epoch minute to the sum of the journal's
 * changes to the position in it (posted and reserved alike, as the position reports both).
 */
export function positionsAt(points: number[], now: Decimal, changes: Map<number, Decimal>): Decimal[] {
  const later = [...changes].sort(([a], [b]) => b - a);
  let position = now;
  let next = 0;
  const positions: Decimal[] = [];
  for (const point of [...points].reverse()) {
    for (; next < later.length && later[next][0] >= point; next++) position = position.minus(later[next][1]);
    positions.push(position.toDecimalPlaces(MONEY_SCALE));
  }
  return positions.reverse();
}

/**
 * The points a history of `hours` hours is charted at, ending with the minute under way (`nowMinute`, an epoch minute):
 * a point every few minutes, about 72 in all, each the start of a minute, the last the end of the minute under way.
 */
export function historyPoints(nowMinute: number, hours: number): number[] {
  const step = Math.max(1, Math.ceil((hours * 60) / 72));
  const count = Math.ceil((hours * 60) / step);
  return Array.from({ length: count + 1 }, (_, index) => nowMinute + 1 - (count - index) * step);
}
