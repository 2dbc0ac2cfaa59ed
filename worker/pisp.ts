import { loadPispConfig } from '../activities/pisp/pispConfig';
import { createLogger } from '../activities/shared/platform/logger';
import { startPispConnector } from './pispConnector';

/**
 * `npm run pisp`: a PISP connector process (DFSP_ID, PEER_ENDPOINT, INBOUND_LISTEN_PORT, OUTBOUND_LISTEN_PORT,
 * GENERIC_KEY_SECRET, …; see activities/connector/connectorConfig.ts and activities/pisp/pispConfig.ts). Runs until SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadPispConfig();
  const log = createLogger(`pisp ${config.participantId}`, config.logLevel);
  const connector = await startPispConnector(config, log, process.env.WORKFLOW_BUNDLE);
  const stop = () => void connector.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
