import type { ErrorInformationObject, TransactionRequestsIDPutResponse, TransactionRequestsPostRequest } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { Currency, PayeeFsp, PayerFsp, State } from '../../activities/shared/contracts/searchAttributes';
import { findTransactionRequest } from '../../activities/hub/conversations/transactionRequests';
import {
  FINAL,
  repeatedTransactionRequestSignal,
  transactionRequest,
  transactionRequestAnswerSignal,
  TransactionRequestAnswer,
} from '../../workflows/hub/transactionRequest';
import { conversationRoutes } from './conversationRoutes';
import type { FspiopRequest } from './headers';
import type { FollowUp } from '../../activities/shared/contracts/followUps';
import type { ReceivedCallback } from '../../activities/shared/contracts/messages';

/** A payer FSP's answer or error that no running transaction request waits for: answered from the record. */
const lateAnswer =
  (isError: boolean) =>
  (transactionRequestId: string, callback: ReceivedCallback<unknown>, fspiop: FspiopRequest): FollowUp => ({
    kind: 'lateTransactionRequestAnswer',
    transactionRequestId,
    isError,
    callback,
    version: fspiop.version,
  });

/**
 * /transactionRequests: the payee FSP's POST starts the transactionRequest workflow; the payer FSP's PUT and
 * PUT …/error are signals to it until its answer is final; GET, repeats, anyone else's PUT and the payer FSP's
 * answers after a final one are answered from the record, which the workflow writes before it forwards the request.
 */
export const transactionRequestsRoutes = conversationRoutes<TransactionRequestsPostRequest, TransactionRequestsIDPutResponse, ErrorInformationObject>({
  resource: 'transactionRequests',
  post: {
    schema: 'TransactionRequestsPostRequest',
    workflow: transactionRequest,
    repeatSignal: repeatedTransactionRequestSignal,
    start: (body, fspiop) => {
      const payer = fspiop.destination ?? body.payer.fspId;
      return {
        id: body.transactionRequestId,
        workflowId: workflowIds.transactionRequest(body.transactionRequestId),
        searchAttributes: [
          { key: PayerFsp, value: payer ?? '' },
          { key: PayeeFsp, value: fspiop.source },
          { key: Currency, value: body.amount.currency },
          { key: State, value: 'REQUESTED' },
        ],
        summary: `Transaction request ${body.amount.amount} ${body.amount.currency} from ${payer} to ${fspiop.source}`,
      };
    },
    repeatedAfterEnd: (transactionRequestId, requestHash, requester) => ({ kind: 'repeatedTransactionRequest', transactionRequestId, requestHash, requester }),
  },
  get: (transactionRequestId, requester) => ({ kind: 'transactionRequestGet', transactionRequestId, requester }),
  stored: async (services, transactionRequestId) => {
    const record = await findTransactionRequest(services, transactionRequestId);
    return record ? { answerer: record.payerFsp ?? '', decided: FINAL.includes(record.state) } : undefined;
  },
  answer: {
    schema: 'TransactionRequestsIDPutResponse',
    workflowId: workflowIds.transactionRequest,
    signal: transactionRequestAnswerSignal,
    signalArgument: (callback): TransactionRequestAnswer => ({ kind: 'answer', callback }),
    orphan: lateAnswer(false),
  },
  error: {
    schema: 'ErrorInformationObject',
    workflowId: workflowIds.transactionRequest,
    signal: transactionRequestAnswerSignal,
    signalArgument: (callback): TransactionRequestAnswer => ({ kind: 'error', callback }),
    orphan: lateAnswer(true),
  },
});
