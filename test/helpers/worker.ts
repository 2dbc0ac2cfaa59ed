import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import pino from 'pino';
import { ensureNamespace } from '../../temporal/namespaces';
import type { ActivityDependencies } from '../../activities';
import type { HubConfig, JwsConfig, TlsConfig } from '../../activities/platform/config';
import { openHub, Hub } from '../../activities/hub/services';
import { createWorker } from '../../worker/createWorker';
import { testDatabaseUrl } from './database';

/** The Temporal dev server that `npm test` started for this run (test/run.ts). */
export function temporalAddress(): string {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEMPORAL_ADDRESS is not set: run the suite with `npm test`, which starts a Temporal dev server');
  return address;
}

export interface WorkerHarness {
  client: Client;
  taskQueue: string;
  /** Absent when the worker runs in a process of its own (see `connectClient`). */
  worker?: Worker;
  close(): Promise<void>;
}

/** A client for a task queue whose worker runs elsewhere (a separate worker process). */
export async function connectClient(taskQueue: string, namespace = 'default'): Promise<WorkerHarness> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return { client: new Client({ connection, namespace }), taskQueue, close: () => connection.close() };
}

/**
 * A production-wired worker on the real dev server, on a task queue of its own so test files running
 * in parallel never take each other's tasks.
 */
let runtimeInstalled = false;

/**
 * The hub as tests wire it: the test database, no caching of participants, deliveries that give up after 5 s; with
 * `tls`, its client certificate for participants' HTTPS endpoints; with `jws`, its signature settings.
 */
export function openTestHub(
  hubParticipantName: string,
  databaseUrl = testDatabaseUrl(),
  security: { tls?: TlsConfig; jws?: JwsConfig; smtp?: HubConfig['smtp'] } = {},
): Promise<Hub> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });
  return openHub({ databaseUrl, hubParticipantName, log, directoryTtlMs: 0, deliveryTimeoutMs: 5_000, ...security });
}

/**
 * `taskQueue` names one shared with a client started before (`connectClient`), for a test that stops and restarts its
 * worker; `namespace` one of the test's own (created here), for workflows whose IDs its database numbers (settlement).
 */
export async function startWorker(
  dependencies: ActivityDependencies,
  taskQueue = `test-${crypto.randomUUID()}`,
  namespace = 'default',
): Promise<WorkerHarness> {
  if (!runtimeInstalled) {
    // Business rejections (limits, expiries) are expected in tests; keep the SDK's log to real errors.
    Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'ERROR') || 'ERROR') });
    runtimeInstalled = true;
  }
  const address = temporalAddress();
  if (namespace !== 'default') await ensureNamespace({ address }, namespace);
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await createWorker({
    connection: nativeConnection,
    namespace,
    taskQueue,
    dependencies,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  return {
    client,
    taskQueue,
    worker,
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
      await nativeConnection.close();
    },
  };
}
