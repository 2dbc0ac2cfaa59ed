import { checkSender } from '../../activities/hub/conversations/prepareChecks';
import { Transfers } from '../../activities/hub/conversations/transfers';
import type { ErrorInformationObject, TransfersIDPutResponse, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { Currency, PayeeFsp, PayerFsp, State } from '../../activities/shared/contracts/searchAttributes';
import { fulfilSignal, rejectSignal, repeatedTransferSignal, transfer } from '../../workflows/hub/transfer';
import { HttpError } from '../../activities/shared/platform/httpError';
import { conversationRoutes } from './conversationRoutes';
import { refuseFutureTimestamp } from './timestamps';

/**
 * /transfers: the payer's POST starts the transfer workflow, PUT and PUT …/error from the payee are signals to it
 * until the outcome is recorded; GET, a repeated POST, and anything else are answered from the record.
 */
export const transfersRoutes = conversationRoutes<TransfersPostRequest, TransfersIDPutResponse, ErrorInformationObject>({
  resource: 'transfers',
  post: {
    schema: 'TransfersPostRequest',
    workflow: transfer,
    repeatSignal: repeatedTransferSignal,
    start: (body) => ({
      id: body.transferId,
      workflowId: workflowIds.transfer(body.transferId),
      searchAttributes: [
        { key: PayerFsp, value: body.payerFsp },
        { key: PayeeFsp, value: body.payeeFsp },
        { key: Currency, value: body.amount.currency },
        { key: State, value: 'RECEIVED' },
      ],
      summary: `Transfer ${body.amount.amount} ${body.amount.currency} from ${body.payerFsp} to ${body.payeeFsp}`,
    }),
    // Only the payer it names may send it: anyone else's request would take its transferId (workflow and record) from the payer.
    check: (body, fspiop) => checkSender(fspiop.source, body.payerFsp, 'transfer'),
    repeatedAfterEnd: (transferId, requestHash, requester) => ({ kind: 'repeatedTransfer', transferId, requestHash, requester }),
  },
  get: (transferId, requester) => ({ kind: 'transferStatus', transferId, requester }),
  stored: async (services, transferId) => {
    const record = await new Transfers(services).find(transferId);
    return record ? { answerer: record.payeeFsp, decided: record.transferState === 'COMMITTED' || record.transferState === 'ABORTED' } : undefined;
  },
  answer: {
    schema: 'TransfersIDPutResponse',
    admit: (body, fspiop, transferId, log) => {
      // Document 2: ABORTED is not a valid state in this callback (the payee uses PUT …/error); RECEIVED means nothing here.
      if (body.transferState !== 'COMMITTED' && body.transferState !== 'RESERVED') {
        throw new HttpError(
          400,
          'validationError',
          `transferState ${body.transferState} is not valid in PUT /transfers/{ID}; reject with PUT /transfers/{ID}/error`,
        );
      }
      // A missing fulfilment is not refused here: as in central-ledger, the transfer is aborted and both sides are
      // told (3100), in the workflow.
      refuseFutureTimestamp(body.completedTimestamp);
      // The PATCH that answers RESERVED exists only from transfers v1.1. Like central-ledger, a v1.0 RESERVED is
      // dropped: the payee gets no notification it could not read, and the transfer expires (3303 to both sides).
      if (fspiop.version === '1.0' && body.transferState === 'RESERVED') {
        log.info({ transferId, from: fspiop.source }, 'RESERVED in a v1.0 fulfil ignored; the transfer will expire');
        return false;
      }
      return true;
    },
    workflowId: workflowIds.transfer,
    signal: fulfilSignal,
    signalArgument: (callback) => callback,
    orphan: (transferId, callback, fspiop) => ({ kind: 'lateFulfil', transferId, callback, version: fspiop.version }),
  },
  // A rejection after the transfer was decided changes nothing and needs no answer.
  error: { schema: 'ErrorInformationObject', workflowId: workflowIds.transfer, signal: rejectSignal, signalArgument: (callback) => callback },
});
