import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../activities/shared/platform/config';
import { openHub } from '../activities/hub/hubServices';
import { createLogger } from '../activities/shared/platform/logger';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { startTracing } from '../activities/shared/platform/tracing';
import { startHubWorker } from './hubWorker';

/** The worker process: runs the hub's workflows and activities until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const hub = await openHub({ ...config, log: createLogger('worker', config.logLevel) });
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const tracing = startTracing('hub-worker');
  const worker = await startHubWorker({ config, hub, connection, tracing });
  await worker.run();
  await connection.close();
  await hub.close();
  await tracing?.shutdown();
  hub.log.info('worker stopped');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
