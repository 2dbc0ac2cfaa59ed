// The figures of `npm run bench`: latency series, what each phase recorded, and the virtual users that drive a phase.

import { performance } from 'node:perf_hooks';

export class Series {
  private readonly values: number[] = [];
  private sorted = true;

  add(ms: number): void {
    this.values.push(ms);
    this.sorted = false;
  }

  get count(): number {
    return this.values.length;
  }

  /** Nearest-rank percentile, in ms. */
  percentile(p: number): number {
    if (this.values.length === 0) return NaN;
    if (!this.sorted) {
      this.values.sort((a, b) => a - b);
      this.sorted = true;
    }
    const rank = Math.max(1, Math.ceil((p / 100) * this.values.length));
    return this.values[rank - 1];
  }

  get max(): number {
    return this.percentile(100);
  }
}

/** What one iteration of a virtual user observed; `drive` files it under a phase by when it finished. */
export class Sample {
  transferMs?: number;
  quoteMs?: number;
  errorKind?: string;

  error(kind: string): void {
    this.errorKind ??= kind;
  }
}

/** What one phase (warm-up or measured window) of one scenario recorded. */
export class Recorder {
  readonly latency = new Series();
  readonly quotes = new Series();
  readonly errors = new Map<string, number>();
  /** Errors of iterations that finished after the window (they are counted in `errors` too). */
  errorsAfterWindow = 0;

  constructor(readonly durationS: number) {}

  add(sample: Sample): void {
    if (sample.quoteMs !== undefined) this.quotes.add(sample.quoteMs);
    if (sample.transferMs !== undefined) this.latency.add(sample.transferMs);
    if (sample.errorKind !== undefined) this.error(sample.errorKind);
  }

  error(kind: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  get errorCount(): number {
    let total = 0;
    for (const n of this.errors.values()) total += n;
    return total;
  }

  /** Completions inside the window per second of the window. */
  get ratePerS(): number {
    return this.durationS > 0 ? this.latency.count / this.durationS : 0;
  }
}

/** How a phase is run: its users, its timing, and what it reports along the way. */
export interface Phase {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** Why the bench is stopping early, if it is. */
  aborted: () => string | undefined;
  /** Called as the measured window opens and as it closes. */
  window?: { open(): void; close(): void };
  progress: (measured: Recorder, elapsedMs: number) => void;
  /** Errors of the warm-up, which are not counted. */
  warmupErrors: (description: string) => void;
}

/**
 * N virtual users looping `iteration` for the warm-up and then the measured window; none starts a new
 * iteration after the window (or after an abort), the ones under way run to their end. Steady-state figures:
 * the measured recorder holds the iterations that finished inside the window (whenever they started), so
 * throughput is completions in the window / its duration; errors of iterations that finish later count too.
 */
export async function drive(phase: Phase, iteration: (sample: Sample) => Promise<void>): Promise<Recorder> {
  const { concurrency, warmupMs, durationMs, aborted } = phase;
  const warmup = new Recorder(warmupMs / 1000);
  const measured = new Recorder(durationMs / 1000);
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const end = measureFrom + durationMs;
  const opening = setTimeout(() => phase.window?.open(), warmupMs);
  const closing = setTimeout(() => phase.window?.close(), warmupMs + durationMs);
  const ticker = setInterval(() => {
    const now = performance.now();
    if (now >= measureFrom && !aborted()) phase.progress(measured, now - measureFrom);
  }, 5_000);
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end && !aborted()) {
          const sample = new Sample();
          try {
            await iteration(sample);
          } catch (error) {
            sample.error(`exception: ${error instanceof Error ? error.message : String(error)}`.slice(0, 120));
          }
          const finished = performance.now();
          if (finished < measureFrom) warmup.add(sample);
          else if (finished < end) measured.add(sample);
          else if (sample.errorKind !== undefined) {
            measured.error(sample.errorKind);
            measured.errorsAfterWindow++;
          }
        }
      }),
    );
  } finally {
    clearInterval(ticker);
    clearTimeout(opening);
    clearTimeout(closing);
  }
  if (warmup.errorCount > 0) phase.warmupErrors(describeErrors(warmup));
  return measured;
}

export function describeErrors(recorder: Recorder): string {
  return [...recorder.errors].map(([kind, n]) => `${n}× ${kind}`).join('; ');
}
