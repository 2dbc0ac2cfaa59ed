import type { ResourceRoutes } from './app';
import { bulkTransfersRoutes } from './bulkTransfers';
import { participantsRoutes } from './participants';
import { partiesRoutes } from './parties';
import { quotesRoutes } from './quotes';
import { transfersRoutes } from './transfers';

/** The FSPIOP resources this switch serves, one router each. */
export const switchResources: ResourceRoutes[] = [participantsRoutes, partiesRoutes, quotesRoutes, transfersRoutes, bulkTransfersRoutes];
