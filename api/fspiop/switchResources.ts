import type { ResourceRoutes } from './switchApp';
import { authorizationsRoutes } from './authorizations';
import { bulkQuotesRoutes } from './bulkQuotes';
import { bulkTransfersRoutes } from './bulkTransfers';
import { participantsRoutes } from './participantsRoutes';
import { partiesRoutes } from './parties';
import { quotesRoutes } from './quotes';
import { transactionRequestsRoutes } from './transactionRequests';
import { transactionsRoutes } from './transactions';
import { transfersRoutes } from './transfers';
import { thirdpartyResources } from '../thirdparty/thirdpartyResources';

/** The resources this switch serves, one router each: FSPIOP's (Document 2) and the third-party API's (Document 1). */
export const switchResources: ResourceRoutes[] = [
  participantsRoutes,
  partiesRoutes,
  quotesRoutes,
  transfersRoutes,
  bulkQuotesRoutes,
  bulkTransfersRoutes,
  transactionRequestsRoutes,
  authorizationsRoutes,
  transactionsRoutes,
  ...thirdpartyResources,
];
