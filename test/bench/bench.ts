// `npm run bench`: throughput and latency of the real hub against the Temporal floor, where the time goes, then the
// hub's ledger invariants.
//
//   npm run bench [-- --mode payments|transfers|bulk --concurrency 10[,20,50,100] --duration 20 --warmup 3 --timeout 30
//                     --no-floor --temporal-in-memory --two-processes --topology --jws --soak MINUTES --chart FILE]
//
// 1. A fresh environment in a temp dir: a headless Temporal dev server on a free port (on a SQLite file, as `npm start`
//    runs it, or in memory with --temporal-in-memory), a fresh SQLite database (or DATABASE_URL, with unique
//    participant names), and the real hub as `npm start` runs it: the worker and both gateways in one process
//    (dist/worker/hub.js), or with --two-processes the worker and gateway processes apart (dist/worker/main.js,
//    dist/api/main.js). With --topology, npm run topology's hub instead: a Temporal server on MySQL/MariaDB with a
//    fresh schema in shards, several workers and a gateway running several processes.
// 2. Two DFSPs provisioned through the admin API as an operator would, each a real HTTP server (SimulatedDfsp):
//    the payee answers quotes and fulfils transfers, the payer measures.
// 3. For each concurrency N, N virtual users loop for D seconds (after a short warm-up that is not counted): a payment
//    is POST /quotes → PUT /quotes/{ID} → POST /transfers → PUT /transfers/{ID}; with --mode transfers the quote is
//    left out (the payee is handed the fulfilment); with --mode bulk a user sends bulk transfers of pre-quoted items.
//    Latencies run from the POST to the payer's callback.
// 4. Once every transfer is decided: the ledger invariants (checkLedger) and the positions (payer +sum, payee −sum of
//    the committed amounts). Exit code 1 if they fail; timings are printed, never asserted.
// 5. The Temporal floor on the same server at each concurrency: an in-process worker running a workflow that waits for
//    one signal (test/bench/floorWorkflow.ts); start → signal → result.
// 6. Where the time goes: CPU and disk writes of each process over the first measured window, and the events in the
//    histories of a sample of quotes, transfers and floor workflows (workflow tasks, activity tasks, local activities,
//    signals), from which the requests each costs the server. With several concurrencies, a chart (SVG).
// With --soak the first concurrency runs for that many minutes instead, and the memory of the worker and gateway is
// printed every 30 s. With --jws the DFSPs sign every message with a body and the hub validates each and signs its own.
//
// Settings also come from the environment: BENCH_MODE, BENCH_CONCURRENCY, BENCH_DURATION, BENCH_WARMUP, BENCH_TIMEOUT,
// BENCH_FLOOR=0, BENCH_TEMPORAL_IN_MEMORY=1, BENCH_TWO_PROCESSES=1, BENCH_JWS=1, BENCH_SOAK, BENCH_CHART. All traffic
// stays on 127.0.0.1.
// Ctrl-C stops and cleans up everything.

import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig, repoRoot } from '../../activities/shared/platform/config';
import { Decimal } from '../../activities/hub/db/money';
import { openHubServices, type HubServices } from '../../activities/hub/hubServices';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { mysqlStore, temporalDatabaseUrl } from '../../temporal/cluster/clusterConfig';
import { startTemporalServer } from '../../temporal/cluster/server';
import { startDevServer } from '../../temporal/devServer';
import { eachLine, type TemporalProcess } from '../../temporal/serverProcess';
import { temporalCliPath } from '../../temporal/setup';
import { waitUntilReady } from '../../worker/readiness';
import { hubNodeFlags } from '../../worker/nodeFlags';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { uniqueName } from '../helpers/database';
import { hubProcessSettings } from '../helpers/hubProcesses';
import { SimulatedDfsp } from '../helpers/dfsp';
import {
  childPids,
  historyCost,
  peakResidentMb,
  processNamed,
  residentMb,
  serverRequests,
  THREAD_ROLES,
  UsageMeter,
  type HistoryCost,
  type Measured,
  type Usage,
} from './breakdown';
import { concurrencyChart } from './chart';
import { linkAccount, provisionPisp, thirdpartyIteration, type ThirdpartyScene } from './thirdparty';
import { floorIteration } from './floor';
import { floodRows, startFlood } from './flood';
import { parseOptions, type Options } from './options';
import { profileSummary } from './profile';
import { CURRENCY, fspiop, hubIteration, partiesBetween, provision, TRANSFER_EXPIRY_MS, type SigningKeys, type TransferState } from './payments';
import { describeErrors, drive, type Phase, type Recorder } from './statistics';
import { fillByBulks, settlementCycle } from './settlement';
import { seededFill } from './seedSettlement';
import { rsaKeyPair } from '../helpers/keyPairs';

