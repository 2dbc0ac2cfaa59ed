// `npm run bench -- --flood N`: a participant asking the switch in a loop while the others pay.

import crypto from 'node:crypto';
import type { Recorder } from './statistics';

export interface FloodCounts {
  /** Taken by the switch (202): each became a follow-up answered to the flooder. */
  accepted: number;
  /** Refused beyond the flooder's share (503, 2005). */
  refused: number;
  /** Anything else, and requests that failed outright. */
  other: number;
  seconds: number;
}

/**
 * `loops` concurrent loops of GET /transfers/{a random ID}, each sending its next request as soon as the last is
 * answered, until stopped: the DFSP of issue 19 that looped GETs and delayed everyone's commits and expiries.
 * `get` sends one and answers its HTTP status.
 */
export function startFlood(loops: number, get: (path: string) => Promise<number>): { stop(): Promise<FloodCounts> } {
  const counts = { accepted: 0, refused: 0, other: 0 };
  const started = performance.now();
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const status = await get(`/transfers/${crypto.randomUUID()}`).catch(() => 0);
      if (status === 202) counts.accepted++;
      else if (status === 503) counts.refused++;
      else counts.other++;
    }
  };
  const running = Promise.all(Array.from({ length: loops }, loop));
  return {
    async stop() {
      stopped = true;
      await running;
      return { ...counts, seconds: (performance.now() - started) / 1000 };
    },
  };
}

/** How much the flood may cost the others, as the README states it: their p99 at most doubled, no more errors. */
export const FLOOD_BOUND = { p99Factor: 2, extraErrors: 0 };

/** The payments at one concurrency without and with the flood, and whether the others stayed within FLOOD_BOUND. */
export function floodRows(level: number, calm: Recorder, flooded: Recorder, counts: FloodCounts): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const [calmP99, floodedP99] = [calm.latency.percentile(99), flooded.latency.percentile(99)];
  const within = floodedP99 <= calmP99 * FLOOD_BOUND.p99Factor && flooded.errorCount <= calm.errorCount + FLOOD_BOUND.extraErrors;
  const rate = (n: number) => (n / counts.seconds).toFixed(0);
  return [
    `  concurrency ${level}: without the flood ${calm.ratePerS.toFixed(1)}/s, p99 ${ms(calmP99)}, errors ${calm.errorCount}; ` +
      `with it ${flooded.ratePerS.toFixed(1)}/s, p99 ${ms(floodedP99)}, errors ${flooded.errorCount}: ` +
      `${within ? 'within' : 'OUTSIDE'} the bound (p99 at most ×${FLOOD_BOUND.p99Factor}, no more errors)`,
    `    the flooder: ${rate(counts.accepted)}/s taken, ${rate(counts.refused)}/s refused 503 (2005), ${rate(counts.other)}/s other`,
  ];
}
