import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SearchAttributeType } from '@temporalio/common';
import { customSearchAttributes } from '../activities/shared/contracts/searchAttributes';
import { freePort } from './ports';
import { EarlyExitError, startServerProcess, type TemporalProcess } from './serverProcess';

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

export interface DevServer extends TemporalProcess {
  /** http://host:port of the Web UI, when enabled. */
  uiUrl?: string;
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

const PORT_RETRIES = 3;

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

  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port)];
  if (ui) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (options.dbFile) {
    const dbFile = resolve(options.dbFile);
    mkdirSync(dirname(dbFile), { recursive: true });
    // SQLite's default synchronous=FULL stays: every commit is on disk before it is answered. NORMAL gained nothing the
    // bench could tell from its run-to-run spread (docs/benchmarks.md, The dev server's settings).
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

  const server = await startServerProcess({
    what: 'temporal dev server',
    command: options.cliPath,
    args,
    address,
    readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
    onOutput: options.onOutput,
  });
  log(`temporal dev server: ready on ${address} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  let stopped: Promise<void> | undefined;
  return {
    ...server,
    uiUrl,
    stop: () => (stopped ??= server.stop().then(() => log(`temporal dev server: stopped (${address})`))),
  };
}
