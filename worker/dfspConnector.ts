import type { Logger } from 'pino';
import type { ConnectorConfig } from '../activities/connector/connectorConfig';
import { PeerSender } from '../activities/connector/peerSender';
import type { DfspBackends } from '../activities/dfsp/dependencies';
import { createDfspActivities } from '../activities/dfsp';
import { SimulatedThirdpartyBackend } from '../activities/dfsp/simulator/thirdpartySimulator';
import { startConnector, RunningConnector } from './connector';
import { connectorInbound, inboundRouter } from '../api/connector/inboundRoutes';
import { fspiopInbound } from '../api/dfsp/fspiopInbound';
import { dfspOutboundRouter } from '../api/dfsp/dfspOutbound';
import { simulatorPages } from '../api/dfsp/simulatorPages';
import { thirdpartyInbound } from '../api/dfsp/thirdpartyInbound';

export interface DfspConnectorOptions {
  /** A prebuilt bundle of workflows/dfsp (tests share one); without it the worker bundles at start. */
  workflowBundlePath?: string;
  /**
   * Serve the simulated bank's user pages (simulatorPages.ts) on the outbound port: anyone who reaches them can read
   * users' OTPs and pass any WEB login, so only a fully simulated bank (the demo, tests) turns them on.
   */
  simulatorPages?: boolean;
}

/** The DFSP connector: the third-party DFSP role and the FSPIOP payer and payee roles, over the bank's own systems. */
export function startDfspConnector(
  config: ConnectorConfig,
  log: Logger,
  backends: DfspBackends,
  options: DfspConnectorOptions = {},
): Promise<RunningConnector> {
  const { workflowBundlePath } = options;
  const pages = options.simulatorPages && backends.thirdparty instanceof SimulatedThirdpartyBackend ? [simulatorPages(backends.thirdparty)] : [];
  const sender = new PeerSender({ ...config, log });
  return startConnector('dfsp', config, log, (client) => ({
    workflowsPath: require.resolve('../workflows/dfsp'),
    workflowBundlePath,
    activities: createDfspActivities({ config, sender, backends, log }),
    inbound: [inboundRouter([...thirdpartyInbound, ...fspiopInbound], connectorInbound(client, config, log))],
    outbound: [dfspOutboundRouter(client, config), ...pages],
  }));
}
