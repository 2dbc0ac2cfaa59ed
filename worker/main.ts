import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../activities/config';
import { CallbackSender } from '../activities/callbacks';
import { ParticipantDirectory } from '../activities/directory';
import { openHubServices } from '../activities/hub';
import { createLogger } from '../activities/logger';
import { createWorker } from './createWorker';
import { ensureSweepSchedule } from './schedules';

/** The worker process: runs the hub's workflows and activities until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('worker', config.logLevel);
  const services = await openHubServices(config);
  const directory = new ParticipantDirectory(services.db);
  const sender = new CallbackSender({ directory, log, hubId: config.hubParticipantName });
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    dependencies: { services, directory, sender, log },
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
  });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  await ensureSweepSchedule(new Client({ connection: clientConnection, namespace: config.temporalNamespace }), config.taskQueue);
  await clientConnection.close();
  log.info({ taskQueue: config.taskQueue, temporal: config.temporalAddress }, 'worker running');
  // Worker.run resolves after shutdown, which the SDK starts on SIGINT/SIGTERM once in-flight tasks drain.
  await worker.run();
  await connection.close();
  await services.db.close();
  log.info('worker stopped');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
