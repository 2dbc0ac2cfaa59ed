import { performance } from 'node:perf_hooks';
import { adminCall } from '../helpers/hubProcesses';
import { deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { peakResidentMb, residentMb, type Measured } from './breakdown';
import { CURRENCY } from './payments';
import { Sample } from './statistics';

/** How many bulks fill the window at once. */
const FILLERS = 4;

/** How the window is filled: over FSPIOP by bulks, or seeded into the database. Answers the transfers it holds. */
export type WindowFill = (model: string) => Promise<{ held: number; how: string }>;

/** Fills the window by bulks of pre-quoted items until `committed` counts `transfers`. */
export function fillByBulks(fill: (sample: Sample) => Promise<void>, committed: () => number, transfers: number): WindowFill {
  return async () => {
    while (committed() < transfers) {
      const samples = Array.from({ length: FILLERS }, () => new Sample());
      await Promise.all(samples.map((sample) => fill(sample)));
      const failed = samples.find((sample) => sample.errorKind);
      if (failed) throw new Error(`filling the window: ${failed.errorKind}`);
    }
    return { held: committed(), how: 'by bulks' };
  };
}

/** The settlement, and who its reports are about. */
interface Settled {
  id: number;
  dfsp: string;
  from: string;
}

/**
 * Timed phases, each with the hub processes' memory after it: resident now, and the most since they started (VmHWM,
 * which only grows: the phase that raised it is the one whose line it first shows on).
 */
class Phases {
  readonly rows: string[] = [];
  private last = performance.now();

  constructor(private readonly hub: Measured[]) {}

  /** Ends the phase begun when the last ended; `ms` when its own time was taken apart. */
  done(line: string, ms = performance.now() - this.last): void {
    const memory = this.hub.map((p) => `${residentMb(p.pid).toFixed(0).padStart(6)} ${peakResidentMb(p.pid).toFixed(0).padStart(6)}`).join('  ');
    this.rows.push(`  ${ms.toFixed(0).padStart(8)} ms  ${memory}  ${line}`);
    this.restart();
  }

  restart(): void {
    this.last = performance.now();
  }

  header(): string {
    return `  ${'time'.padStart(11)}  ${this.hub.map(() => `${'RSS'.padStart(6)} ${'peak'.padStart(6)}`).join('  ')}  phase (memory of ${this.hub.map((p) => p.name).join(', ')} in MB)`;
  }
}

/**
 * `--mode settlement`: fills the open settlement window with committed transfers (`fillWindow`, not timed as the
 * hub's), checks the ledger in full, then times what an operator does at the end of the day over Mojaloop's settlement
 * API: close the window, create its settlement (every transfer read and netted), move every account through RECORDED,
 * RESERVED, COMMITTED and SETTLED; then the settlement's reports and the ledger's checks. Each phase is reported with
 * the hub processes' memory after it, and the whole with its cost per transfer. The reports are `dfsp`'s.
 */
export async function settlementCycle(
  adminUrl: string,
  fillWindow: WindowFill,
  hub: Measured[],
  dfsp: string,
  log: (message: string) => void,
): Promise<string[]> {
  const admin: AdminCall = (method, path, body) =>
    adminCall(adminUrl, method, path, body).catch((error: Error) => {
      throw new Error(`${method} ${path}: ${error.message}`, { cause: error.cause });
    });
  const model = await deferredNetModel(admin, CURRENCY);
  const from = new Date().toISOString();
  const filling = performance.now();
  const { held, how } = await fillWindow(model);
  const fillS = (performance.now() - filling) / 1000;
  log(`the window holds ${held} committed transfers (${fillS.toFixed(1)} s to fill ${how}); checking the ledger, then settling it`);

  const phases = new Phases(hub);
  phases.done(`before: the window filled ${how} (${fillS.toFixed(1)} s, not the hub's)`, 0);
  await ledgerHolds(admin, 'GET', '/ledger/invariants', phases, 'ledger invariants before settling (full check)');
  await ledgerHolds(admin, 'POST', '/ledger/checks', phases, "the hub's first ledger check (POST /ledger/checks)");
  const started = performance.now();
  const settlement = await settleOpenWindow(admin, model, (line) => phases.done(withoutNets(line)));
  const totalMs = performance.now() - started;
  if (settlement.state !== 'SETTLED') throw new Error(`settlement ${settlement.id} ended ${settlement.state}`);
  await reports(admin, { id: settlement.id, dfsp, from }, phases);
  await ledgerHolds(admin, 'POST', '/ledger/checks', phases, 'the next ledger check (POST /ledger/checks)');
  await ledgerHolds(admin, 'GET', '/ledger/invariants', phases, 'ledger invariants after settling (full check)');
  return [
    `settlement      a window of ${held} committed transfers (filled in ${fillS.toFixed(1)} s ${how}), closed and settled over /v2:`,
    phases.header(),
    ...phases.rows,
    `  ${totalMs.toFixed(0).padStart(8)} ms  close to SETTLED in all: ${((totalMs * 1000) / held).toFixed(1)} µs per transfer`,
  ];
}

/** A step's line with its accounts' net amounts counted rather than listed: with 50 DFSPs they would fill a screen. */
function withoutNets(line: string): string {
  const nets = line.indexOf(': participant ');
  return nets < 0 ? line : `${line.slice(0, nets)}: ${line.match(/participant \d+:/g)!.length} accounts netted`;
}

/**
 * Runs a ledger check and fails the bench unless the ledger holds. A path the hub does not serve yet (404) is told
 * "not available", not failed: the check is another item's, merged apart.
 */
async function ledgerHolds(admin: AdminCall, method: string, path: string, phases: Phases, what: string): Promise<void> {
  phases.restart();
  const { status, body } = await admin(method, path, method === 'POST' ? {} : undefined);
  if (status === 404) return phases.done(`${what}: not available (404)`);
  if (status >= 300 || body?.holds !== true) throw new Error(`${method} ${path}: the ledger does not hold: ${status} ${JSON.stringify(body).slice(0, 2000)}`);
  const read = body.full === undefined ? '' : body.full ? ', full' : `, from its checkpoint (journal row ${body.checkedFrom})`;
  phases.done(`${what}: holds${read}${body.journalRows !== undefined ? `, ${body.journalRows} journal rows read` : ''}`);
}

/** Times each of the settlement's reports; one the hub does not serve yet (404) is told "not available". */
async function reports(admin: AdminCall, { id, dfsp, from }: Settled, phases: Phases): Promise<void> {
  const to = new Date(Date.now() + 60_000).toISOString();
  const paths = [
    `/reports/settlementInitiation?settlementId=${id}`,
    `/reports/dfspSettlement?settlementId=${id}&dfspId=${dfsp}`,
    `/reports/dfspSettlementDetail?settlementId=${id}&dfspId=${dfsp}&format=csv`,
    `/reports/dfspSettlementStatement?dfspId=${dfsp}&startDate=${encodeURIComponent(from)}&endDate=${encodeURIComponent(to)}`,
  ];
  for (const path of paths) {
    phases.restart();
    const { status, body } = await admin('GET', path);
    if (status === 404) phases.done(`GET ${path}: not available (404)`);
    else if (status >= 300) throw new Error(`GET ${path} answered ${status} ${JSON.stringify(body).slice(0, 2000)}`);
    else phases.done(`GET ${path}: ${(typeof body === 'string' ? body : JSON.stringify(body)).length} characters`);
  }
}
