// The hub's processes reach Temporal with mutual TLS when TEMPORAL_TLS_* say so. Checked against a real Temporal
// server (the one `npm run topology` runs, built from source on first use) configured as temporal/deploy/ configures
// Temporal: every port requires a client certificate from the cluster's own CA. The dev server has no TLS settings.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import test from 'ava';
import { loadConfig, repoRoot } from '../../activities/shared/platform/config';
import { temporalConnectionOptions } from '../../activities/shared/platform/tlsFiles';
import { startTemporalServer, type TemporalServer } from '../../temporal/cluster/server';
import { healthCheck } from '../../workflows';
import { TestCa, type Issued } from '../helpers/certificates';
import { testDatabaseUrl } from '../helpers/database';

let ca: TestCa;
let stranger: TestCa;
let hubCertificate: Issued;
let server: TemporalServer;
let dataDir: string;

/** The hub's TLS settings for this cluster: the client certificate its CA signed, and that CA. */
const tlsEnv = (): NodeJS.ProcessEnv => ({
  TEMPORAL_TLS_CERT_PATH: hubCertificate.certPath,
  TEMPORAL_TLS_KEY_PATH: hubCertificate.keyPath,
  TEMPORAL_TLS_CA_PATH: ca.certPath,
});
const hubEnv = (): NodeJS.ProcessEnv => ({ TEMPORAL_ADDRESS: server.address, ...tlsEnv() });

test.before(async (t) => {
  // The server is built from source the first time (a few minutes), then starts in seconds.
  t.timeout(15 * 60_000);
  [ca, stranger] = await Promise.all([TestCa.create('temporal-ca'), TestCa.create('stranger-ca')]);
  const serverCertificate = await ca.peer('temporal');
  hubCertificate = await ca.client('hub');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
  server = await startTemporalServer({
    store: { sqliteFile: path.join(dataDir, 'temporal.sqlite') },
    historyShards: 1,
    dataDir,
    tls: {
      server: { caPath: ca.certPath, certPath: serverCertificate.certPath, keyPath: serverCertificate.keyPath, serverName: 'localhost' },
      client: temporalConnectionOptions(loadConfig(tlsEnv())).tls!,
    },
    log: () => undefined,
  });
});

test.after.always(async () => {
  await server?.stop();
  ca?.remove();
  stranger?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The hub's worker process, as a deployment runs it, with `env` on top of the test's; `exited` gives its code and errors. */
function startWorkerProcess(env: NodeJS.ProcessEnv): { worker: ChildProcess; exited: Promise<string> } {
  const worker = spawn(process.execPath, [path.join(repoRoot, 'dist', 'worker', 'main.js')], {
    env: { ...process.env, DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'warn', TEMPORAL_TASK_QUEUE: `tls-${crypto.randomUUID()}`, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  worker.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return { worker, exited: new Promise((resolve) => worker.once('exit', (code) => resolve(`the worker exited with ${code}: ${errors.slice(-2000)}`))) };
}

test("a worker and a client with the hub's Temporal TLS settings run a workflow on a cluster that requires client certificates", async (t) => {
  const taskQueue = `tls-${crypto.randomUUID()}`;
  const { worker, exited } = startWorkerProcess({ ...hubEnv(), TEMPORAL_TASK_QUEUE: taskQueue });
  const connection = await Connection.connect(temporalConnectionOptions(loadConfig(hubEnv())));
  try {
    const run = new Client({ connection }).workflow.execute(healthCheck, {
      taskQueue,
      workflowId: `healthCheck/${crypto.randomUUID()}`,
      workflowExecutionTimeout: 60_000,
    });
    const outcome = await Promise.race([run.then(() => 'completed'), exited]);
    t.is(outcome, 'completed');
  } finally {
    worker.kill('SIGTERM');
    await exited;
    await connection.close();
  }
});

test('the hub refuses to start its worker without the client certificate the cluster requires', async (t) => {
  const { TEMPORAL_TLS_CERT_PATH: _cert, TEMPORAL_TLS_KEY_PATH: _key, ...withoutCertificate } = hubEnv();
  const { exited } = startWorkerProcess(withoutCertificate);
  t.regex(await exited, /^the worker exited with 1: TransportError/);
});

test('Temporal refuses a connection without a client certificate, with one from another CA, or without TLS', async (t) => {
  const serverCa = { temporalAddress: server.address, temporalTls: { caPath: ca.certPath } };
  const strangerCertificate = await stranger.client('hub');
  const refused = [
    { what: 'no client certificate', options: temporalConnectionOptions(serverCa) },
    {
      what: "another CA's certificate",
      options: temporalConnectionOptions({ ...serverCa, temporalTls: { ...serverCa.temporalTls, client: strangerCertificate } }),
    },
    { what: 'plain gRPC', options: { address: server.address } },
  ];
  for (const { what, options } of refused) {
    await t.throwsAsync(() => Connection.connect({ ...options, connectTimeout: 3_000 }), undefined, `client: ${what}`);
    await t.throwsAsync(() => NativeConnection.connect(options), undefined, `worker: ${what}`);
  }
});

test('a client certificate without its key stops the hub at start; with no TEMPORAL_TLS_* setting it speaks plain gRPC, as to the dev server', (t) => {
  t.throws(() => loadConfig({ TEMPORAL_TLS_CERT_PATH: '/etc/hub/temporal-tls/tls.crt' }), { message: /TEMPORAL_TLS_KEY_PATH/ });
  t.deepEqual(temporalConnectionOptions(loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233' })), { address: 'temporal:7233' });
  t.throws(() => temporalConnectionOptions(loadConfig({ TEMPORAL_TLS_CA_PATH: '/nonexistent/ca.crt' })), {
    message: /Temporal's server CA at \/nonexistent\/ca.crt/,
  });
});
