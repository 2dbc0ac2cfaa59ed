import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../activities/shared/platform/config';
import { openHub } from '../activities/hub/hubServices';
import { createLogger } from '../activities/shared/platform/logger';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { createWorker } from './createWorker';
import { startTracing } from '../activities/shared/platform/tracing';
import { ensureNotificationSchedule, ensureSettlementWindows, ensureSweepSchedule } from './schedules';

/** The worker process: runs the hub's workflows and activities until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const hub = await openHub({ ...config, log: createLogger('worker', config.logLevel) });
  const { log } = hub;
  const temporal = temporalConnectionOptions(config);
  const connection = await NativeConnection.connect(temporal);
  const tracing = startTracing('hub-worker');
  const worker = await createWorker({
    tracing,
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    dependencies: hub,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
    workflowStackTraces: config.workflowStackTraces,
  });
  const clientConnection = await Connection.connect(temporal);
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  await ensureSweepSchedule(client, config.taskQueue);
  await ensureSettlementWindows(client, config.taskQueue, hub.services.settlementWindows, config.settlementWindowCloseCron);
  if (config.smtp) await ensureNotificationSchedule(client, config.taskQueue);
  await clientConnection.close();
  log.info({ taskQueue: config.taskQueue, temporal: config.temporalAddress }, 'worker running');
  // Worker.run resolves after shutdown, which the SDK starts on SIGINT/SIGTERM once in-flight tasks drain.
  await worker.run();
  await connection.close();
  await hub.close();
  await tracing?.shutdown();
  log.info('worker stopped');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
