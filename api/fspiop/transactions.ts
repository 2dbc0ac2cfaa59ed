import type { ErrorInformationObject, TransactionsIDPutResponse } from '../../activities/shared/contracts/bodies';
import { conversationRoutes } from './conversationRoutes';
import { routedCallback, routedGet } from './routed';

/**
 * /transactions: GET /transactions/{ID} from the payer FSP goes to the payee FSP, its PUT and PUT …/error back, each
 * passed on by FSPIOP-Destination alone to the TRX_REQ_SERVICE address. No Mojaloop hub service routes /transactions;
 * the switch treats them as Mojaloop's transaction-requests service treats its own resources.
 */
export const transactionsRoutes = conversationRoutes<never, TransactionsIDPutResponse, ErrorInformationObject>({
  resource: 'transactions',
  get: (transactionId, fspiop) => routedGet('transactions', transactionId, fspiop),
  answer: { schema: 'TransactionsIDPutResponse', orphan: routedCallback('transactions', 'answer') },
  error: { schema: 'ErrorInformationObject', orphan: routedCallback('transactions', 'error') },
});
