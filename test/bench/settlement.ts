import { performance } from 'node:perf_hooks';
import { adminCall } from '../helpers/hubProcesses';
import { deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { CURRENCY } from './payments';
import { Sample } from './statistics';

/** How many bulks fill the window at once. */
const FILLERS = 4;

/**
 * `--mode settlement`: fills the open settlement window with `transfers` committed transfers (bulks of pre-quoted
 * items), then times what an operator does at the end of the day over Mojaloop's settlement API: close the window,
 * create its settlement (every transfer read and netted), and move every account through RECORDED, RESERVED,
 * COMMITTED and SETTLED. Reports each step, the whole, and its cost per transfer.
 */
export async function settlementCycle(
  adminUrl: string,
  fill: (sample: Sample) => Promise<void>,
  committed: () => number,
  transfers: number,
  log: (message: string) => void,
): Promise<string[]> {
  const admin: AdminCall = (method, path, body) => adminCall(adminUrl, method, path, body);
  const model = await deferredNetModel(admin, CURRENCY);
  const filling = performance.now();
  while (committed() < transfers) {
    const samples = Array.from({ length: FILLERS }, () => new Sample());
    await Promise.all(samples.map((sample) => fill(sample)));
    const failed = samples.find((sample) => sample.errorKind);
    if (failed) throw new Error(`filling the window: ${failed.errorKind}`);
  }
  const fillS = (performance.now() - filling) / 1000;
  const held = committed();
  log(`the window holds ${held} committed transfers (${fillS.toFixed(1)} s to fill); settling it`);

  const steps: Array<[string, number]> = [];
  let last = performance.now();
  const started = last;
  const settlement = await settleOpenWindow(admin, model, (line) => {
    const now = performance.now();
    steps.push([line, now - last]);
    last = now;
  });
  const totalMs = performance.now() - started;
  if (settlement.state !== 'SETTLED') throw new Error(`settlement ${settlement.id} ended ${settlement.state}`);
  return [
    `settlement      a window of ${held} committed transfers (filled in ${fillS.toFixed(1)} s by bulks), closed and settled over /v2:`,
    ...steps.map(([line, ms]) => `  ${ms.toFixed(0).padStart(7)} ms  ${line}`),
    `  ${totalMs.toFixed(0).padStart(7)} ms  in all: ${((totalMs * 1000) / held).toFixed(1)} µs per transfer`,
  ];
}
