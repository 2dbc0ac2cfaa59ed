import { Connection } from '@temporalio/client';
import { exposureProblem, loadConfig } from '../activities/shared/platform/config';
import { openHub } from '../activities/hub/hubServices';
import { createLogger } from '../activities/shared/platform/logger';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { superviseCopies } from './superviseCopies';
import { startTracing } from '../activities/shared/platform/tracing';
import { startGateways, warnOfUnnamedTokens } from './gateways';

/** The gateway process: the FSPIOP switch and the hub admin API, each on its own port (GATEWAY_PROCESSES copies). */
async function main(): Promise<void> {
  const config = loadConfig();
  const exposed = exposureProblem(config);
  if (exposed) throw new Error(exposed);
  if (superviseCopies(config.gatewayProcesses, createLogger('gateway', config.logLevel))) return;
  const hub = await openHub({ ...config, log: createLogger('gateway', config.logLevel) });
  warnOfUnnamedTokens(config, hub.log);
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const tracing = startTracing('hub-gateway');
  // Its client's connection is no worker's: workflows start on a worker's poll.
  const stopGateways = await startGateways({ config, hub, connection, eagerStart: false, tracing });
  const stop = async () => {
    await stopGateways();
    await connection.close();
    await hub.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
