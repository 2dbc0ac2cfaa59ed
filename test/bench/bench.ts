// `npm run bench`: throughput and latency of the real hub, then its ledger invariants.
//
//   npm run bench [-- --concurrency 10 --duration 20 --warmup 3 --timeout 30 --no-floor --temporal-db-file --jws]
//
// 1. A fresh environment in a temp dir: a headless Temporal dev server on a free port (in-memory, or a SQLite
//    file with --temporal-db-file), a fresh SQLite database (or DATABASE_URL, with unique participant names),
//    and the real worker and gateway processes (dist/worker/main.js, dist/api/main.js) as child processes.
// 2. Two DFSPs provisioned through the admin API as an operator would, each a real HTTP server (SimulatedDfsp):
//    the payee answers quotes and fulfils transfers, the payer measures.
// 3. N virtual users, each looping POST /quotes → PUT /quotes/{ID} → POST /transfers → PUT /transfers/{ID}
//    for D seconds (after a short warm-up that is not counted). Latencies run from the POST to the payer's callback.
// 4. Once every transfer is decided: the ledger invariants (checkLedger) and the positions (payer +sum,
//    payee −sum of the committed amounts). Exit code 1 if they fail; timings are printed, never asserted.
// 5. The Temporal floor on the same server: an in-process worker running a workflow that waits for one
//    signal (test/bench/floorWorkflow.ts); start → signal → result, same concurrency and duration.
// With --jws the DFSPs sign every message with a body (FSPIOP-Signature, keys made for the run) and the hub validates
// each (JWS_VALIDATE) and signs its own: compared with a run without, the cost of end-to-end signatures.
//
// Settings also come from the environment: BENCH_CONCURRENCY, BENCH_DURATION, BENCH_WARMUP, BENCH_TIMEOUT,
// BENCH_FLOOR=0, BENCH_TEMPORAL_DB_FILE=1, BENCH_JWS=1. All traffic stays on 127.0.0.1. Ctrl-C stops and cleans up everything.

import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig, repoRoot } from '../../activities/platform/config';
import { sign } from '../../activities/platform/jws';
import { Decimal } from '../../activities/hub/db/money';
import { openHubServices, type HubServices } from '../../activities/hub/services';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { startDevServer, type DevServer } from '../../temporal/devServer';
import { temporalCliPath } from '../../temporal/setup';
import { freePort } from '../../temporal/ports';
import { waitUntilReady } from '../../worker/readiness';
import { uniqueName } from '../helpers/database';
import { SimulatedDfsp, type ReceivedRequest } from '../helpers/dfsp';
import { ilpPair, quoteBody, transferBody } from '../helpers/fspiopBodies';
import { floor, floorGoSignal } from './floorWorkflow';

const HOST = '127.0.0.1';
const CURRENCY = 'USD';
const HUB_NAME = 'Hub';
/** Large enough that no benchmark run reaches it: the bench measures the happy path. */
const NET_DEBIT_CAP = 1_000_000_000;
const FUNDS_IN = 1_000_000_000;
/** Transfer expiration: well beyond the callback timeout, so a slow transfer is counted as a timeout, not aborted. */
const TRANSFER_EXPIRY_MS = 60_000;

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

// ---------------------------------------------------------------------------------------------- options

interface Options {
  concurrency: number;
  durationS: number;
  warmupS: number;
  timeoutMs: number;
  floor: boolean;
  temporalDbFile: boolean;
  jws: boolean;
  verbose: boolean;
}