const HOST = '127.0.0.1';
const HUB_NAME = 'Hub';
/** Histories read per conversation type for the breakdown. */
const HISTORY_SAMPLE = 30;

/** What one iteration of each mode is called, and what it does. */
const NOUNS: Record<Options['mode'], { singular: string; plural: string; description: (bulkSize: number) => string }> = {
  payments: { singular: 'payment', plural: 'payments', description: () => 'payments: quote + transfer, each a workflow' },
  transfers: { singular: 'transfer', plural: 'transfers', description: () => 'transfers: pre-quoted, one workflow each' },
  thirdparty: {
    singular: 'payment',
    plural: 'third-party payments',
    description: () =>
      "thirdparty: a PISP's payments from a linked account: transaction request, quote, authorization, verification by the hub's Auth service, transfer; latency is the whole payment's",
  },
  bulk: {
    singular: 'bulk',
    plural: 'bulks',
    description: (size) => `bulk: bulk transfers of ${size} pre-quoted items, one workflow each; latency is the whole bulk's`,
  },
  settlement: {
    singular: 'bulk',
    plural: 'bulks',
    description: (size) =>
      `settlement: a window filled by bulks of ${size} pre-quoted items (or seeded into the database, --seed-direct), then closed and settled to SETTLED`,
  },
};

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

// ---------------------------------------------------------------------------------------------- clean-up

let aborted: string | undefined;
/**
 * What clean-up undoes, in this order: the hub processes go first (so that their keep-alive connections to
 * the simulators close and nothing is left talking to the dev server), the temp dir last.
 */
const CLEANUP_ORDER = [
  'floor worker',
  'hub processes',
  'simulated DFSPs',
  'Temporal client',
  'floor worker connection',
  'database connection',
  'Temporal server',
  'temp dir',
] as const;
const cleanups: Array<{ what: (typeof CLEANUP_ORDER)[number]; run: () => Promise<void> | void }> = [];
let cleaning: Promise<void> | undefined;

/** Undoes everything set up so far; safe to call more than once. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    const ordered = [...cleanups].sort((a, b) => CLEANUP_ORDER.indexOf(a.what) - CLEANUP_ORDER.indexOf(b.what));
    for (const { what, run } of ordered) {
      try {
        await run();
      } catch (error) {
        log(`clean-up of ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

// ---------------------------------------------------------------------------------------------- hub processes

interface HubProcess {
  name: string;
  child: ChildProcess;
  exited: boolean;
  tail: string[];
  stop(): Promise<void>;
}

let stopping = false;
let signalled = false;
let verbose = false;
const liveChildren = new Set<ChildProcess>();
// Last resort: never leave a worker or gateway behind, whatever way this process ends.
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

/**
 * The hub's own logs are pino JSON at LOG_LEVEL (warn): shown. The Temporal SDK's runtime logs (INFO lines,
 * the webpack report of the workflow bundle) are start-up noise: only with --verbose (and kept for a failure report).
 */
function worthShowing(line: string): boolean {
  if (line.startsWith('{')) return true;
  return /\[(WARN|ERROR)\]|error/i.test(line) && !/\[INFO\]/.test(line);
}

/**
 * The hub's processes, each a name and its entry in dist/: as `npm start` runs it, one process; with --two-processes
 * the worker and the gateway apart; with --topology several workers beside a gateway (its copies are its children).
 */
function hubLayout({ topology, twoProcesses }: Options): Array<[string, string]> {
  if (!topology && !twoProcesses) return [['hub', 'worker/hub.js']];
  const workers = topology ? Array.from({ length: topology.workers }, (_, i) => `worker-${i + 1}`) : ['worker'];
  return [...workers.map((name): [string, string] => [name, 'worker/main.js']), ['gateway', 'api/main.js']];
}

