import test from 'ava';
import { mysqlStore, serverConfig, temporalDatabaseUrl } from '../../../../temporal/cluster/clusterConfig';

test("the Temporal server's database is read from a mysql:// URL, credentials decoded", (t) => {
  t.deepEqual(mysqlStore('mysql://hub:p%40ss@db.example:3307/temporal'), {
    host: 'db.example',
    port: 3307,
    user: 'hub',
    password: 'p@ss',
    database: 'temporal',
  });
  t.is(mysqlStore('mysql://hub:hub@db.example/temporal').port, 3306);
});

test('a URL that is not MySQL, or names no database, is refused without showing its password', (t) => {
  const notMysql = t.throws(() => mysqlStore('postgres://hub:secret@db:5432/temporal'));
  t.false(notMysql.message.includes('secret'));
  t.throws(() => mysqlStore('mysql://hub:secret@db:3306/'), { message: /names no database/ });
});

test("without TEMPORAL_DATABASE_URL, Temporal's tables go in their own database beside the hub's", (t) => {
  t.is(temporalDatabaseUrl({ DATABASE_URL: 'mysql://hub:hub@db:3306/hub?charset=utf8mb4' }), 'mysql://hub:hub@db:3306/temporal');
  t.is(temporalDatabaseUrl({ DATABASE_URL: 'mysql://hub:hub@db:3306/hub' }, 'temporal_bench'), 'mysql://hub:hub@db:3306/temporal_bench');
  t.is(temporalDatabaseUrl({ DATABASE_URL: 'mysql://hub:hub@db:3306/hub', TEMPORAL_DATABASE_URL: 'mysql://t:t@other:3306/t' }), 'mysql://t:t@other:3306/t');
  t.throws(() => temporalDatabaseUrl({ DATABASE_URL: 'sqlite:.data/hub.sqlite' }), { message: /DATABASE_URL=mysql/ });
});

test('the server keeps its history in the shards asked for, on MySQL with an isolation setting MariaDB also accepts', (t) => {
  const config = serverConfig({
    ip: '127.0.0.1',
    ports: { frontend: 27233, frontendHttp: 27243, history: 27234, matching: 27235, worker: 27239, membership: [26933, 26934, 26935, 26939] },
    historyShards: 16,
    store: { host: 'db', port: 3306, user: 'hub', password: 'hub', database: 'temporal' },
    maxConns: 20,
    visibilityFile: '/tmp/visibility.sqlite',
    dynamicConfigFile: '/tmp/dynamicconfig.yaml',
    logLevel: 'warn',
  }) as any;
  t.is(config.persistence.numHistoryShards, 16);
  t.is(config.persistence.datastores.default.sql.pluginName, 'mysql8');
  t.deepEqual(config.persistence.datastores.default.sql.connectAttributes, { tx_isolation: "'READ-COMMITTED'" });
  t.is(config.clusterMetadata.clusterInformation.active.rpcAddress, '127.0.0.1:27233');
  t.is(config.services.history.rpc.membershipPort, 26934);
});
