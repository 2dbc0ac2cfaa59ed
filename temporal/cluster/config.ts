// The configuration of a Temporal server run by this project (temporal/cluster/server.ts): every service in one
// process, history sharded, the default store on MySQL or MariaDB, visibility on a SQLite file beside it.
//
// Temporal's MySQL visibility schema needs MySQL 8's JSON operators and multi-valued indexes, which MariaDB lacks;
// Temporal allows the visibility store to differ from the default one, and visibility holds only the list of
// conversations the UI and the hub's search attributes read, not the histories. On MySQL 8 both can be MySQL
// (temporal/deploy/ does so). JSON is valid YAML, so the file is written as JSON.

export interface MysqlStore {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  history: number;
  matching: number;
  worker: number;
  /** Membership (ringpop) port of each service, in the order frontend, history, matching, worker. */
  membership: [number, number, number, number];
}

export interface ServerConfigOptions {
  ip: string;
  ports: ServerPorts;
  /** Fixed for the life of a cluster: Temporal refuses to start on a database set up with another count. */
  historyShards: number;
  store: MysqlStore;
  /** Connections each service opens to the default store. */
  maxConns: number;
  visibilityFile: string;
  dynamicConfigFile: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * Connection settings for MariaDB as well as MySQL: Temporal sets `transaction_isolation`, a name MariaDB knows only
 * from 11.1, unless the older `tx_isolation` is given, which both accept.
 */
export const MYSQL_CONNECT_ATTRIBUTES = { tx_isolation: "'READ-COMMITTED'" };

export function serverConfig(o: ServerConfigOptions): object {
  const rpc = (grpcPort: number, membershipPort: number, extra: object = {}) => ({ rpc: { grpcPort, membershipPort, bindOnIP: o.ip, ...extra } });
  const [frontendRing, historyRing, matchingRing, workerRing] = o.ports.membership;
  const frontendAddress = `${o.ip}:${o.ports.frontend}`;
  return {
    log: { stdout: true, level: o.logLevel },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: o.historyShards,
      datastores: {
        default: {
          sql: {
            pluginName: 'mysql8',
            databaseName: o.store.database,
            connectAddr: `${o.store.host}:${o.store.port}`,
            connectProtocol: 'tcp',
            user: o.store.user,
            password: o.store.password,
            connectAttributes: MYSQL_CONNECT_ATTRIBUTES,
            maxConns: o.maxConns,
            maxIdleConns: o.maxConns,
            maxConnLifetime: '1h',
          },
        },
        visibility: {
          sql: {
            pluginName: 'sqlite',
            databaseName: o.visibilityFile,
            connectAddr: 'localhost',
            connectProtocol: 'tcp',
            // `setup` creates the visibility schema in a new file.
            connectAttributes: { cache: 'private', setup: 'true', journal_mode: 'wal', synchronous: '1' },
            maxConns: 1,
            maxIdleConns: 1,
            maxConnLifetime: '1h',
          },
        },
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: o.ip } },
    services: {
      frontend: rpc(o.ports.frontend, frontendRing, { httpPort: o.ports.frontendHttp }),
      history: rpc(o.ports.history, historyRing),
      matching: rpc(o.ports.matching, matchingRing),
      worker: rpc(o.ports.worker, workerRing),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: frontendAddress, httpAddress: `${o.ip}:${o.ports.frontendHttp}` },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: o.dynamicConfigFile, pollInterval: '60s' },
  };
}

/**
 * Dynamic configuration: what the dev server turns on that the hub's connectors rely on: updates, and
 * update-with-start (a multi-operation).
 */
export function dynamicConfig(): object {
  const on = [{ value: true, constraints: {} }];
  return {
    'frontend.enableUpdateWorkflowExecution': on,
    'frontend.enableExecuteMultiOperation': on,
  };
}

/** A `mysql://user:password@host:port/database` URL (the hub's DATABASE_URL form) as a store. */
export function mysqlStore(url: string): MysqlStore {
  const parsed = new URL(url);
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') throw new Error(`not a mysql:// URL: ${url.replace(/:[^:@/]*@/, ':***@')}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) throw new Error('the Temporal database URL names no database (mysql://user:password@host:port/temporal)');
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
  };
}

/**
 * Where Temporal keeps its state: TEMPORAL_DATABASE_URL, or else database `database` on the hub's own MySQL server
 * with the hub's credentials (DATABASE_URL).
 */
export function temporalDatabaseUrl(env: NodeJS.ProcessEnv, database = 'temporal'): string {
  if (env.TEMPORAL_DATABASE_URL) return env.TEMPORAL_DATABASE_URL;
  const hub = env.DATABASE_URL ?? '';
  if (!/^(mysql|mariadb):/.test(hub))
    throw new Error('set DATABASE_URL=mysql://user:password@host:port/hub (and TEMPORAL_DATABASE_URL if Temporal has its own server)');
  const url = new URL(hub);
  url.pathname = `/${database}`;
  url.search = '';
  return url.toString();
}
