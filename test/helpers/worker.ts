import type { Tracing } from '../../activities/shared/platform/tracing';
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { ensureNamespace } from '../../temporal/namespaces';
import type { ActivityDependencies } from '../../activities';
import type { HubConfig, JwsConfig, TlsConfig } from '../../activities/shared/platform/config';
import { openHub, Hub } from '../../activities/hub/hubServices';
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

let runtimeInstalled = false;

/** Business rejections (limits, expiries) are expected in tests; the SDK's log keeps to real errors. Before any connection. */
export function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  const level = (process.env.TEMPORAL_LOG_LEVEL as 'ERROR') || 'ERROR';
  Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level } } } });
  runtimeInstalled = true;
}

/**
 * The hub as tests wire it: the test database, no caching of participants, deliveries that give up after 5 s; with
 * `tls`, its client certificate for participants' HTTPS endpoints; with `jws`, its signature settings.
 */
export function openTestHub(
  hubParticipantName: string,
  databaseUrl = testDatabaseUrl(),
  security: { tls?: TlsConfig; jws?: JwsConfig; smtp?: HubConfig['smtp']; apiType?: HubConfig['apiType'] } = {},
): Promise<Hub> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });
  return openHub({ databaseUrl, hubParticipantName, log, directoryTtlMs: 0, deliveryTimeoutMs: 5_000, ...security });
}

export interface WorkerOptions {
  /** One shared with a client started before (`connectClient`), for a test that stops and restarts its worker. */
  taskQueue?: string;
  /** One of the test's own (created here), for workflows whose IDs its database numbers (settlement). */
  namespace?: string;
  /** Temporal's time-skipping test server instead of the run's dev server (test/helpers/timeSkipping.ts). */
  timeSkipping?: TestWorkflowEnvironment;
  /** OpenTelemetry tracing, as a worker and a gateway wire it where it is configured. */
  tracing?: Tracing;
}

/**
 * A production-wired worker on the real dev server, on a task queue of its own so test files running
 * in parallel never take each other's tasks.
 */
export async function startWorker(
  dependencies: ActivityDependencies,
  { taskQueue = `test-${crypto.randomUUID()}`, namespace = 'default', timeSkipping, tracing }: WorkerOptions = {},
): Promise<WorkerHarness> {
  quietTemporalRuntime();
  if (timeSkipping) {
    const worker = await createProductionWorker(timeSkipping.nativeConnection, namespace, taskQueue, dependencies, tracing);
    const running = worker.run();
    return {
      client: timeSkipping.client,
      taskQueue,
      worker,
      async close() {
        worker.shutdown();
        await running;
      },
    };
  }
  const address = temporalAddress();
  if (namespace !== 'default') await ensureNamespace({ address }, namespace);
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await createProductionWorker(nativeConnection, namespace, taskQueue, dependencies, tracing);
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, interceptors: tracing?.clientInterceptors });
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

function createProductionWorker(
  connection: NativeConnection,
  namespace: string,
  taskQueue: string,
  dependencies: ActivityDependencies,
  tracing?: Tracing,
): Promise<Worker> {
  return createWorker({ connection, namespace, taskQueue, dependencies, workflowBundlePath: process.env.WORKFLOW_BUNDLE, tracing });
}
