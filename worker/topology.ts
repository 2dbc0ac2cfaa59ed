import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig, repoRoot } from '../activities/shared/platform/config';
import { openDatabase } from '../activities/hub/db/database';
import { mysqlStore, temporalDatabaseUrl } from '../temporal/cluster/clusterConfig';
import { startTemporalServer, type TemporalServer } from '../temporal/cluster/server';
import { stopTogether } from './children';
import { waitUntilLaunched } from './readiness';

/**
 * `npm run topology`: the hub as it runs beyond one process, on this machine. A Temporal server (not the dev
 * server) with its history in shards on MySQL/MariaDB, the hub's database on the same server, two worker processes on
 * one task queue, and two gateway processes sharing the switch and admin ports (GATEWAY_PROCESSES). Each part is the
 * one a deployment runs on its own machines (temporal/deploy/). Ctrl-C stops it all.
 *
 *   DATABASE_URL=mysql://hub:hub@127.0.0.1:3306/hub npm run topology [-- --workers 2 --gateways 2 --shards 4 --fresh]
 *
 * TEMPORAL_DATABASE_URL says where Temporal's tables go (default: database `temporal` beside the hub's).
 */
const log = (message: string) => process.stderr.write(`topology: ${message}\n`);

export interface TopologyOptions {
  workers: number;
  gateways: number;
  historyShards: number;
  /** Drop Temporal's tables first: the only way to change the shard count. */
  fresh: boolean;
}

const USAGE = 'usage: npm run topology [-- --workers N --gateways N --shards N --fresh]';

function parseOptions(argv: string[]): TopologyOptions {
  const options: TopologyOptions = { workers: 2, gateways: 2, historyShards: 4, fresh: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--fresh') {
      options.fresh = true;
      continue;
    }
    const key = ({ '--workers': 'workers', '--gateways': 'gateways', '--shards': 'historyShards' } as const)[arg];
    const value = Number(argv[++i]);
    if (!key || !Number.isInteger(value) || value < 1) throw new Error(`bad argument ${arg} ${argv[i] ?? ''}\n${USAGE}`);
    options[key] = value;
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const config = loadConfig();
  if (!/^(mysql|mariadb):/.test(config.databaseUrl)) throw new Error(`the topology keeps the hub on MySQL/MariaDB: set DATABASE_URL=mysql://…\n${USAGE}`);
  const temporal: TemporalServer = await startTemporalServer({
    store: mysqlStore(temporalDatabaseUrl(process.env)),
    historyShards: options.historyShards,
    dataDir: path.join(repoRoot, '.data', 'cluster'),
    port: Number(process.env.TEMPORAL_PORT || 7233),
    fresh: options.fresh,
    log,
  });
  // Migrated once here: the processes below would otherwise race to do it.
  await (await openDatabase(config.databaseUrl, config.hubParticipantName)).close();

  const env = { ...process.env, TEMPORAL_ADDRESS: temporal.address, GATEWAY_PROCESSES: String(options.gateways) };
  const entries = [...Array.from({ length: options.workers }, () => 'worker/main.js'), 'api/main.js'];
  const children: ChildProcess[] = entries.map((entry) => spawn(process.execPath, [path.join(repoRoot, 'dist', entry)], { env, stdio: 'inherit' }));
  const stopping = stopTogether(children, temporal, log);

  await waitUntilLaunched(config, `http://${config.host}:${config.adminPort}/health`, temporal.address, stopping);
  const lines = [
    `ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  switch API   http://${config.host}:${config.switchPort}   (${options.gateways} gateway processes)`,
    `  admin API    http://${config.host}:${config.adminPort}`,
    `  Temporal     ${temporal.address}   (temporal-server, ${options.historyShards} history shards; log ${temporal.logFile})`,
    `  workers      ${options.workers} processes on task queue ${config.taskQueue}`,
    '  Ctrl-C stops everything',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
