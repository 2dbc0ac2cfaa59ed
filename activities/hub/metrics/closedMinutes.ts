/**
 * Figures per minute that, once a minute is over, never change: the transfers decided in it, the journal's changes in
 * it. Each is kept in memory the first time it is read, so a page polled every few seconds reads from the database only
 * the minutes not over yet, not the whole window again.
 *
 * A minute counts as over `SETTLE_MINUTES` after it ended. A row's time is taken in its transaction before the
 * transaction commits, so it is seen a little after that time; no transaction of the hub outlives a minute (InnoDB gives
 * up a lock wait after 50 seconds), so two minutes on, every row of a minute has been seen.
 */
export const SETTLE_MINUTES = 2;

interface Kept<T> {
  /** The minutes kept are from…to (epoch minutes), those with a figure in `values`, the others had nothing. */
  from: number;
  to: number;
  values: Map<number, T>;
}

export class ClosedMinutes<T> {
  private readonly kept = new Map<string, Kept<T>>();

  /**
   * `keys`: the windows kept at most (a currency, an account each), the least lately read forgotten first; `minutes`:
   * the longest window asked for, beyond which kept minutes are forgotten.
   */
  constructor(
    private readonly keys: number,
    private readonly minutes: number,
  ) {}

  /**
   * The figures of `key`'s minutes from `first` on, by epoch minute, for a clock at `nowMinute`: the kept ones as kept,
   * and `read(from)` for the rest, which answers the figures of every minute from `from` on that has any.
   */
  async window(key: string, first: number, nowMinute: number, read: (from: number) => Promise<Map<number, T>>): Promise<Map<number, T>> {
    const over = nowMinute - SETTLE_MINUTES;
    const oldest = nowMinute - this.minutes;
    let kept = this.kept.get(key);
    // Kept minutes serve a window that starts within them, and run on to its end unbroken.
    if (!kept || kept.from > first || kept.to < first - 1) kept = { from: first, to: first - 1, values: new Map() };
    const fresh = await read(kept.to + 1);
    for (const [minute, value] of fresh) if (minute <= over) kept.values.set(minute, value);
    for (const minute of kept.values.keys()) if (minute < oldest) kept.values.delete(minute);
    kept.from = Math.max(kept.from, oldest);
    kept.to = Math.max(kept.to, over);
    this.keep(key, kept);
    const figures = new Map([...kept.values].filter(([minute]) => minute >= first));
    for (const [minute, value] of fresh) if (minute > over) figures.set(minute, value);
    return figures;
  }

  private keep(key: string, kept: Kept<T>): void {
    this.kept.delete(key);
    this.kept.set(key, kept);
    for (const least of this.kept.keys()) {
      if (this.kept.size <= this.keys) break;
      this.kept.delete(least);
    }
  }
}
