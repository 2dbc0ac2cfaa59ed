import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import { customSearchAttributes } from '../api/contracts/searchAttributes';
import { freePort } from './ports';

export interface DevServerOptions {
  /** Path of the `temporal` CLI binary (see temporal/cli.mjs). */
  cliPath: string;
  /** Address to bind the frontend (and UI) to. Default 127.0.0.1. */
  ip?: string;
  /** Frontend gRPC port; 0 or undefined picks a free port. */
  port?: number;
  /** Web UI port; 0 or undefined picks a free port. Ignored when `ui` is false. */
  uiPort?: number;
  /** Serve the Web UI. Default true; false passes --headless. */
  ui?: boolean;
  /** SQLite file for durable state; omitted means in-memory (lost on exit). */
  dbFile?: string;
  /** How long to wait for the server to answer health checks. Default 120 000 ms. */
  readyTimeoutMs?: number;
  /** Progress messages (start, ready, stop). */
  log?: (msg: string) => void;
  /** Every line the server prints on stdout/stderr (it logs at warn level). Default: kept only for error reports. */
  onOutput?: (line: string) => void;
}

export interface DevServer {
  /** host:port of the frontend gRPC service, for Connection.connect / NativeConnection.connect. */
  address: string;
  /** http://host:port of the Web UI, when enabled. */
  uiUrl?: string;
  /** Process id of the server. */
  pid: number;
  /** SIGTERM, wait for exit, SIGKILL after 10 s. Safe to call more than once. */
  stop(): Promise<void>;
}

const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_LINES = 40;
const PORT_RETRIES = 3;

class EarlyExitError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Starts `temporal server start-dev` and resolves once it really serves requests: the frontend answers
 * GetSystemInfo and the custom search attributes are registered in the default namespace.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const autoPorts = !options.port || (options.ui !== false && !options.uiPort);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (err) {
      // A port picked by freePort() can be taken by someone else before the server binds it.
      const retryable = err instanceof EarlyExitError && autoPorts && attempt < PORT_RETRIES && /address already in use|bind:/i.test(err.output);
      if (!retryable) throw err;
      options.log?.(`temporal dev server: port clash, retrying (${attempt}/${PORT_RETRIES - 1})`);
    }
  }
}

async function startOnce(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? (() => undefined);
  const ip = options.ip ?? '127.0.0.1';
  const ui = options.ui ?? true;
  const port = options.port || (await freePort(ip));
  let uiPort: number | undefined;
  if (ui) {
    uiPort = options.uiPort || (await freePort(ip));
    while (uiPort === port) uiPort = await freePort(ip);
  }
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;

  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port)];
  if (ui) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (options.dbFile) {
    const dbFile = resolve(options.dbFile);
    mkdirSync(dirname(dbFile), { recursive: true });
    args.push('--db-filename', dbFile, '--sqlite-pragma', 'journal_mode=wal');
  }
  args.push('--namespace', 'default', '--log-level', 'warn');
  for (const key of customSearchAttributes) {
    args.push('--search-attribute', `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
  }

  const address = `${ip}:${port}`;
  const uiUrl = ui ? `http://${ip}:${uiPort}` : undefined;
  const started = Date.now();
  log(`temporal dev server: starting on ${address}${uiUrl ? `, UI ${uiUrl}` : ' (headless)'}${options.dbFile ? `, db ${options.dbFile}` : ', in-memory'}`);

  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const collect = (stream: NodeJS.ReadableStream) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    stream.on('end', () => {
      if (partial) onLine(partial);
      partial = '';
    });
  };
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
    options.onOutput?.(line);
  };
  collect(child.stdout!);
  collect(child.stderr!);

  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolveExit();
    });
    child.once('error', (err) => {
      spawnError = err;
      if (child.pid === undefined && !exit) {
        // The binary could not be started at all: there will be no 'exit' event.
        exit = { code: null, signal: null };
        resolveExit();
      }
    });
  });

  // Never leave an orphaned server behind if this process exits without calling stop().
  const killOnExit = () => {
    if (!exit) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  const stop = once(async () => {
    process.removeListener('exit', killOnExit);
    const wasRunning = exit === undefined && child.pid !== undefined;
    await terminate(child, exited, () => exit !== undefined);
    if (wasRunning) log(`temporal dev server: stopped (${address})`);
  });

  try {
    await waitUntilReady({
      address,
      deadline: started + readyTimeoutMs,
      hasExited: () => exit !== undefined,
      describeExit: () => {
        const how = spawnError ? `failed to start (${spawnError.message})` : `exited with ${exit?.signal ?? exit?.code}`;
        return `temporal dev server ${how} before becoming ready; last output:\n  ${tail.join('\n  ')}`;
      },
      output: () => tail.join('\n'),
      readyTimeoutMs,
    });
  } catch (err) {
    await stop();
    throw err;
  }
  log(`temporal dev server: ready on ${address} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return { address, uiUrl, pid: child.pid!, stop };
}

interface WaitOptions {
  address: string;
  deadline: number;
  readyTimeoutMs: number;
  hasExited: () => boolean;
  describeExit: () => string;
  output: () => string;
}

async function waitUntilReady(o: WaitOptions): Promise<void> {
  const wanted = customSearchAttributes.map((k) => k.name);
  let lastProblem = 'no answer yet';
  while (Date.now() < o.deadline) {
    if (o.hasExited()) throw new EarlyExitError(o.describeExit(), o.output());
    const remaining = o.deadline - Date.now();
    const perTry = Math.max(500, Math.min(5_000, remaining));
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address: o.address, connectTimeout: perTry });
      const conn = connection;
      await conn.withDeadline(Date.now() + perTry, () => conn.workflowService.getSystemInfo({}));
      const res = await conn.withDeadline(Date.now() + perTry, () => conn.operatorService.listSearchAttributes({ namespace: 'default' }));
      const registered = Object.keys(res.customAttributes ?? {});
      const missing = wanted.filter((name) => !registered.includes(name));
      if (missing.length === 0) return;
      lastProblem = `search attributes not registered yet: ${missing.join(', ')}`;
    } catch (err) {
      lastProblem = err instanceof Error ? err.message : String(err);
    } finally {
      await connection?.close().catch(() => undefined);
    }
    if (o.hasExited()) throw new EarlyExitError(o.describeExit(), o.output());
    await sleep(Math.min(250, Math.max(0, o.deadline - Date.now())));
  }
  throw new Error(
    `temporal dev server on ${o.address} was not ready after ${o.readyTimeoutMs} ms (${lastProblem}); last output:\n  ${o.output().split('\n').join('\n  ')}`,
  );
}

async function terminate(child: ChildProcess, exited: Promise<void>, hasExited: () => boolean): Promise<void> {
  if (hasExited() || child.pid === undefined) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(true), STOP_GRACE_MS);
  });
  const graceful = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (graceful && !hasExited()) {
    child.kill('SIGKILL');
    await exited;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
