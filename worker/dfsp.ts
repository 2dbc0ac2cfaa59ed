import { loadConnectorConfig } from '../activities/connector/config';
import { simulatedBackends } from '../activities/dfsp/backend/simulated';
import { SimulatedBank } from '../activities/dfsp/backend/simulatedBank';
import { createLogger } from '../activities/platform/logger';
import { startDfspConnector } from '../api/dfsp/connector';

/**
 * `npm run dfsp`: a DFSP connector process (DFSP_ID, PEER_ENDPOINT, INBOUND_LISTEN_PORT, OUTBOUND_LISTEN_PORT, …; see
 * activities/connector/config.ts) over the built-in simulated bank. Runs until SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConnectorConfig('dfsp');
  const log = createLogger(`dfsp ${config.participantId}`, config.logLevel);
  const connector = await startDfspConnector(config, log, simulatedBackends(new SimulatedBank(config.participantId)), process.env.WORKFLOW_BUNDLE);
  const stop = () => void connector.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
