import fs from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import path from 'node:path';
import { ensureNamespace } from '../namespaces';
import { freePortBetween } from '../ports';
import { startServerProcess, type TemporalProcess } from '../serverProcess';
import { dynamicConfig, MYSQL_CONNECT_ATTRIBUTES, serverConfig, type MysqlStore, type ServerPorts, type ServerTls, type SqliteStore } from './clusterConfig';
import { temporalServerBinaries, type ServerBinaries } from './install';
import { runQuietly } from './run';

type Log = (message: string) => void;

export interface TemporalServerOptions {
  store: MysqlStore | SqliteStore;
  historyShards: number;
  /** Where the configuration, the visibility file and the server's log go. */
  dataDir: string;
  ip?: string;
  /** Frontend port; a free one when omitted. */
  port?: number;
  /** Drop the database's tables and set the schema up afresh (the shard count can only change this way). */
  fresh?: boolean;
  maxConns?: number;
  /** Mutual TLS on every port, and the client certificate this process shows to check that the server is ready. */
  tls?: { server: ServerTls; client: TLSConfig };
  log: Log;
}

export interface TemporalServer extends TemporalProcess {
  /** The server's own log (it writes warnings and errors). */
  logFile: string;
}

/**
 * A Temporal server, not the dev server: its schema created or migrated on MySQL/MariaDB by temporal-sql-tool, its
 * configuration written to `dataDir`, and the process started and waited for, with namespace `default` and the hub's
 * search attributes registered as an operator would.
 */
export async function startTemporalServer(options: TemporalServerOptions): Promise<TemporalServer> {
  const { log, store } = options;
  const ip = options.ip ?? '127.0.0.1';
  const binaries = await temporalServerBinaries(log);
  const started = Date.now();
  // A SQLite store's schema is created by the server itself.
  if (!('sqliteFile' in store)) await prepareSchema(binaries, store, options.fresh ?? false, log);

  const ports = await freePorts(ip, 9, options.port);
  const serverPorts: ServerPorts = {
    frontend: ports[0],
    frontendHttp: ports[1],
    history: ports[2],
    matching: ports[3],
    worker: ports[4],
    membership: [ports[5], ports[6], ports[7], ports[8]],
  };
  const configDir = path.join(options.dataDir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  const dynamicConfigFile = path.join(options.dataDir, 'dynamicconfig.yaml');
  fs.writeFileSync(dynamicConfigFile, JSON.stringify(dynamicConfig(), null, 2));
  const config = serverConfig({
    ip,
    ports: serverPorts,
    historyShards: options.historyShards,
    store,
    maxConns: options.maxConns ?? 20,
    visibilityFile: path.join(options.dataDir, 'visibility.sqlite'),
    dynamicConfigFile,
    logLevel: 'warn',
    tls: options.tls?.server,
  });
  fs.writeFileSync(path.join(configDir, 'production.yaml'), JSON.stringify(config, null, 2));

  const address = `${ip}:${serverPorts.frontend}`;
  const logFile = path.join(options.dataDir, 'temporal-server.log');
  const out = fs.createWriteStream(logFile);
  const where = 'sqliteFile' in store ? store.sqliteFile : `${store.host}:${store.port}/${store.database}`;
  log(`temporal server: starting on ${address}, ${options.historyShards} history shards, store ${where}${options.tls ? ', mutual TLS' : ''}`);
  const server = await startServerProcess({
    what: 'temporal server',
    command: binaries.server,
    args: ['--root', options.dataDir, '--config', 'config', '--env', 'production', '--allow-no-auth', 'start'],
    address,
    tls: options.tls?.client,
    readyTimeoutMs: 120_000,
    prepare: (frontend) => ensureNamespace({ address: frontend, tls: options.tls?.client }, 'default'),
    onOutput: (line) => out.write(`${line}\n`),
  });
  log(`temporal server: ready on ${address} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    ...server,
    logFile,
    stop: async () => {
      await server.stop();
      out.end();
    },
  };
}

/** Creates the database if need be and brings its schema to the server's version (idempotent). */
async function prepareSchema(binaries: ServerBinaries, store: MysqlStore, fresh: boolean, log: Log): Promise<void> {
  const common = [
    '--endpoint',
    store.host,
    '--port',
    String(store.port),
    '--user',
    store.user,
    '--password',
    store.password,
    '--plugin',
    'mysql8',
    '--database',
    store.database,
    '--connect-attributes',
    Object.entries(MYSQL_CONNECT_ATTRIBUTES)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
  ];
  const tool = (command: string, ...args: string[]) => runQuietly(`temporal-sql-tool ${command}`, binaries.sqlTool, [...common, command, ...args]);
  await tool('create-database');
  // Version 0.0 is the empty schema; setting it up on a database that already has tables fails unless they are
  // dropped first, which only a fresh start asks for.
  const setUp = await tool('setup-schema', '--version', '0.0', ...(fresh ? ['--overwrite'] : [])).then(
    () => true,
    (error: Error) => {
      if (fresh || !/already exists/i.test(error.message)) throw error;
      return false;
    },
  );
  await tool('update-schema', '--schema-name', 'mysql/v8/temporal');
  log(`temporal server: schema ${setUp ? 'set up' : 'up to date'} in ${store.database}`);
}

/**
 * `count` distinct free ports, the first one `first` when given. Temporal records each service's ports in a signed
 * 16-bit column, so they are taken below the OS's ephemeral range.
 */
async function freePorts(ip: string, count: number, first?: number): Promise<number[]> {
  const ports = first ? [first] : [];
  while (ports.length < count) {
    const port = await freePortBetween(ip, 20_000, 32_767);
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}
