import { NativeConnection } from '@temporalio/worker';
import { exposureProblem, loadConfig } from '../activities/shared/platform/config';
import { openHub } from '../activities/hub/hubServices';
import { createLogger } from '../activities/shared/platform/logger';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { startTracing } from '../activities/shared/platform/tracing';
import { startGateways, warnOfUnnamedTokens } from '../api/gateways';
import { startHubWorker } from './hubWorker';

/**
 * The whole hub in one process (`npm start`, `npm run hub`): the worker and both gateways on one hub's services and
 * one NativeConnection, so a conversation the switch starts runs its first workflow task here without a poll (eager
 * start). On SIGINT/SIGTERM the gateways stop accepting, the worker drains (the SDK stops it on those signals), and
 * then the connection and the hub close. Copies of the gateway (GATEWAY_PROCESSES) need the worker and gateway
 * processes apart (dist/worker/main.js, dist/api/main.js).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const exposed = exposureProblem(config);
  if (exposed) throw new Error(exposed);
  if (config.gatewayProcesses > 1) {
    throw new Error(
      `GATEWAY_PROCESSES=${config.gatewayProcesses}: the one-process hub runs one gateway; run the worker and the gateway apart (npm run worker, npm run gateway) for copies of the gateway`,
    );
  }
  const hub = await openHub({ ...config, log: createLogger('hub', config.logLevel) });
  warnOfUnnamedTokens(config, hub.log);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const tracing = startTracing('hub');
  const worker = await startHubWorker({ config, hub, connection, tracing });
  // Polling before the gateways accept: a start's eager task needs a worker to hand it to.
  const running = worker.run();
  let stopGateways: () => Promise<void>;
  try {
    stopGateways = await startGateways({ config, hub, connection, eagerStart: true, tracing });
  } catch (error) {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => undefined);
    throw error;
  }
  let gatewaysStopped: Promise<void> | undefined;
  const stopAccepting = () => (gatewaysStopped ??= stopGateways());
  process.once('SIGINT', () => void stopAccepting());
  process.once('SIGTERM', () => void stopAccepting());
  try {
    await running;
  } finally {
    await stopAccepting();
    await connection.close();
    await hub.close();
    await tracing?.shutdown();
    hub.log.info('hub stopped');
  }
}

main().then(
  // Everything of the hub is closed by now; an idle keep-alive socket left in some client's pool must not hold the exit.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
