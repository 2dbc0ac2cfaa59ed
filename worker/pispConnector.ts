import type { Logger } from 'pino';
import { PeerSender } from '../activities/connector/peerSender';
import { genericKeySecretOf, type PispConfig } from '../activities/pisp/pispConfig';
import { createPispActivities } from '../activities/pisp';
import { LinkedConsents } from '../activities/pisp/linkedConsents';
import { startConnector, RunningConnector } from './connector';
import { connectorInbound, inboundRouter } from '../api/connector/inboundRoutes';
import { pispInbound } from '../api/pisp/pispInbound';
import { pispOutboundRouter } from '../api/pisp/pispOutbound';

/**
 * The PISP connector: its app's outbound API (thirdparty-sdk's, PISP mode), the third-party messages the switch
 * delivers to it, and its linking and payment conversations as workflows in the PISP's own namespace. Several run side
 * by side, each with its own DFSP_ID, ports and namespace. `workflowBundlePath` is a prebuilt bundle of
 * workflows/pisp (tests share one); without it the worker bundles at start.
 */
export function startPispConnector(config: PispConfig, log: Logger, workflowBundlePath?: string): Promise<RunningConnector> {
  const sender = new PeerSender({ ...config, log });
  const { secret, ephemeral } = genericKeySecretOf(config);
  if (ephemeral) log.warn('GENERIC_KEY_SECRET is not set: GENERIC credentials registered now cannot sign after a restart');
  return startConnector('pisp', config, log, (client) => {
    const linkedConsents = new LinkedConsents(client);
    return {
      workflowsPath: require.resolve('../workflows/pisp'),
      workflowBundlePath,
      activities: createPispActivities({ sender, genericKeySecret: secret, client }),
      inbound: [inboundRouter(pispInbound({ linkedConsents, authServiceId: config.authServiceId }), connectorInbound(client, config, log))],
      outbound: [pispOutboundRouter(client, config, linkedConsents)],
    };
  });
}
