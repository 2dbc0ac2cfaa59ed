import { errorInformation } from '../../activities/shared/contracts/errors';
import { messages } from '../participant/participantProxies';
import type { ThirdpartyTransactionView } from './thirdpartyContracts';

export interface TransactionStatusInput {
  transactionRequestId: string;
  /** FSPIOP-Source of the GET. */
  requester: string;
  /** The request's state as its workflow answered the query; absent when the DFSP has no such request. */
  view?: ThirdpartyTransactionView;
}

/**
 * `dfspTransactionStatus/<transactionRequestId>/<key>`: GET /thirdpartyRequests/transactions/{ID} (Document 1, payment
 * flow rule 8). A request the DFSP does not have, or one another participant than the originator asks about, is
 * PUT …/error 3206 (the same answer: a stranger learns nothing of the request); a request that failed is told its
 * error again; otherwise PUT with the current transactionRequestState.
 */
export async function dfspTransactionStatus({ transactionRequestId, requester, view }: TransactionStatusInput): Promise<string> {
  const reply = { to: requester, resource: 'thirdpartyRequests/transactions' as const, id: transactionRequestId };
  if (!view || view.originator !== requester || (!view.transactionRequestState && !view.errorInformation)) {
    const notFound = errorInformation('transactionRequestIdNotFound', `no transaction request ${transactionRequestId} of ${requester}`);
    await messages.sendToSwitch({ ...reply, name: 'error', body: { errorInformation: notFound } });
    return 'notFound';
  }
  if (view.errorInformation) {
    await messages.sendToSwitch({ ...reply, name: 'error', body: { errorInformation: view.errorInformation } });
    return 'failed';
  }
  const { transactionId, transactionRequestState } = view;
  await messages.sendToSwitch({ ...reply, name: 'answer', body: { ...(transactionId ? { transactionId } : {}), transactionRequestState } });
  return transactionRequestState!;
}
