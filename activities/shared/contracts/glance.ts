/**
 * The scheme at a glance (GET /scheme/glance), as the console's home page charts it. Types only, so the console's
 * browser code shares them. Times are milliseconds since the epoch (what a chart's axis takes); a series holds one value
 * per time of its axis, null where there is nothing to measure.
 */

export interface SchemeGlance {
  /** When the hub read the figures. */
  at: number;
  /** Only transfers and positions in this currency, if the caller named one. */
  currency?: string;
  /** Transfers decided per minute, by the minute of their decision. */
  payments: PaymentMinutes;
  /** Each participant's position against its Net Debit Cap over the last hours. */
  liquidity: LiquidityHistory;
}

export interface PaymentMinutes {
  /** The start of each minute, oldest first; the last is the minute under way. */
  minutes: number[];
  committed: number[];
  aborted: number[];
  /** The aborts of each error code, most frequent first; the rarest codes beyond the few charted are summed as 'other'. */
  abortsByCode: Array<{ errorCode: string; counts: number[]; total: number }>;
  /** Milliseconds from a transfer's POST to its decision (commit or abort), nearest-rank percentiles per minute. */
  latency: { p50: Array<number | null>; p95: Array<number | null> };
  /** The window's counts, which the page prints beside the charts. */
  total: { committed: number; aborted: number };
  /** The latest minute with decisions (its start) and its percentiles, which the page prints beside the chart; null if none. */
  latest: { minute: number; p50: number; p95: number } | null;
}

export interface LiquidityHistory {
  /** Each point's time, oldest first; the last is now. */
  times: number[];
  /** The participants nearest their cap, most used first (a few: the chart's lines stay readable). */
  positions: Array<{
    participant: string;
    currency: string;
    /** The Net Debit Cap as it is now: the hub keeps no history of caps. */
    netDebitCap: string;
    /** The position now, exact. */
    position: string;
    /** The share of the cap used at each time, in percent (a position below zero uses none of it). */
    used: number[];
  }>;
}
