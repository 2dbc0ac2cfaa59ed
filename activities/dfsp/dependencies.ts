import type { Logger } from 'pino';
import type { ConnectorConfig } from '../connector/connectorConfig';
import type { PeerSender } from '../connector/peerSender';
import type { CoreBanking } from './backend/coreBanking';
import type { ThirdpartyBackend } from './backend/thirdpartyBackend';

/** The bank's own systems, as the DFSP connector reaches them. */
export interface DfspBackends {
  coreBanking: CoreBanking;
  thirdparty: ThirdpartyBackend;
}

/** What the DFSP connector's activities are made from. */
export interface DfspDependencies {
  config: ConnectorConfig;
  sender: PeerSender;
  backends: DfspBackends;
  log: Logger;
}
