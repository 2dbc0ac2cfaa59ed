import { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { HubConfig } from '../activities/shared/platform/config';
import type { Hub } from '../activities/hub/hubServices';
import type { Tracing } from '../activities/shared/platform/tracing';
import { createWorker } from './createWorker';
import { ensureLedgerCheckSchedule, ensureNotificationSchedule, ensureSettlementWindows, ensureSweepSchedule } from './schedules';

export interface HubWorkerOptions {
  config: HubConfig;
  hub: Hub;
  connection: NativeConnection;
  tracing?: Tracing;
}

/**
 * The hub's worker, ready to run: its workflows and activities on the hub's task queue, and the schedules it keeps
 * (the sweep, the settlement windows' closing, the notifications, the ledger check) created or brought up to date. `run()` resolves
 * after shutdown, which the SDK starts on SIGINT/SIGTERM and completes once in-flight tasks drain.
 */
export async function startHubWorker({ config, hub, connection, tracing }: HubWorkerOptions): Promise<Worker> {
  const worker = await createWorker({
    tracing,
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    dependencies: hub,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
    workflowStackTraces: config.workflowStackTraces,
    workflowCacheSize: config.workflowCacheSize,
  });
  const client = new Client({ connection, namespace: config.temporalNamespace });
  await ensureSweepSchedule(client, config.taskQueue);
  await ensureSettlementWindows(client, config.taskQueue, hub.services.settlementWindows, config.settlementWindowCloseCron);
  if (config.smtp) await ensureNotificationSchedule(client, config.taskQueue);
  await ensureLedgerCheckSchedule(client, config.taskQueue, config.ledgerCheckInterval);
  hub.log.info({ taskQueue: config.taskQueue, temporal: config.temporalAddress }, 'worker running');
  return worker;
}
