import type { Logger } from 'pino';
import type { ConnectorConfig } from '../../activities/connector/config';
import { PeerSender } from '../../activities/connector/peerSender';
import type { DfspBackends } from '../../activities/dfsp/dependencies';
import { createDfspActivities } from '../../activities/dfsp';
import { SimulatedThirdpartyBackend } from '../../activities/dfsp/backend/thirdpartySimulator';
import { startConnector, RunningConnector } from '../../worker/connector';
import { inboundRouter } from '../connector/inbound';
import { fspiopInbound } from './fspiopInbound';
import { dfspOutboundRouter } from './outbound';
import { simulatorPages } from './simulatorPages';
import { thirdpartyInbound } from './thirdpartyInbound';

/**
 * The DFSP connector: the third-party DFSP role and the FSPIOP payer and payee roles, over the bank's own systems.
 * `workflowBundlePath` is a prebuilt bundle of workflows/dfsp (tests share one); without it the worker bundles at start.
 */
export function startDfspConnector(config: ConnectorConfig, log: Logger, backends: DfspBackends, workflowBundlePath?: string): Promise<RunningConnector> {
  const sender = new PeerSender({ ...config, log });
  return startConnector('dfsp', config, log, (client) => ({
    workflowsPath: require.resolve('../../workflows/dfsp'),
    workflowBundlePath,
    activities: createDfspActivities({ config, sender, backends, log }),
    inbound: [inboundRouter([...thirdpartyInbound, ...fspiopInbound], { client, taskQueue: config.taskQueue, log })],
    outbound: [dfspOutboundRouter(client, config), ...(backends.thirdparty instanceof SimulatedThirdpartyBackend ? [simulatorPages(backends.thirdparty)] : [])],
  }));
}
