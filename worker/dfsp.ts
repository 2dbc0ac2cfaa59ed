import { loadConnectorConfig } from '../activities/connector/connectorConfig';
import { CoreBankingClient } from '../activities/dfsp/backend/coreBankingClient';
import { simulatedBackends } from '../activities/dfsp/simulator/simulated';
import { sampleCustomers, SimulatedBank } from '../activities/dfsp/simulator/simulatedBank';
import type { DfspBackends } from '../activities/dfsp/dependencies';
import { createLogger } from '../activities/shared/platform/logger';
import { startDfspConnector } from './dfspConnector';

/**
 * The bank's systems the connector runs against: the built-in simulated bank, or — with BACKEND_ENDPOINT — the
 * bank's own core-banking adapter for the FSPIOP roles (the sdk-scheme-adapter's backend API), the third-party
 * role staying on the simulator.
 */
export function backendsFor(participantId: string, loginPage: string, env: NodeJS.ProcessEnv = process.env): DfspBackends {
  const customers = sampleCustomers(participantId, env.SIMULATOR_CURRENCY || 'USD', env.SIMULATOR_MSISDN_PREFIX || undefined);
  const simulated = simulatedBackends(new SimulatedBank(participantId, customers), loginPage);
  return env.BACKEND_ENDPOINT ? { ...simulated, coreBanking: new CoreBankingClient(env.BACKEND_ENDPOINT) } : simulated;
}

/**
 * `npm run dfsp`: a DFSP connector process (DFSP_ID, PEER_ENDPOINT, INBOUND_LISTEN_PORT, OUTBOUND_LISTEN_PORT,
 * BACKEND_ENDPOINT, ILP_SECRET, …; see activities/connector/connectorConfig.ts) over the built-in simulated bank
 * (SIMULATOR_CURRENCY, SIMULATOR_MSISDN_PREFIX for its customers) unless BACKEND_ENDPOINT names a real one. Runs until SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConnectorConfig('dfsp');
  const log = createLogger(`dfsp ${config.participantId}`, config.logLevel);
  if (!config.ilpSecret) log.warn('ILP_SECRET is not set: the fulfilments of this DFSP’s quotes use a development secret anyone can know');
  if (process.env.BACKEND_ENDPOINT) log.info({ backend: process.env.BACKEND_ENDPOINT }, 'core banking at BACKEND_ENDPOINT');
  // The simulated bank's user pages only where the whole bank is simulated: they hand anyone a user's OTP.
  const simulatorPages = !process.env.BACKEND_ENDPOINT;
  if (simulatorPages) log.warn('simulated bank: its user pages (/simulator/…) on the outbound port let anyone act as its users; for demos and tests only');
  const connector = await startDfspConnector(config, log, backendsFor(config.participantId, `http://${config.host}:${config.outboundPort}/simulator/login`), {
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
    simulatorPages,
  });
  const stop = () => void connector.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
