import type { PaymentMinutes } from '../../shared/contracts/glance';
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

/** The percentiles the page shows (minuteFigures reads them). */
export const PERCENTILES = [50, 95] as const;

/**
 * The rank of the nearest-rank `percent`th percentile of `count` values: the smallest rank whose share of the values
 * at or below it reaches the percentile. An observed value, never an interpolation between two.
 */
export function nearestRank(count: number, percent: number): number {
  return Math.max(1, Math.ceil((count * percent) / 100));
}

/** What one minute's decided transfers come to: how many of each final state and error code, and their percentiles. */
export interface MinuteFigures {
  decided: Array<Omit<DecidedCount, 'minute'>>;
  /** Milliseconds to decision; null in a minute without decisions. */
  p50: number | null;
  p95: number | null;
}

/**
 * The figures of each minute as the database grouped and ranked them: `decided`, its counts; `ranked`, the transfers at
 * a percentile's rank in their minute.
 */
export function minuteFigures(decided: DecidedCount[], ranked: RankedTook[]): Map<number, MinuteFigures> {
  const figures = new Map<number, MinuteFigures>();
  const of = (minute: number) => figures.get(minute) ?? figures.set(minute, { decided: [], p50: null, p95: null }).get(minute)!;
  for (const { minute, ...count } of decided) of(minute).decided.push(count);
  for (const row of ranked) {
    if (row.rank === nearestRank(row.of, 50)) of(row.minute).p50 = Math.round(row.took);
    if (row.rank === nearestRank(row.of, 95)) of(row.minute).p95 = Math.round(row.took);
  }
  return figures;
}

/**
 * The minutes `first`…`first + count - 1` (epoch minutes) as the page charts them: committed and aborted per minute,
 * aborts per error code, the p50 and p95 of the time to decision per minute, the window's counts and the latest
 * minute's percentiles. A minute absent from `figures` had no decision.
 */
export function paymentMinutes(first: number, count: number, figures: Map<number, MinuteFigures>): PaymentMinutes {
  const minutes = Array.from({ length: count }, (_, index) => (first + index) * MINUTE_MS);
  const zeros = () => minutes.map(() => 0);
  const committed = zeros();
  const aborted = zeros();
  const byCode = new Map<string, number[]>();
  const p50: Array<number | null> = minutes.map(() => null);
  const p95: Array<number | null> = minutes.map(() => null);
  let latest: PaymentMinutes['latest'] = null;
  for (let at = 0; at < count; at++) {
    const minute = figures.get(first + at);
    if (!minute) continue;
    for (const row of minute.decided) {
      if (row.state === 'COMMITTED') committed[at] += row.count;
      else {
        aborted[at] += row.count;
        const code = row.errorCode ?? 'none';
        const counts = byCode.get(code) ?? zeros();
        counts[at] += row.count;
        byCode.set(code, counts);
      }
    }
    [p50[at], p95[at]] = [minute.p50, minute.p95];
    if (minute.p50 !== null && minute.p95 !== null) latest = { minute: minutes[at], p50: minute.p50, p95: minute.p95 };
  }
  const sum = (series: number[]) => series.reduce((total, value) => total + value, 0);
  return {
    minutes,
    committed,
    aborted,
    abortsByCode: chartedCodes(byCode, zeros),
    latency: { p50, p95 },
    total: { committed: sum(committed), aborted: sum(aborted) },
    latest,
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
