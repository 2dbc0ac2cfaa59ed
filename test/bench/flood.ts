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
  /** Not sent: MAX_IN_FLIGHT were still unanswered. */
  unsent: number;
  seconds: number;
}

/**
 * GET /transfers/{a random ID} at `perSecond`, sent on a clock whatever the answers (at most MAX_IN_FLIGHT unanswered),
 * until stopped: the DFSP of issue 19 that looped GETs and delayed everyone's commits and expiries. A rate, not loops as
 * fast as answers come: on this machine the flooder's own CPU is the hub's, and an unpaced flood measures mostly that.
 * `get` sends one and answers its HTTP status.
 */
export function startFlood(perSecond: number, get: (path: string) => Promise<number>): { stop(): Promise<FloodCounts> } {
  const counts = { accepted: 0, refused: 0, other: 0, unsent: 0 };
  const started = performance.now();
  const sending = new Set<Promise<void>>();
  let due = 0;
  const send = () => {
    const request: Promise<void> = get(`/transfers/${crypto.randomUUID()}`)
      .then((status) => {
        if (status === 202) counts.accepted++;
        else if (status === 503) counts.refused++;
        else counts.other++;
      })
      .catch(() => void counts.other++)
      .finally(() => sending.delete(request));
    sending.add(request);
  };
  const ticker = setInterval(() => {
    due += perSecond / (1000 / TICK_MS);
    for (; due >= 1; due--) {
      if (sending.size < MAX_IN_FLIGHT) send();
      else counts.unsent++;
    }
  }, TICK_MS);
  return {
    async stop() {
      clearInterval(ticker);
      await Promise.all(sending);
      return { ...counts, seconds: (performance.now() - started) / 1000 };
    },
  };
}

const TICK_MS = 10;
const MAX_IN_FLIGHT = 500;

/** How much the flood may cost the others, as docs/security.md states it (Fair shares): their p99 at most doubled, no more errors. */
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
    `    the flooder: ${rate(counts.accepted)}/s taken, ${rate(counts.refused)}/s refused 503 (2005), ${rate(counts.other)}/s other` +
      (counts.unsent ? `, ${rate(counts.unsent)}/s not sent (${MAX_IN_FLIGHT} unanswered)` : ''),
  ];
}
