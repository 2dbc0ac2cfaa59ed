// `npm run chaos`: the benchmark's load through a hub whose processes are killed mid-run, then the books.
//
//   npm run chaos [-- --duration 60 --concurrency 5]
//
// A hub as `npm start` runs it (Temporal's dev server on a SQLite file, the worker and gateway processes, a fresh
// SQLite database) and the bench's two simulated DFSPs. Virtual users send pre-quoted transfers for the duration; at a
// quarter, a half and three quarters of it, the worker, then the gateway, then the Temporal server are killed with
// SIGKILL and started again (the server on the same file and port). Then, once every transfer has had time to expire:
//   - every transfer the switch accepted (202) is known to it and every transfer it knows is COMMITTED or ABORTED;
//   - no ledger movement is applied twice (one journal row per transfer, account and phase);
//   - each position equals the committed transfers' sum and its journal, and each currency sums to zero;
//   - what the payer was told agrees with the switch's record, and the payer was told of every accepted transfer.
// Then the day is settled over /v2 (a deferred net settlement of the window), the worker killed between its reservation
// and its commit: it ends SETTLED, every position back at zero, every account equal to its journal.
// It prints what it did and what it found; the exit code is 1 if anything fails. All traffic stays on 127.0.0.1.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../../activities/shared/platform/config';
import { Decimal } from '../../activities/hub/db/money';
import { openHubServices } from '../../activities/hub/hubServices';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { TransferRecord } from '../../activities/hub/db/switchEntities';
import { JournalEntry } from '../../activities/hub/db/entities';
import { startDevServer, type DevServer } from '../../temporal/devServer';
import { temporalCliPath } from '../../temporal/setup';
import { freePort } from '../../temporal/ports';
import { stopChildren } from '../../worker/children';
import { waitUntilReady } from '../../worker/readiness';
import { SimulatedDfsp } from '../helpers/dfsp';
import { adminCall, hubProcessSettings, logTail, startProcess } from '../helpers/hubProcesses';
import { deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { uniqueName } from '../helpers/database';
import { CURRENCY, hubIteration, partiesBetween, provision, type PayerSide } from '../bench/payments';
import { describeErrors, drive, type Sample } from '../bench/statistics';

const HOST = '127.0.0.1';
/** Short, so that the transfers a fault leaves undecided are decided by their expiration soon after the run. */
const EXPIRY_MS = 20_000;
/** How long a killed process stays down before it is started again. */
const DOWN_MS = 3_000;
/** How long a user waits after an error before it sends again. */
const RETRY_PAUSE_MS = 250;

const log = (message: string) => process.stderr.write(`chaos: ${message}\n`);

interface ChaosOptions {
  durationS: number;
  concurrency: number;
}

export function parseChaosOptions(argv: string[]): ChaosOptions {
  const options: ChaosOptions = { durationS: 60, concurrency: 5 };
  for (let i = 0; i < argv.length; i++) {
    const match = /^--(duration|concurrency)(?:=(.*))?$/.exec(argv[i]);
    const value = Number(match?.[2] ?? argv[++i]);
    if (!match || !Number.isFinite(value) || value < 1) throw new Error(`usage: npm run chaos [-- --duration S --concurrency N], got "${argv.join(' ')}"`);
    options[match[1] === 'duration' ? 'durationS' : 'concurrency'] = value;
  }
  return options;
}

/** What the run did, in order, with the second of the load it happened at. */
class Timeline {
  readonly events: string[] = [];
  private readonly start = performance.now();

  note(what: string): void {
    const line = `${((performance.now() - this.start) / 1000).toFixed(1).padStart(6)} s  ${what}`;
    this.events.push(line);
    log(line.trim());
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A user that met an error (the switch down, a 503) waits a little before its next transfer, as a DFSP would. */
function patiently(iteration: (sample: Sample) => Promise<void>): (sample: Sample) => Promise<void> {
  return async (sample) => {
    try {
      await iteration(sample);
    } catch (error) {
      await sleep(RETRY_PAUSE_MS);
      throw error;
    }
    if (sample.errorKind !== undefined) await sleep(RETRY_PAUSE_MS);
  };
}

/** Kills a child process with SIGKILL and waits until it is gone. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

export async function runChaos(options: ChaosOptions): Promise<{ ok: boolean; report: string[] }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-chaos-'));
  const logDir = path.join(tmp, 'logs');
  const stops: Array<() => Promise<unknown>> = [async () => fs.rmSync(tmp, { recursive: true, force: true })];
  const timeline = new Timeline();
  try {
    const cliPath = await temporalCliPath(log);
    const temporalPort = await freePort(HOST);
    const temporalFile = path.join(tmp, 'temporal.sqlite');
    const startTemporal = () => startDevServer({ cliPath, ip: HOST, port: temporalPort, ui: false, dbFile: temporalFile, log });
    let temporal: DevServer = await startTemporal();
    stops.unshift(() => temporal.stop());

    const databaseUrl = `sqlite:${path.join(tmp, 'hub.sqlite')}`;
    const services = await openHubServices({ databaseUrl, hubParticipantName: 'Hub' });
    stops.unshift(() => services.db.close());
    const { env, switchUrl, adminUrl } = await hubProcessSettings({ databaseUrl, temporalAddress: temporal.address, host: HOST });
    const processes: Record<'worker' | 'gateway', ChildProcess> = {
      worker: startProcess('worker/main.js', 'worker', env, logDir),
      gateway: startProcess('api/main.js', 'gateway', env, logDir),
    };
    /** The log each process writes now: a restarted one writes a log of its own. */
    const logNames = { worker: 'worker', gateway: 'gateway' };
    stops.unshift(() => stopChildren(Object.values(processes)));
    const ready = () =>
      waitUntilReady({
        healthUrl: `${adminUrl}/health`,
        temporalAddress: temporal.address,
        namespace: 'default',
        taskQueue: loadConfig(env).taskQueue,
        timeoutMs: 120_000,
        failed: () => {
          const dead = Object.entries(processes).find(([, child]) => child.exitCode !== null);
          return dead && `the ${dead[0]} exited; ${logTail(logDir, logNames[dead[0] as 'worker' | 'gateway'])}`;
        },
      });
    await ready();

    const payerDfsp = await SimulatedDfsp.start(uniqueName('chaospayer'));
    const payeeDfsp = await SimulatedDfsp.start(uniqueName('chaospayee'));
    stops.unshift(async () => Promise.all([payerDfsp.close(), payeeDfsp.close()]));
    await provision(adminUrl, payerDfsp.name, payerDfsp);
    await provision(adminUrl, payeeDfsp.name, payeeDfsp);
    const payeeErrors: string[] = [];
    const parties = partiesBetween(payerDfsp, payeeDfsp, {
      switchUrl,
      timeoutMs: EXPIRY_MS + 10_000,
      keys: new Map(),
      expiryMs: EXPIRY_MS,
      onPayeeError: (kind) => payeeErrors.push(kind),
    });
    const { payer } = parties;

    // The faults, each at its point of the load: kill, stay down, start again, wait until the hub answers.
    const durationMs = options.durationS * 1000;
    const restartProcess = async (name: 'worker' | 'gateway', entry: string) => {
      timeline.note(`SIGKILL the ${name} (pid ${processes[name].pid})`);
      await kill(processes[name]);
      await sleep(DOWN_MS);
      logNames[name] = `${name}-restarted`;
      processes[name] = startProcess(entry, logNames[name], env, logDir);
      timeline.note(`started the ${name} again (pid ${processes[name].pid})`);
    };
    const faults = [
      () => restartProcess('worker', 'worker/main.js'),
      () => restartProcess('gateway', 'api/main.js'),
      async () => {
        timeline.note(`SIGKILL the Temporal server (pid ${temporal.pid})`);
        process.kill(temporal.pid, 'SIGKILL');
        await temporal.stop();
        await sleep(DOWN_MS);
        temporal = await startTemporal();
        timeline.note(`started the Temporal server again on the same file and port (pid ${temporal.pid})`);
      },
    ];
    const loadStart = performance.now();
    const faulting = (async () => {
      for (const [index, fault] of faults.entries()) {
        await sleep(loadStart + ((index + 1) * durationMs) / (faults.length + 1) - performance.now());
        await fault();
        await ready();
        timeline.note('the hub answers again');
      }
    })();
    timeline.note(`load: ${options.concurrency} users sending transfers for ${options.durationS} s`);
    const recorder = await drive(
      {
        concurrency: options.concurrency,
        warmupMs: 0,
        durationMs,
        aborted: () => undefined,
        progress: (r, elapsed) => log(`  ${(elapsed / 1000).toFixed(0)} s: ${r.latency.count} transfers committed, ${r.errorCount} errors`),
        warmupErrors: () => undefined,
      },
      patiently(hubIteration('transfers', parties)),
    );
    await faulting;
    timeline.note(`load stopped: ${recorder.latency.count} transfers committed in time, ${recorder.errorCount} errors seen by the users`);

    // Every transfer the switch knows is decided by its expiration at the latest; then its callbacks go out.
    const ours = () => services.db.read((manager) => manager.findBy(TransferRecord, { payerFsp: payerDfsp.name }));
    const deadline = Date.now() + EXPIRY_MS + 60_000;
    let records = await ours();
    while (Date.now() < deadline && (records.some((r) => !isFinal(r.transferState)) || tellingPayer(payer, records) > 0)) {
      await sleep(1_000);
      records = await ours();
    }
    timeline.note('waited for every transfer to be decided and told');
    const found = await findings(services, payer, records, payerDfsp.name, payeeDfsp.name, recorder, timeline, payeeErrors);

    // The day's settlement, the worker killed between its reservation and its commit.
    const admin: AdminCall = (method, urlPath, body) => adminCall(adminUrl, method, urlPath, body);
    const settled = await settleOpenWindow(
      admin,
      await deferredNetModel(admin, CURRENCY),
      (line) => timeline.note(line),
      async (state) => {
        if (state !== 'PS_TRANSFERS_RESERVED') return;
        await restartProcess('worker', 'worker/main.js');
        await ready();
      },
    );
    const positions = await Promise.all(
      [payerDfsp.name, payeeDfsp.name].map(async (name) => new Decimal((await services.limits.positions(name, CURRENCY))[0].value)),
    );
    const ledger = await checkLedger(services.db);
    const settledOk = settled.state === 'SETTLED' && positions.every((position) => position.isZero()) && ledger.violations.length === 0;
    const report = [
      ...found.report,
      `  ${settledOk ? '✔' : '✘'} the day settles through a worker restart: settlement ${settled.id} ${settled.state}, positions ${positions.map((p) => p.toFixed()).join(' and ')}, ${ledger.violations.length} ledger violations`,
    ];
    return { ok: found.ok && settledOk, report };
  } finally {
    for (const stop of stops) await stop().catch((error: Error) => log(`clean-up: ${error.message}`));
  }
}

const isFinal = (state: string) => state === 'COMMITTED' || state === 'ABORTED';

/** Decided transfers the payer has not heard the outcome of yet. */
function tellingPayer(payer: PayerSide, records: TransferRecord[]): number {
  return records.filter((r) => isFinal(r.transferState) && !['committed', 'aborted'].includes(payer.transfers.get(r.transferId)?.state ?? '')).length;
}

async function findings(
  services: Awaited<ReturnType<typeof openHubServices>>,
  payer: PayerSide,
  records: TransferRecord[],
  payerName: string,
  payeeName: string,
  recorder: Awaited<ReturnType<typeof drive>>,
  timeline: Timeline,
  payeeErrors: string[],
): Promise<{ ok: boolean; report: string[] }> {
  const known = new Map(records.map((r) => [r.transferId, r]));
  const sent = [...payer.transfers];
  const accepted = sent.filter(([, t]) => t.accepted);
  const lost = accepted.filter(([id]) => !known.has(id)).map(([id]) => id);
  const undecided = records.filter((r) => !isFinal(r.transferState)).map((r) => r.transferId);
  const contradictions = records
    .filter((r) => {
      const heard = payer.transfers.get(r.transferId)?.state;
      return (heard === 'committed' && r.transferState !== 'COMMITTED') || (heard === 'aborted' && r.transferState !== 'ABORTED');
    })
    .map((r) => `${r.transferId}: the payer heard ${payer.transfers.get(r.transferId)?.state}, the switch recorded ${r.transferState}`);
  const untold = records.filter((r) => isFinal(r.transferState) && !['committed', 'aborted'].includes(payer.transfers.get(r.transferId)?.state ?? ''));
  const doubled: Array<{ transferId: string; accountId: number; phase: string; n: number }> = await services.db.read((manager) =>
    manager
      .createQueryBuilder(JournalEntry, 'j')
      .select(['j.transferId AS transferId', 'j.accountId AS accountId', 'j.phase AS phase', 'COUNT(*) AS n'])
      .groupBy('j.transferId')
      .addGroupBy('j.accountId')
      .addGroupBy('j.phase')
      .having('COUNT(*) > 1')
      .getRawMany(),
  );
  let committedSum = new Decimal(0);
  for (const r of records) if (r.transferState === 'COMMITTED') committedSum = committedSum.plus(r.amount);
  const positionOf = async (name: string) => new Decimal((await services.limits.positions(name, CURRENCY))[0].value);
  const [payerPosition, payeePosition] = [await positionOf(payerName), await positionOf(payeeName)];
  const positionsOk = payerPosition.equals(committedSum) && payeePosition.equals(committedSum.negated());
  const ledger = await checkLedger(services.db);

  const committed = records.filter((r) => r.transferState === 'COMMITTED').length;
  const checks: Array<[string, boolean, string]> = [
    ['no transfer lost', lost.length === 0, `${accepted.length} accepted (202), ${lost.length} of them unknown to the switch`],
    [
      'every transfer final',
      undecided.length === 0,
      `${records.length} known: ${committed} COMMITTED, ${records.length - committed - undecided.length} ABORTED, ${undecided.length} not final`,
    ],
    ['nothing applied twice', doubled.length === 0, `${doubled.length} (transfer, account, phase) with more than one journal row`],
    [
      'positions match the transfers',
      positionsOk,
      `${payerName} ${payerPosition.toFixed()} and ${payeeName} ${payeePosition.toFixed()}, committed sum ${committedSum.toFixed()}`,
    ],
    [
      'each account equals its journal, each currency sums to zero',
      ledger.violations.length === 0,
      `${ledger.journalRows} journal rows, ${ledger.accounts} accounts`,
    ],
    [
      'the payer agrees with the switch',
      contradictions.length === 0 && payer.contradictions.length === 0,
      `${contradictions.length + payer.contradictions.length} contradictions`,
    ],
    ['the payer was told every outcome', untold.length === 0, `${untold.length} decided transfers the payer never heard of`],
  ];
  const report = ['', 'what was done:', ...timeline.events, '', 'what was found:'];
  report.push(
    `  load: ${sent.length} transfers sent; the users saw ${recorder.errorCount} errors during the faults${recorder.errorCount ? ` (${describeErrors(recorder)})` : ''}`,
  );
  if (payeeErrors.length) report.push(`  payee: ${payeeErrors.length} answers refused (${[...new Set(payeeErrors)].join('; ')})`);
  for (const [name, ok, detail] of checks) report.push(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  for (const line of [...lost.slice(0, 5).map((id) => `lost: ${id}`), ...undecided.slice(0, 5).map((id) => `not final: ${id}`), ...contradictions.slice(0, 5)])
    report.push(`    ${line}`);
  for (const violation of ledger.violations.slice(0, 10)) report.push(`    ${JSON.stringify(violation)}`);
  const ok = checks.every(([, passed]) => passed);
  report.push(`chaos           ${ok ? 'PASS' : 'FAIL'}`);
  return { ok, report };
}

if (require.main === module) {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  runChaos(parseChaosOptions(process.argv.slice(2))).then(
    ({ ok, report }) => {
      process.stdout.write(`${report.join('\n')}\n`);
      process.exit(ok ? 0 : 1);
    },
    (error: Error) => {
      log(`FAILED: ${error.stack ?? error.message}`);
      process.exit(2);
    },
  );
}