/** With `profileDir`, V8 writes the process's CPU profile there as it exits. */
function startHubProcess(name: string, entry: string, env: NodeJS.ProcessEnv, profileDir?: string): HubProcess {
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...hubNodeFlags(env), ...profiling, path.join(repoRoot, 'dist', entry)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  const hub: HubProcess = {
    name,
    child,
    exited: false,
    tail: [],
    stop: () =>
      new Promise<void>((resolve) => {
        if (hub.exited) return resolve();
        // A worker drains its in-flight tasks on SIGTERM; after Ctrl-C (the dev server got it too) don't wait long.
        const kill = setTimeout(() => child.kill('SIGKILL'), signalled ? 2_000 : 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    eachLine(stream, (line) => {
      if (!line) return;
      hub.tail.push(line);
      if (hub.tail.length > 30) hub.tail.shift();
      if (verbose || (!stopping && worthShowing(line))) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  child.once('exit', (code, signal) => {
    hub.exited = true;
    liveChildren.delete(child);
    if (!stopping) {
      aborted ??= `the ${name} process exited unexpectedly (${signal ?? `code ${code}`})`;
      log(aborted);
    }
  });
  return hub;
}

// ---------------------------------------------------------------------------------------------- phases

/** One measured phase at one concurrency: what the users saw, and what each process used meanwhile. */
interface Measurement {
  level: number;
  recorder: Recorder;
  usage?: Usage[];
}

function phaseAt(options: Options, level: number, what: string, meter: UsageMeter, usage: (measured: Usage[]) => void): Phase {
  return {
    concurrency: level,
    warmupMs: options.warmupS * 1000,
    durationMs: options.durationS * 1000,
    aborted: () => aborted,
    window: { open: () => meter.start(), close: () => usage(meter.stop()) },
    progress: (r, elapsed) => log(`  ${(elapsed / 1000).toFixed(0)} s: ${r.latency.count} ${what}, ${r.errorCount} errors`),
    warmupErrors: (description) => log(`warm-up errors (not counted): ${description}`),
  };
}

async function measure(options: Options, level: number, what: string, meter: UsageMeter, iteration: Parameters<typeof drive>[1]): Promise<Measurement> {
  log(`${what}: concurrency ${level}, warm-up ${options.warmupS} s, duration ${options.durationS} s`);
  let usage: Usage[] | undefined;
  const recorder = await drive(
    phaseAt(options, level, what, meter, (measuredUsage) => (usage = measuredUsage)),
    iteration,
  );
  return { level, recorder, usage };
}

/** Load at the first concurrency for `minutes`, the memory of each process sampled every 30 s. */
async function soak(options: Options, minutes: number, processes: Measured[], iteration: Parameters<typeof drive>[1]): Promise<string[]> {
  const rows: string[] = [`soak            concurrency ${options.levels[0]} for ${minutes} min; resident memory (MB) every 30 s`];
  rows.push(`  ${'minute'.padEnd(8)}${processes.map((p) => p.name.padStart(12)).join('')}${'completed'.padStart(12)}${'errors'.padStart(8)}`);
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  let live: Recorder | undefined;
  const sample = (elapsedMs: number, measured: Recorder) => {
    const cells = processes.map((p) => {
      const mb = residentMb(p.pid);
      if (!first.has(p.name)) first.set(p.name, mb);
      last.set(p.name, mb);
      return mb.toFixed(0).padStart(12);
    });
    rows.push(
      `  ${(elapsedMs / 60_000).toFixed(1).padEnd(8)}${cells.join('')}${String(measured.latency.count).padStart(12)}${String(measured.errorCount).padStart(8)}`,
    );
  };
  let started = 0;
  let ticker: NodeJS.Timeout | undefined;
  const phase: Phase = {
    concurrency: options.levels[0],
    warmupMs: options.warmupS * 1000,
    durationMs: minutes * 60_000,
    aborted: () => aborted,
    window: {
      open: () => {
        started = performance.now();
        ticker = setInterval(() => live && sample(performance.now() - started, live), 30_000);
      },
      close: () => clearInterval(ticker),
    },
    // Called every 5 s with the measured recorder: the samples read its counts.
    progress: (measured) => (live = measured),
    warmupErrors: (description) => log(`warm-up errors (not counted): ${description}`),
  };
  log(`soak: concurrency ${options.levels[0]} for ${minutes} min`);
  const recorder = await drive(phase, iteration);
  clearInterval(ticker);
  sample(performance.now() - started, recorder);
  rows.push(`  peak    ${processes.map((p) => `${p.name} ${peakResidentMb(p.pid).toFixed(0)} MB`).join(', ')} (the most each held since it started)`);
  rows.push(
    `  growth  ${processes.map((p) => `${p.name} ${((last.get(p.name) ?? 0) - (first.get(p.name) ?? 0)).toFixed(0)} MB`).join(', ')} ` +
      `(first sample to last); ${recorder.ratePerS.toFixed(1)}/s, p99 ${ms(recorder.latency.percentile(99))}, errors ${recorder.errorCount}`,
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------- report

/** An RSA key for RS256, as Mojaloop's JWS uses. */
const rsaKey = () => rsaKeyPair().privateKey;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)} ms`);
const cell = (text: string, width: number) => text.padStart(width);

/** The hub and the floor at each concurrency, side by side. */
function throughputTable(options: Options, hub: Measurement[], floor: Measurement[]): string[] {
  const unit = `${NOUNS[options.mode].plural}/s`;
  const width = Math.max(12, unit.length + 2);
  const rows = [
    `${'concurrency'.padEnd(12)}${cell(unit, width)}${cell('transfer p50', 14)}${cell('p95', 9)}${cell('p99', 9)}${cell('quote p50', 11)}${cell('p99', 9)}${cell('errors', 8)}` +
      `${cell('floor wf/s', 12)}${cell('floor p50', 11)}${cell('p99', 9)}${cell('ratio', 7)}`,
  ];
  hub.forEach(({ level, recorder }, index) => {
    const f = floor[index]?.recorder;
    rows.push(
      `${String(level).padEnd(12)}${cell(recorder.ratePerS.toFixed(1), width)}${cell(ms(recorder.latency.percentile(50)), 14)}${cell(ms(recorder.latency.percentile(95)), 9)}` +
        `${cell(ms(recorder.latency.percentile(99)), 9)}${cell(ms(recorder.quotes.percentile(50)), 11)}${cell(ms(recorder.quotes.percentile(99)), 9)}${cell(String(recorder.errorCount), 8)}` +
        (f
          ? `${cell(f.ratePerS.toFixed(1), 12)}${cell(ms(f.latency.percentile(50)), 11)}${cell(ms(f.latency.percentile(99)), 9)}${cell((recorder.ratePerS / f.ratePerS).toFixed(2), 7)}`
          : ''),
    );
    if (options.mode === 'bulk') rows.push(`  that is ${(recorder.ratePerS * options.bulkSize).toFixed(0)} transfers/s, in bulks of ${options.bulkSize}`);
    if (recorder.errorCount > 0)
      rows.push(`  errors: ${describeErrors(recorder)}${recorder.errorsAfterWindow ? ` (${recorder.errorsAfterWindow} of them after the window)` : ''}`);
    if (f && f.errorCount > 0) rows.push(`  floor errors: ${describeErrors(f)}`);
  });
  return rows;
}

/** CPU and writes of each process in one measured window, also per completed iteration. */
function usageTable(title: string, measurement: Measurement, per: string): string[] {
  const { usage, recorder } = measurement;
  if (!usage) return [];
  const done = Math.max(1, recorder.latency.count);
  const rows = [
    title,
    `  ${'process'.padEnd(24)}${cell('CPU s', 8)}${cell('cores', 7)}${cell(`CPU ms/${per}`, 16)}${cell('MB written', 12)}${cell(`KB/${per}`, 14)}${cell('peak RSS MB', 13)}`,
  ];
  for (const u of usage) {
    rows.push(
      `  ${u.name.padEnd(24)}${cell(u.cpuS.toFixed(1), 8)}${cell(u.cores.toFixed(2), 7)}${cell(((u.cpuS * 1000) / done).toFixed(1), 16)}` +
        `${cell((u.writtenBytes / 1e6).toFixed(1), 12)}${cell((u.writtenBytes / 1024 / done).toFixed(1), 14)}${cell(u.peakMb ? u.peakMb.toFixed(0) : '-', 13)}`,
    );
    for (const role of THREAD_ROLES) {
      const cpuS = u.threads?.[role];
      if (cpuS === undefined) continue;
      const cores = u.cpuS > 0 ? (u.cores * cpuS) / u.cpuS : 0;
      rows.push(`    ${role.padEnd(22)}${cell(cpuS.toFixed(1), 8)}${cell(cores.toFixed(2), 7)}${cell(((cpuS * 1000) / done).toFixed(1), 16)}`);
    }
  }
  return rows;
}

function historyTable(costs: Array<[string, HistoryCost]>): string[] {
  const rows = [
    `what a run costs the Temporal server (mean over the histories of a sample of ${HISTORY_SAMPLE} of each)`,
    `  ${'workflow'.padEnd(10)}${cell('events', 8)}${cell('wf tasks', 10)}${cell('eager', 7)}${cell('activities', 12)}${cell('local acts', 12)}${cell('signals', 9)}${cell('SA upserts', 12)}${cell('timers', 8)}${cell('requests', 10)}`,
  ];
  for (const [name, c] of costs) {
    if (c.runs === 0) continue;
    rows.push(
      `  ${name.padEnd(10)}${cell(c.events.toFixed(1), 8)}${cell(c.workflowTasks.toFixed(1), 10)}${cell(c.eagerStarts.toFixed(1), 7)}${cell(c.activityTasks.toFixed(1), 12)}${cell(c.localActivities.toFixed(1), 12)}` +
        `${cell(c.signals.toFixed(1), 9)}${cell(c.searchAttributeUpserts.toFixed(1), 12)}${cell(c.timers.toFixed(1), 8)}${cell(serverRequests(c).toFixed(1), 10)}`,
    );
  }
  rows.push(
    '  requests: start + signals + a poll and a completion per workflow task and per activity task, less the poll of an eager start; local activities cost none',
  );
  return rows;
}

/**
 * `names` and as many more DFSPs as make `count`, each a real HTTP server provisioned through the admin API as the
 * first ones were: what --seed-direct spreads its transfers over.
 */
async function participantsBeside(names: string[], adminUrl: string, count: number): Promise<string[]> {
  const more = await Promise.all(Array.from({ length: Math.max(0, count - names.length) }, () => SimulatedDfsp.start(uniqueName('benchdfsp'))));
  cleanups.push({ what: 'simulated DFSPs', run: async () => void (await Promise.all(more.map((dfsp) => dfsp.close()))) });
  for (const dfsp of more) await provision(adminUrl, dfsp.name, dfsp);
  if (more.length > 0) log(`provisioned ${more.length} more DFSPs for the seeded window`);
  return [...names, ...more.map((dfsp) => dfsp.name)];
}

/** A sample from the middle of a run's IDs, where the load was steady. */
function middleOf(ids: string[]): string[] {
  const from = Math.max(0, Math.floor(ids.length / 2) - HISTORY_SAMPLE / 2);
  return ids.slice(from, from + HISTORY_SAMPLE);
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  verbose = options.verbose;
  const started = Date.now();
  Runtime.install({ logger: new DefaultLogger('ERROR') });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-'));
  cleanups.push({ what: 'temp dir', run: () => fs.rmSync(tmp, { recursive: true, force: true }) });
  const sharedDb = Boolean(process.env.DATABASE_URL);
  const databaseUrl = process.env.DATABASE_URL || `sqlite:${path.join(tmp, 'hub.sqlite')}`;

  // The Temporal dev server, or with --topology a Temporal server on MySQL/MariaDB with a fresh schema.
  const { topology } = options;
  if (topology && !/^(mysql|mariadb):/.test(databaseUrl)) throw new Error('--topology runs the hub on MySQL/MariaDB: set DATABASE_URL=mysql://…');
  const temporal: TemporalProcess = topology
    ? await startTemporalServer({
        store: mysqlStore(temporalDatabaseUrl(process.env, 'temporal_bench')),
        historyShards: topology.historyShards,
        dataDir: path.join(tmp, 'temporal'),
        fresh: true,
        log,
      })
    : await startDevServer({
        cliPath: await temporalCliPath(log),
        ip: HOST,
        ui: false,
        dbFile: options.temporalInMemory ? undefined : path.join(tmp, 'temporal.sqlite'),
        log,
      });
  cleanups.push({ what: 'Temporal server', run: () => temporal.stop() });
  if (aborted) throw new Error(aborted);

  // The database: migrated once here, before the hub processes race to do it; also used for the ledger check.
  const services: HubServices = await openHubServices({ databaseUrl, hubParticipantName: process.env.HUB_PARTICIPANT_NAME || HUB_NAME });
  cleanups.push({ what: 'database connection', run: () => services.db.close() });

  // Worker and gateway processes.
  const { env, switchUrl, adminUrl } = await hubProcessSettings({ databaseUrl, temporalAddress: temporal.address, host: HOST });
  // With --jws: the hub's key, and a directory the DFSPs' public keys go into once they are named.
  const keysDirectory = path.join(tmp, 'jws');
  if (options.jws) {
    fs.mkdirSync(keysDirectory);
    const hubKey = path.join(tmp, 'hub.key');
    fs.writeFileSync(hubKey, rsaKey().export({ type: 'pkcs8', format: 'pem' }));
    Object.assign(env, { JWS_VALIDATE: 'true', JWS_VERIFICATION_KEYS_DIRECTORY: keysDirectory, JWS_SIGNING_KEY_PATH: hubKey });
  }
  const taskQueue = loadConfig(env).taskQueue;
  const profileDir = options.profile ? path.resolve(repoRoot, options.profile) : undefined;
  if (topology) env.GATEWAY_PROCESSES = String(topology.gateways);
  const processes = hubLayout(options).map(([name, entry]) => startHubProcess(name, entry, env, profileDir));
  cleanups.push({
    what: 'hub processes',
    run: async () => {
      stopping = true;
      await Promise.all(processes.map((p) => p.stop()));
    },
  });
  await waitUntilReady({
    healthUrl: `${adminUrl}/health`,
    temporalAddress: temporal.address,
    namespace: 'default',
    taskQueue,
    timeoutMs: 120_000,
    failed: () => {
      const dead = processes.find((p) => p.exited);
      return dead && `the ${dead.name} process exited during start-up; last output:\n  ${dead.tail.join('\n  ')}`;
    },
  });
  const connection = await Connection.connect({ address: temporal.address });
  cleanups.push({ what: 'Temporal client', run: () => connection.close() });
  const client = new Client({ connection, namespace: 'default' });
  const temporalKind = topology
    ? `temporal-server, ${topology.historyShards} history shards on MySQL/MariaDB, ${topology.workers} workers, ${topology.gateways} gateways`
    : options.temporalInMemory
      ? 'dev server in memory'
      : 'dev server on a SQLite file';
  log(
    `hub ready in ${((Date.now() - started) / 1000).toFixed(1)} s: switch ${switchUrl}, admin ${adminUrl}, Temporal ${temporal.address} (${temporalKind}), database ${sharedDb ? 'DATABASE_URL' : 'fresh SQLite file'}, JWS ${options.jws ? 'on' : 'off'}`,
  );

  // Two DFSPs as real HTTP servers, provisioned through the admin API.
  const payerDfsp = await SimulatedDfsp.start(uniqueName('benchpayer'));
  const payeeDfsp = await SimulatedDfsp.start(uniqueName('benchpayee'));
  cleanups.push({ what: 'simulated DFSPs', run: async () => void (await Promise.all([payerDfsp.close(), payeeDfsp.close()])) });
  await provision(adminUrl, payerDfsp.name, payerDfsp);
  await provision(adminUrl, payeeDfsp.name, payeeDfsp);
  const keys: SigningKeys = new Map();
  /** A DFSP's signing key, its public half where the hub reads participants' keys. */
  const signingKeyFor = (name: string) => {
    const key = rsaKey();
    fs.writeFileSync(path.join(keysDirectory, `${name}.pem`), crypto.createPublicKey(key).export({ type: 'spki', format: 'pem' }));
    return key;
  };
  if (options.jws) for (const { name } of [payerDfsp, payeeDfsp]) keys.set(name, signingKeyFor(name));
  const payeeErrors = new Map<string, number>();
  const parties = partiesBetween(payerDfsp, payeeDfsp, {
    switchUrl,
    timeoutMs: options.timeoutMs,
    keys,
    bulkSize: options.bulkSize,
    onPayeeError: (kind) => payeeErrors.set(kind, (payeeErrors.get(kind) ?? 0) + 1),
  });
  const { payer } = parties;
  log(`provisioned ${payerDfsp.name} (payer) and ${payeeDfsp.name} (payee)`);

  const gateway = processes.find((p) => p.name === 'gateway')?.child.pid;
  const database = topology ? processNamed(['mariadbd', 'mysqld']) : undefined;
  const measured: Measured[] = [
    { name: 'temporal server', pid: temporal.pid },
    ...processes.map((p) => ({ name: p.name === 'hub' ? 'hub' : `hub ${p.name}`, pid: p.child.pid!, runsWorkflows: p.name !== 'gateway' })),
    // With GATEWAY_PROCESSES the gateway process only hands connections to its copies, which do the work.
    ...(gateway ? childPids(gateway) : []).map((pid, i) => ({ name: `hub gateway copy ${i + 1}`, pid })),
    ...(database ? [{ name: 'mysql server', pid: database }] : []),
    { name: 'bench (load, DFSPs)', pid: process.pid },
  ];
  const meter = new UsageMeter(measured);
  const noun = NOUNS[options.mode].plural;
  let scene: ThirdpartyScene | undefined;
  if (options.mode === 'thirdparty') {
    const pisp = await SimulatedDfsp.start(uniqueName('benchpisp'));
    cleanups.push({ what: 'simulated DFSPs', run: () => pisp.close() });
    await provisionPisp(adminUrl, pisp);
    scene = await linkAccount(switchUrl, pisp, payerDfsp);
    log(`provisioned ${pisp.name} (PISP) and linked an account at ${payerDfsp.name}, consent ${scene.consentId}`);
  }
  const iteration = scene ? thirdpartyIteration(scene, parties) : hubIteration(options.mode === 'settlement' ? 'bulk' : options.mode, parties);
  // With --flood: a third DFSP that asks again and again, and what its flood cost the others at each concurrency.
  const flooder = options.flood > 0 ? await SimulatedDfsp.start(uniqueName('benchflooder')) : undefined;
  if (flooder) {
    cleanups.push({ what: 'simulated DFSPs', run: () => flooder.close() });
    await provision(adminUrl, flooder.name, flooder);
    if (options.jws) keys.set(flooder.name, signingKeyFor(flooder.name));
  }
  const floodLines: string[] = [];

  // Hub traffic: each concurrency in turn, or one long soak.
  const hub: Measurement[] = [];
  let soakRows: string[] = [];
  let settlementRows: string[] = [];
  if (options.mode === 'settlement') {
    const committed = () => [...payer.transfers.values()].filter((transfer) => transfer.state === 'committed').length;
    const fill = options.seedDirect
      ? seededFill(
          services.db,
          await participantsBeside([payerDfsp.name, payeeDfsp.name], adminUrl, options.participants),
          CURRENCY,
          options.settlementTransfers,
          log,
        )
      : fillByBulks(iteration, committed, options.settlementTransfers);
    const hubMeasured = measured.filter((m) => m.name.startsWith('hub'));
    settlementRows = await settlementCycle(adminUrl, fill, hubMeasured, payerDfsp.name, log);
  } else if (options.soakMinutes !== undefined) {
    soakRows = await soak(options, options.soakMinutes, measured.slice(0, -1), iteration);
  } else {
    for (const level of options.levels) {
      if (aborted) break;
      hub.push(await measure(options, level, `hub ${noun}`, meter, iteration));
      if (flooder && !aborted) {
        const running = startFlood(
          options.flood,
          async (urlPath) => (await fspiop(switchUrl, 'GET', urlPath, flooder.name, payeeDfsp.name, undefined, keys)).status,
        );
        const flooded = await measure(options, level, `hub ${noun} beside a flood of GETs`, meter, iteration);
        floodLines.push(...floodRows(level, hub.at(-1)!.recorder, flooded.recorder, await running.stop()));
      }
    }
  }
  if (aborted) throw new Error(aborted);

  // Every transfer decided before the books are checked: each gets a callback by its expiration at the latest.
  const drainDeadline = Date.now() + TRANSFER_EXPIRY_MS + 20_000;
  if (payer.undecided > 0) log(`waiting for ${payer.undecided} undecided transfer(s) to be decided`);
  while (payer.undecided > 0 && Date.now() < drainDeadline && !aborted) await sleep(250);
  await sleep(500); // let the last commits' callbacks and ledger writes settle

  const counts: Record<TransferState, number> = { sent: 0, committed: 0, aborted: 0, refused: 0, other: 0 };
  let committedSum = new Decimal(0);
  for (const t of payer.transfers.values()) {
    counts[t.state]++;
    if (t.state === 'committed') committedSum = committedSum.plus(t.amount);
  }
  // Read from the ledger itself, as exact decimals (the admin API renders amounts as JSON numbers).
  const positionOf = async (name: string) => new Decimal((await services.limits.positions(name, CURRENCY))[0].value);
  const payerPosition = await positionOf(payerDfsp.name);
  const payeePosition = await positionOf(payeeDfsp.name);
  const ledger = await checkLedger(services.db);

  // The Temporal floor at the same concurrencies.
  const floor: Measurement[] = [];
  const floorIds: string[] = [];
  if (options.floor && options.soakMinutes === undefined && options.mode !== 'settlement' && !aborted) {
    const floorQueue = `bench-floor-${crypto.randomUUID()}`;
    const nativeConnection = await NativeConnection.connect({ address: temporal.address });
    cleanups.push({ what: 'floor worker connection', run: () => nativeConnection.close() });
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue: floorQueue,
      workflowsPath: require.resolve('./floorWorkflow'),
    });
    const running = worker.run();
    cleanups.push({
      what: 'floor worker',
      run: async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      },
    });
    const floorMeter = new UsageMeter([measured[0], { name: 'bench (floor worker, load)', pid: process.pid }]);
    for (const level of options.levels) {
      if (aborted) break;
      floor.push(await measure(options, level, 'temporal floor', floorMeter, floorIteration(client, floorQueue, options.timeoutMs, floorIds)));
    }
    worker.shutdown();
    await running;
  }
  if (aborted) throw new Error(aborted);

  // Where the time goes.
  const costs: Array<[string, HistoryCost]> = [
    [
      'quote',
      await historyCost(
        client,
        middleOf(payer.quoteIds).map((id) => `quote/${id}`),
      ),
    ],
    options.mode === 'bulk'
      ? [
          'bulk',
          await historyCost(
            client,
            middleOf(payer.bulkTransferIds).map((id) => `bulkTransfer/${id}`),
          ),
        ]
      : [
          'transfer',
          await historyCost(
            client,
            middleOf([...payer.transfers.keys()]).map((id) => `transfer/${id}`),
          ),
        ],
    ...(scene
      ? [
          [
            'observer',
            await historyCost(
              client,
              middleOf(scene.transactionRequestIds).map((id) => workflowIds.thirdpartyTransaction(id)),
            ),
          ] as [string, HistoryCost],
        ]
      : []),
    ['floor', await historyCost(client, middleOf(floorIds))],
  ];

  // Report.
  // Settled, every position is back where it stood before the window: at zero.
  const expectedPayer = options.mode === 'settlement' ? new Decimal(0) : committedSum;
  const expectedPayee = expectedPayer.negated();
  const positionsOk = payerPosition.equals(expectedPayer) && payeePosition.equals(expectedPayee);
  const lost = counts.sent;
  const ledgerOk = ledger.violations.length === 0 && positionsOk && lost === 0 && payer.contradictions.length === 0;
  const lines: string[] = [''];
  lines.push(`mode            ${NOUNS[options.mode].description(options.bulkSize)}`);
  lines.push(`temporal        ${temporalKind}; hub database ${sharedDb ? 'DATABASE_URL' : 'SQLite file'}`);
  lines.push(`jws             ${options.jws ? 'on: DFSPs sign, the hub validates every message and signs its own' : 'off'}`);
  if (options.soakMinutes === undefined && options.mode !== 'settlement')
    lines.push(`duration        ${options.durationS} s measured per concurrency, after ${options.warmupS} s of warm-up`);
  if (hub.length) lines.push('', ...throughputTable(options, hub, floor));
  if (floodLines.length)
    lines.push('', `flood           ${options.flood} GET /transfers/{random ID} a second from ${flooder?.name}, beside the payments`, ...floodLines);
  if (soakRows.length) lines.push('', ...soakRows);
  if (settlementRows.length) lines.push('', ...settlementRows);
  if (hub[0]) lines.push('', ...usageTable(`where the time goes: hub ${noun} at concurrency ${hub[0].level}`, hub[0], NOUNS[options.mode].singular));
  if (floor[0]) lines.push(...usageTable(`  and the floor at concurrency ${floor[0].level}`, floor[0], 'workflow'));
  lines.push('', ...historyTable(costs));
  if (payeeErrors.size > 0) lines.push(`  payee errors: ${[...payeeErrors].map(([kind, n]) => `${n}× ${kind}`).join('; ')}`);
  lines.push(
    '',
    `transfers       sent ${payer.transfers.size} (warm-up included): committed ${counts.committed}, aborted ${counts.aborted}, refused ${counts.refused}, ` +
      `other ${counts.other}, undecided ${lost}`,
  );
  lines.push(
    `positions       ${payerDfsp.name} ${payerPosition.toFixed()} (expected ${expectedPayer.toFixed()}), ${payeeDfsp.name} ${payeePosition.toFixed()} ` +
      `(expected ${expectedPayee.toFixed()}): ${positionsOk ? 'PASS' : 'FAIL'}`,
  );
  lines.push(`ledger          journal rows ${ledger.journalRows}, accounts ${ledger.accounts}: ${ledger.violations.length === 0 ? 'PASS' : 'FAIL'}`);
  for (const violation of ledger.violations.slice(0, 20)) lines.push(`  ${JSON.stringify(violation)}`);
  if (ledger.violations.length > 20) lines.push(`  … and ${ledger.violations.length - 20} more`);
  if (lost > 0) lines.push(`  FAIL: ${lost} transfer(s) sent but never decided for the payer (no callback by expiration + 20 s)`);
  for (const contradiction of payer.contradictions.slice(0, 10)) lines.push(`  FAIL: ${contradiction}`);
  lines.push(`invariants      ${ledgerOk ? 'PASS' : 'FAIL'}`);
  if (hub.length > 1) {
    const chart = path.resolve(repoRoot, options.chart);
    fs.mkdirSync(path.dirname(chart), { recursive: true });
    const series = [{ name: `hub ${noun}/s`, colour: '#1f77b4', values: hub.map((m) => m.recorder.ratePerS) }];
    if (floor.length) series.push({ name: 'Temporal floor wf/s', colour: '#d62728', values: floor.map((m) => m.recorder.ratePerS) });
    // The title must fit the chart's width: the topology is named by its Temporal server alone.
    const server = topology ? `temporal-server, ${topology.historyShards} shards` : temporalKind;
    fs.writeFileSync(chart, concurrencyChart(`Throughput against concurrency (${server})`, 'completed per second', options.levels, series));
    lines.push(`chart           ${chart}`);
  }
  if (profileDir) {
    // V8 writes a profile as its process exits.
    stopping = true;
    await Promise.all(processes.map((p) => p.stop()));
    for (const { name } of processes) {
      const file = path.join(profileDir, `${name}.cpuprofile`);
      if (fs.existsSync(file)) lines.push('', `CPU profile of the ${name} (${file}), self time by place:`, ...profileSummary(file));
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return ledgerOk ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) {
      log('second signal: exiting at once');
      process.exit(130);
    }
    signalled = true;
    stopping = true; // the hub processes get the signal too (same process group): their exit is expected now
    aborted ??= `${signal} received`;
    log(`${signal} received, cleaning up`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

main().then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (error: unknown) => {
    if (signalled) return; // the signal handler is cleaning up and will exit
    // fetch's own message ("fetch failed") names no reason: its cause does.
    const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : '';
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}${cause}`);
    await cleanUp();
    process.exit(2);
  },
);
