import { spawn, type ChildProcess } from 'node:child_process';
import { Connection, type TLSConfig } from '@temporalio/client';
import { customSearchAttributes } from '../activities/shared/contracts/searchAttributes';

/** A Temporal server process this project started: the dev server or a cluster's server. */
export interface TemporalProcess {
  /** host:port of the frontend gRPC service, for Connection.connect / NativeConnection.connect. */
  address: string;
  /** Process id of the server. */
  pid: number;
  /** SIGTERM, wait for exit, SIGKILL after 10 s. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** What the messages call it ("temporal dev server", "temporal server"). */
  what: string;
  command: string;
  args: string[];
  /** host:port of its frontend. */
  address: string;
  /** What to show and trust at its frontend when it requires TLS. */
  tls?: TLSConfig;
  readyTimeoutMs: number;
  /** Extra work once the frontend answers (a namespace to create), before readiness is checked. */
  prepare?: (address: string) => Promise<void>;
  onOutput?: (line: string) => void;
}

const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_LINES = 40;

/** Calls `onLine` with each line a process writes to `stream`, the last one too when it ends without a newline. */
export function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
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
}

/** The process exited before it served: `output` is its last lines, for a caller that retries on a port clash. */
export class EarlyExitError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Spawns a Temporal server and resolves once it really serves requests: the frontend answers GetSystemInfo and the
 * hub's custom search attributes are registered in the default namespace. The process is killed if this one exits
 * without stopping it.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<TemporalProcess> {
  const { what, address } = options;
  const started = Date.now();
  const child = spawn(options.command, options.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
    options.onOutput?.(line);
  };
  for (const stream of [child.stdout!, child.stderr!]) eachLine(stream, onLine);

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

  const killOnExit = () => {
    if (!exit) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      await terminate(child, exited, () => exit !== undefined);
    })());

  const hasExited = () => exit !== undefined;
  const output = () => tail.join('\n');
  const exitError = () => {
    const how = spawnError ? `failed to start (${spawnError.message})` : `exited with ${exit?.signal ?? exit?.code}`;
    return new EarlyExitError(`${what} ${how} before becoming ready; last output:\n  ${tail.join('\n  ')}`, output());
  };
  try {
    await waitUntilServing({ ...options, deadline: started + options.readyTimeoutMs, hasExited, exitError, output });
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, pid: child.pid!, stop };
}

interface WaitOptions extends ServerProcessOptions {
  deadline: number;
  hasExited: () => boolean;
  exitError: () => EarlyExitError;
  output: () => string;
}

async function waitUntilServing(o: WaitOptions): Promise<void> {
  const wanted = customSearchAttributes.map((k) => k.name);
  let prepared = !o.prepare;
  let lastProblem = 'no answer yet';
  while (Date.now() < o.deadline) {
    if (o.hasExited()) throw o.exitError();
    const perTry = Math.max(500, Math.min(5_000, o.deadline - Date.now()));
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address: o.address, tls: o.tls, connectTimeout: perTry });
      const conn = connection;
      await conn.withDeadline(Date.now() + perTry, () => conn.workflowService.getSystemInfo({}));
      if (!prepared) {
        await o.prepare!(o.address);
        prepared = true;
      }
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
    if (o.hasExited()) throw o.exitError();
    await sleep(Math.min(250, Math.max(0, o.deadline - Date.now())));
  }
  throw new Error(
    `${o.what} on ${o.address} was not ready after ${o.readyTimeoutMs} ms (${lastProblem}); last output:\n  ${o.output().split('\n').join('\n  ')}`,
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

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
