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

/** A store in one SQLite file, its schema created by the server: a cluster's configuration tried without a database server. */
export interface SqliteStore {
  sqliteFile: string;
}

/**
 * Mutual TLS on every gRPC port, as temporal/deploy/ configures Temporal: clients and the server's own services alike
 * must show a certificate the CA signed, so a process without one cannot signal a workflow.
 */
export interface ServerTls {
  /** The CA that signs the server's certificate and every client's. */
  caPath: string;
  /** The server's certificate (usable for both server and client authentication: its services call each other) and key. */
  certPath: string;
  keyPath: string;
  /** A name the server's certificate carries, which its services check when they call each other. */
  serverName: string;
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
  store: MysqlStore | SqliteStore;
  /** Connections each service opens to the default store. */
  maxConns: number;
  visibilityFile: string;
  dynamicConfigFile: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  tls?: ServerTls;
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
        default: 'sqliteFile' in o.store ? sqliteStore(o.store.sqliteFile) : mysqlStoreConfig(o.store, o.maxConns),
        visibility: sqliteStore(o.visibilityFile),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: o.ip }, ...(o.tls ? { tls: mutualTls(o.tls) } : {}) },
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

function mysqlStoreConfig(store: MysqlStore, maxConns: number): object {
  return {
    sql: {
      pluginName: 'mysql8',
      databaseName: store.database,
      connectAddr: `${store.host}:${store.port}`,
      connectProtocol: 'tcp',
      user: store.user,
      password: store.password,
      connectAttributes: MYSQL_CONNECT_ATTRIBUTES,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

function sqliteStore(file: string): object {
  return {
    sql: {
      pluginName: 'sqlite',
      databaseName: file,
      connectAddr: 'localhost',
      connectProtocol: 'tcp',
      // `setup` creates the schema in a new file.
      connectAttributes: { cache: 'private', setup: 'true', journal_mode: 'wal', synchronous: '1' },
      maxConns: 1,
      maxIdleConns: 1,
      maxConnLifetime: '1h',
    },
  };
}

/** Temporal's `global.tls`: the frontend and the internal services each require a client certificate from the CA. */
function mutualTls(t: ServerTls): object {
  const server = { certFile: t.certPath, keyFile: t.keyPath, requireClientAuth: true, clientCaFiles: [t.caPath] };
  const client = { serverName: t.serverName, rootCaFiles: [t.caPath] };
  return { internode: { server, client }, frontend: { server, client } };
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