const USAGE = `usage: npm run bench [-- options]
  --concurrency N       virtual users (default 10, env BENCH_CONCURRENCY)
  --duration S          measured seconds per phase (default 20, env BENCH_DURATION)
  --warmup S            unmeasured seconds before each phase (default 3, env BENCH_WARMUP)
  --timeout S           how long a user waits for a callback (default 30, env BENCH_TIMEOUT)
  --no-floor            skip the Temporal floor phase (env BENCH_FLOOR=0)
  --temporal-db-file    Temporal dev server on a SQLite file in the temp dir instead of in-memory
                        (env BENCH_TEMPORAL_DB_FILE=1)
  --jws                 DFSPs sign, the hub validates and signs (JWS_VALIDATE, env BENCH_JWS=1)
  --verbose             show all output of the worker and gateway processes, not only warnings and errors`;

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const number = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"\n${USAGE}`);
    return value;
  };
  const flag = (raw: string | undefined, fallback: boolean) => (raw === undefined || raw === '' ? fallback : !/^(0|false|no|off)$/i.test(raw));
  const values: Record<string, string | undefined> = {
    concurrency: env.BENCH_CONCURRENCY,
    duration: env.BENCH_DURATION,
    warmup: env.BENCH_WARMUP,
    timeout: env.BENCH_TIMEOUT,
  };
  let floorOn = flag(env.BENCH_FLOOR, true);
  let temporalDbFile = flag(env.BENCH_TEMPORAL_DB_FILE, false);
  let jws = flag(env.BENCH_JWS, false);
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (arg === '--no-floor') floorOn = false;
    else if (arg === '--floor') floorOn = true;
    else if (arg === '--temporal-db-file') temporalDbFile = true;
    else if (arg === '--jws') jws = true;
    else if (arg === '--verbose') verbose = true;
    else {
      const match = /^--(concurrency|duration|warmup|timeout)(?:=(.*))?$/.exec(arg);
      if (!match) throw new Error(`unknown argument "${arg}"\n${USAGE}`);
      const value = match[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${match[1]} needs a value\n${USAGE}`);
      values[match[1]] = value;
    }
  }
  return {
    concurrency: Math.floor(number('concurrency', values.concurrency, 10, 1)),
    durationS: number('duration', values.duration, 20, 1),
    warmupS: number('warmup', values.warmup, 3, 0),
    timeoutMs: number('timeout', values.timeout, 30, 1) * 1000,
    floor: floorOn,
    temporalDbFile,
    jws,
    verbose,
  };
}

// ---------------------------------------------------------------------------------------------- statistics

class Series {
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
class Sample {
  transferMs?: number;
  quoteMs?: number;
  errorKind?: string;

  error(kind: string): void {
    this.errorKind ??= kind;
  }
}

/** What one phase (warm-up or measured window) of one scenario recorded. */
class Recorder {
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

/**
 * N virtual users looping `iteration` for the warm-up and then the measured window; none starts a new
 * iteration after the window (or after an abort), the ones under way run to their end. Steady-state figures:
 * the measured recorder holds the iterations that finished inside the window (whenever they started), so
 * throughput is completions in the window / its duration; errors of iterations that finish later count too.
 */
async function drive(
  concurrency: number,
  warmupMs: number,
  durationMs: number,
  iteration: (sample: Sample) => Promise<void>,
  progress: (measured: Recorder, elapsedMs: number) => void,
): Promise<Recorder> {
  const warmup = new Recorder(warmupMs / 1000);
  const measured = new Recorder(durationMs / 1000);
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const end = measureFrom + durationMs;
  const ticker = setInterval(() => {
    const now = performance.now();
    if (now >= measureFrom && !aborted) progress(measured, now - measureFrom);
  }, 5_000);
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end && !aborted) {
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
  }
  if (warmup.errorCount > 0) log(`warm-up errors (not counted): ${describeErrors(warmup)}`);
  return measured;
}

function describeErrors(recorder: Recorder): string {
  return [...recorder.errors].map(([kind, n]) => `${n}× ${kind}`).join('; ');
}

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
  'Temporal dev server',
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

function startHubProcess(name: string, entry: string, env: NodeJS.ProcessEnv): HubProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', entry)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        hub.tail.push(line);
        if (hub.tail.length > 30) hub.tail.shift();
        if (verbose || (!stopping && worthShowing(line))) process.stderr.write(`[${name}] ${line}\n`);
      }
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

// ---------------------------------------------------------------------------------------------- HTTP

async function adminCall(adminUrl: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const response = await fetch(`${adminUrl}${urlPath}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin ${method} ${urlPath}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The DFSPs' private keys by name, with --jws. */
type SigningKeys = Map<string, crypto.KeyObject>;

/** An FSPIOP request or callback with the headers a DFSP sends (as test/helpers/switchHarness.ts fspiop()), signed with its key if it has one. */
async function fspiop(
  switchUrl: string,
  method: string,
  urlPath: string,
  source: string,
  destination: string,
  body: unknown,
  keys: SigningKeys,
): Promise<{ status: number; text: string }> {
  const resource = urlPath.split('/')[1];
  const media = `application/vnd.interoperability.${resource}+json;version=1.1`;
  const headers: Record<string, string> = {
    'content-type': media,
    date: new Date().toUTCString(),
    'fspiop-source': source,
    'fspiop-destination': destination,
  };
  if (method !== 'PUT' && method !== 'PATCH') headers.accept = media;
  const text = JSON.stringify(body);
  const key = keys.get(source);
  if (key) {
    Object.assign(headers, { 'fspiop-uri': urlPath, 'fspiop-http-method': method });
    headers['fspiop-signature'] = await sign(headers, text, key);
  }
  const response = await fetch(`${switchUrl}${urlPath}`, { method, headers, body: text });
  return { status: response.status, text: await response.text() };
}

async function provision(adminUrl: string, name: string, dfsp: SimulatedDfsp): Promise<void> {
  const created = await adminCall(adminUrl, 'POST', '/participants', { name, currency: CURRENCY });
  await adminCall(adminUrl, 'PUT', `/participants/${name}`, { isActive: true });
  for (const endpoint of dfsp.endpoints()) await adminCall(adminUrl, 'POST', `/participants/${name}/endpoints`, endpoint);
  await adminCall(adminUrl, 'POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: CURRENCY,
    limit: { type: 'NET_DEBIT_CAP', value: NET_DEBIT_CAP },
    initialPosition: 0,
  });
  const settlement = created.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT' && a.currency === CURRENCY).id;
  await adminCall(adminUrl, 'POST', `/participants/${name}/accounts/${settlement}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'bench opening deposit',
    action: 'recordFundsIn',
    reason: 'bench',
    amount: { amount: FUNDS_IN, currency: CURRENCY },
  });
}

// ---------------------------------------------------------------------------------------------- the hub scenario

interface Arrival {
  error: boolean;
  body: any;
  at: number;
}

type TransferState = 'sent' | 'committed' | 'aborted' | 'refused' | 'other';

/** The payer side: callbacks routed to the user waiting for them, and every transfer's outcome as the payer heard it. */
class PayerSide {
  private readonly waiters = new Map<string, (arrival: Arrival) => void>();
  readonly transfers = new Map<string, { amount: string; state: TransferState }>();
  unmatched = 0;
  contradictions: string[] = [];

  constructor(readonly dfsp: SimulatedDfsp) {
    dfsp.react((request) => this.received(request));
  }

  private received(request: ReceivedRequest): void {
    const at = performance.now();
    this.dfsp.received.length = 0; // the bench keeps its own books; don't let the simulator's list grow
    const match = /^\/(quotes|transfers)\/([^/?]+)(\/error)?$/.exec(request.path);
    if (request.method !== 'PUT' || !match) {
      this.unmatched++;
      return;
    }
    const [, resource, id, errorSuffix] = match;
    const error = Boolean(errorSuffix);
    if (resource === 'transfers') {
      const transfer = this.transfers.get(id);
      if (transfer) {
        const state: TransferState = error ? 'aborted' : request.body?.transferState === 'COMMITTED' ? 'committed' : 'other';
        if (transfer.state !== 'sent' && transfer.state !== 'refused' && transfer.state !== state) {
          this.contradictions.push(`transfer ${id}: payer told ${transfer.state}, later ${state}`);
        }
        transfer.state = state;
      }
    }
    const key = `${resource}/${id}`;
    const waiter = this.waiters.get(key);
    if (waiter) {
      this.waiters.delete(key);
      waiter({ error, body: request.body, at });
    } else {
      this.unmatched++;
    }
  }

  /** Registers interest in the callback for `key` (before the request is sent); undefined on timeout. */
  expect(key: string, timeoutMs: number): { arrival: Promise<Arrival | undefined>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<Arrival | undefined>((resolve) => {
      timer = setTimeout(() => {
        this.waiters.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.set(key, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    return {
      arrival,
      cancel: () => {
        clearTimeout(timer);
        this.waiters.delete(key);
      },
    };
  }

  get undecided(): number {
    let n = 0;
    for (const t of this.transfers.values()) if (t.state === 'sent') n++;
    return n;
  }
}

/** The payee side: answers every quote with a fresh condition, and fulfils every transfer whose condition it issued. */
function payeeAnswers(payee: SimulatedDfsp, switchUrl: string, keys: SigningKeys, onError: (kind: string) => void): void {
  const fulfilments = new Map<string, string>();
  payee.react(async (request) => {
    payee.received.length = 0;
    if (request.method !== 'POST') return; // PATCH notifications and error callbacks need no answer
    const payerFsp = String(request.headers['fspiop-source']);
    if (request.path === '/quotes') {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      const answer = await fspiop(
        switchUrl,
        'PUT',
        `/quotes/${request.body.quoteId}`,
        payee.name,
        payerFsp,
        {
          transferAmount: request.body.amount,
          expiration: new Date(Date.now() + TRANSFER_EXPIRY_MS).toISOString(),
          ilpPacket: Buffer.from(`bench ilp packet ${request.body.quoteId}`).toString('base64url'),
          condition,
        },
        keys,
      );
      if (answer.status !== 200) onError(`payee PUT /quotes → ${answer.status}`);
    } else if (request.path === '/transfers') {
      const fulfilment = fulfilments.get(request.body.condition);
      if (!fulfilment) return onError('payee: transfer with a condition it never issued');
      fulfilments.delete(request.body.condition);
      const answer = await fspiop(
        switchUrl,
        'PUT',
        `/transfers/${request.body.transferId}`,
        payee.name,
        payerFsp,
        {
          fulfilment,
          completedTimestamp: new Date().toISOString(),
          transferState: 'COMMITTED',
        },
        keys,
      );
      if (answer.status !== 200) onError(`payee PUT /transfers → ${answer.status}`);
    }
  });
}

/** A random amount between 1 and 99.99 in FSPIOP's form (no trailing zeros). */
function randomAmount(): string {
  return new Decimal(crypto.randomInt(100, 10_000)).div(100).toFixed();
}

function errorCode(body: any): string {
  return body?.errorInformation?.errorCode ?? '?';
}

function hubIteration(switchUrl: string, payer: PayerSide, payerName: string, payeeName: string, timeoutMs: number, keys: SigningKeys) {
  return async (sample: Sample): Promise<void> => {
    const amount = randomAmount();
    const quote = quoteBody(payerName, payeeName, amount);
    const quoted = payer.expect(`quotes/${quote.quoteId}`, timeoutMs);
    const q0 = performance.now();
    const qAck = await fspiop(switchUrl, 'POST', '/quotes', payerName, payeeName, quote, keys).catch((error) => {
      quoted.cancel();
      throw error;
    });
    if (qAck.status !== 202) {
      quoted.cancel();
      return sample.error(`POST /quotes → ${qAck.status}`);
    }
    const qAnswer = await quoted.arrival;
    if (!qAnswer) return sample.error('quote callback timeout');
    if (qAnswer.error) return sample.error(`quote error callback ${errorCode(qAnswer.body)}`);
    sample.quoteMs = qAnswer.at - q0;

    const transferAmount: string = qAnswer.body.transferAmount.amount;
    const body = {
      ...transferBody(payerName, payeeName, transferAmount, { condition: qAnswer.body.condition, expiresInMs: TRANSFER_EXPIRY_MS }),
      ilpPacket: qAnswer.body.ilpPacket,
    };
    const record = { amount: transferAmount, state: 'sent' as TransferState };
    payer.transfers.set(body.transferId, record);
    const fulfilled = payer.expect(`transfers/${body.transferId}`, timeoutMs);
    const t0 = performance.now();
    const tAck = await fspiop(switchUrl, 'POST', '/transfers', payerName, payeeName, body, keys).catch((error) => {
      fulfilled.cancel();
      throw error; // the record stays 'sent': the ledger check waits for its outcome
    });
    if (tAck.status !== 202) {
      fulfilled.cancel();
      if (record.state === 'sent') record.state = 'refused';
      return sample.error(`POST /transfers → ${tAck.status}`);
    }
    const tAnswer = await fulfilled.arrival;
    if (!tAnswer) return sample.error('transfer callback timeout');
    if (tAnswer.error) return sample.error(`transfer error callback ${errorCode(tAnswer.body)}`);
    if (tAnswer.body?.transferState !== 'COMMITTED') return sample.error(`transfer state ${tAnswer.body?.transferState}`);
    sample.transferMs = tAnswer.at - t0;
  };
}

// ---------------------------------------------------------------------------------------------- the floor scenario

function floorIteration(client: Client, taskQueue: string, timeoutMs: number) {
  return async (sample: Sample): Promise<void> => {
    const t0 = performance.now();
    const work = (async () => {
      const handle = await client.workflow.start(floor, {
        taskQueue,
        workflowId: `benchFloor/${crypto.randomUUID()}`,
        workflowExecutionTimeout: '2 minutes',
      });
      await handle.signal(floorGoSignal);
      await handle.result();
    })();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), timedOut]).finally(() => clearTimeout(timer));
    if (outcome === 'timeout') {
      work.catch(() => undefined);
      return sample.error('workflow timeout');
    }
    sample.transferMs = performance.now() - t0;
  };
}

// ---------------------------------------------------------------------------------------------- main

/** An RSA key for RS256, as Mojaloop's JWS uses. */
const rsaKey = () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)} ms`);

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  verbose = options.verbose;
  const started = Date.now();
  Runtime.install({ logger: new DefaultLogger('ERROR') });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-'));
  cleanups.push({ what: 'temp dir', run: () => fs.rmSync(tmp, { recursive: true, force: true }) });
  const sharedDb = Boolean(process.env.DATABASE_URL);
  const databaseUrl = process.env.DATABASE_URL || `sqlite:${path.join(tmp, 'hub.sqlite')}`;

  // Temporal dev server.
  const temporal: DevServer = await startDevServer({
    cliPath: await temporalCliPath(log),
    ip: HOST,
    ui: false,
    dbFile: options.temporalDbFile ? path.join(tmp, 'temporal.sqlite') : undefined,
    log,
  });
  cleanups.push({ what: 'Temporal dev server', run: () => temporal.stop() });
  if (aborted) throw new Error(aborted);

  // The database: migrated once here, before the hub processes race to do it; also used for the ledger check.
  const services: HubServices = await openHubServices({ databaseUrl, hubParticipantName: process.env.HUB_PARTICIPANT_NAME || HUB_NAME });
  cleanups.push({ what: 'database connection', run: () => services.db.close() });

  // Worker and gateway processes.
  const adminPort = await freePort(HOST);
  let switchPort = await freePort(HOST);
  while (switchPort === adminPort) switchPort = await freePort(HOST);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: 'default',
    HOST,
    ADMIN_PORT: String(adminPort),
    SWITCH_PORT: String(switchPort),
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  // With --jws: the hub's key, and a directory the DFSPs' public keys go into once they are named.
  const keysDirectory = path.join(tmp, 'jws');
  if (options.jws) {
    fs.mkdirSync(keysDirectory);
    const hubKey = path.join(tmp, 'hub.key');
    fs.writeFileSync(hubKey, rsaKey().export({ type: 'pkcs8', format: 'pem' }));
    Object.assign(env, { JWS_VALIDATE: 'true', JWS_VERIFICATION_KEYS_DIRECTORY: keysDirectory, JWS_SIGNING_KEY_PATH: hubKey });
  }
  const taskQueue = loadConfig(env).taskQueue;
  const processes = [startHubProcess('worker', 'worker/main.js', env), startHubProcess('gateway', 'api/main.js', env)];
  cleanups.push({
    what: 'hub processes',
    run: async () => {
      stopping = true;
      await Promise.all(processes.map((p) => p.stop()));
    },
  });
  const adminUrl = `http://${HOST}:${adminPort}`;
  const switchUrl = `http://${HOST}:${switchPort}`;
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
  log(
    `hub ready in ${((Date.now() - started) / 1000).toFixed(1)} s: switch ${switchUrl}, admin ${adminUrl}, Temporal ${temporal.address} (${options.temporalDbFile ? 'SQLite file' : 'in-memory'}), database ${sharedDb ? 'DATABASE_URL' : 'fresh SQLite file'}, JWS ${options.jws ? 'on' : 'off'}`,
  );

  // Two DFSPs as real HTTP servers, provisioned through the admin API.
  const payerDfsp = await SimulatedDfsp.start(uniqueName('benchpayer'));
  const payeeDfsp = await SimulatedDfsp.start(uniqueName('benchpayee'));
  cleanups.push({ what: 'simulated DFSPs', run: async () => void (await Promise.all([payerDfsp.close(), payeeDfsp.close()])) });
  await provision(adminUrl, payerDfsp.name, payerDfsp);
  await provision(adminUrl, payeeDfsp.name, payeeDfsp);
  const keys: SigningKeys = new Map();
  if (options.jws) {
    for (const { name } of [payerDfsp, payeeDfsp]) {
      const key = rsaKey();
      keys.set(name, key);
      fs.writeFileSync(path.join(keysDirectory, `${name}.pem`), crypto.createPublicKey(key).export({ type: 'spki', format: 'pem' }));
    }
  }
  const payer = new PayerSide(payerDfsp);
  const payeeErrors = new Map<string, number>();
  payeeAnswers(payeeDfsp, switchUrl, keys, (kind) => payeeErrors.set(kind, (payeeErrors.get(kind) ?? 0) + 1));
  log(`provisioned ${payerDfsp.name} (payer) and ${payeeDfsp.name} (payee)`);

  // Hub traffic.
  log(`hub transfers: concurrency ${options.concurrency}, warm-up ${options.warmupS} s, duration ${options.durationS} s`);
  const hub = await drive(
    options.concurrency,
    options.warmupS * 1000,
    options.durationS * 1000,
    hubIteration(switchUrl, payer, payerDfsp.name, payeeDfsp.name, options.timeoutMs, keys),
    (r, elapsed) => log(`  ${(elapsed / 1000).toFixed(0)} s: ${r.latency.count} transfers, ${r.errorCount} errors`),
  );
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

  // The Temporal floor.
  let floorResult: Recorder | undefined;
  if (options.floor && !aborted) {
    const taskQueue = `bench-floor-${crypto.randomUUID()}`;
    const nativeConnection = await NativeConnection.connect({ address: temporal.address });
    cleanups.push({ what: 'floor worker connection', run: () => nativeConnection.close() });
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
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
    log(`temporal floor: concurrency ${options.concurrency}, warm-up ${options.warmupS} s, duration ${options.durationS} s`);
    floorResult = await drive(
      options.concurrency,
      options.warmupS * 1000,
      options.durationS * 1000,
      floorIteration(client, taskQueue, options.timeoutMs),
      (r, elapsed) => log(`  ${(elapsed / 1000).toFixed(0)} s: ${r.latency.count} workflows, ${r.errorCount} errors`),
    );
    worker.shutdown();
    await running;
  }
  if (aborted) throw new Error(aborted);

  // Report.
  const expectedPayee = committedSum.negated();
  const positionsOk = payerPosition.equals(committedSum) && payeePosition.equals(expectedPayee);
  const lost = counts.sent;
  const ledgerOk = ledger.violations.length === 0 && positionsOk && lost === 0 && payer.contradictions.length === 0;
  const lines: string[] = [''];
  lines.push(`jws             ${options.jws ? 'on: DFSPs sign, the hub validates every message and signs its own' : 'off'}`);
  lines.push(
    `hub transfers   concurrency ${options.concurrency}  duration ${options.durationS}s  completed ${hub.latency.count}  ${hub.ratePerS.toFixed(1)}/s  ` +
      `p50 ${ms(hub.latency.percentile(50))}  p95 ${ms(hub.latency.percentile(95))}  p99 ${ms(hub.latency.percentile(99))}  max ${ms(hub.latency.max)}  errors ${hub.errorCount}`,
  );
  lines.push(
    `hub quotes      completed ${hub.quotes.count}  p50 ${ms(hub.quotes.percentile(50))}  p95 ${ms(hub.quotes.percentile(95))}  p99 ${ms(hub.quotes.percentile(99))}  max ${ms(hub.quotes.max)}`,
  );
  if (hub.errorCount > 0) lines.push(`  errors: ${describeErrors(hub)}${hub.errorsAfterWindow ? ` (${hub.errorsAfterWindow} of them after the window)` : ''}`);
  if (payeeErrors.size > 0) lines.push(`  payee errors: ${[...payeeErrors].map(([kind, n]) => `${n}× ${kind}`).join('; ')}`);
  if (floorResult) {
    lines.push(
      `temporal floor  concurrency ${options.concurrency}  duration ${options.durationS}s  completed ${floorResult.latency.count}  ${floorResult.ratePerS.toFixed(1)}/s  ` +
        `p50 ${ms(floorResult.latency.percentile(50))}  p95 ${ms(floorResult.latency.percentile(95))}  p99 ${ms(floorResult.latency.percentile(99))}  max ${ms(floorResult.latency.max)}  errors ${floorResult.errorCount}`,
    );
    if (floorResult.errorCount > 0)
      lines.push(
        `  errors: ${describeErrors(floorResult)}${floorResult.errorsAfterWindow ? ` (${floorResult.errorsAfterWindow} of them after the window)` : ''}`,
      );
  }
  lines.push(
    `transfers       sent ${payer.transfers.size} (warm-up included): committed ${counts.committed}, aborted ${counts.aborted}, refused ${counts.refused}, ` +
      `other ${counts.other}, undecided ${lost}`,
  );
  lines.push(
    `positions       ${payerDfsp.name} ${payerPosition.toFixed()} (expected ${committedSum.toFixed()}), ${payeeDfsp.name} ${payeePosition.toFixed()} ` +
      `(expected ${expectedPayee.toFixed()}): ${positionsOk ? 'PASS' : 'FAIL'}`,
  );
  lines.push(`ledger          journal rows ${ledger.journalRows}, accounts ${ledger.accounts}: ${ledger.violations.length === 0 ? 'PASS' : 'FAIL'}`);
  for (const violation of ledger.violations.slice(0, 20)) lines.push(`  ${violation}`);
  if (ledger.violations.length > 20) lines.push(`  … and ${ledger.violations.length - 20} more`);
  if (lost > 0) lines.push(`  FAIL: ${lost} transfer(s) sent but never decided for the payer (no callback by expiration + 20 s)`);
  for (const contradiction of payer.contradictions.slice(0, 10)) lines.push(`  FAIL: ${contradiction}`);
  lines.push(`invariants      ${ledgerOk ? 'PASS' : 'FAIL'}`);
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
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    await cleanUp();
    process.exit(2);
  },
);
