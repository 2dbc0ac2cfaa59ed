import { BulkTransfers } from '../../activities/hub/conversations/bulkTransfers';
import { checkSender } from '../../activities/hub/conversations/prepareChecks';
import type { BulkTransfersIDPutResponse, BulkTransfersPostRequest, ErrorInformationObject } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { Currency, PayeeFsp, PayerFsp, State } from '../../activities/shared/contracts/searchAttributes';
import { bulkTransfer, BulkTransferAnswer, bulkTransferAnswerSignal, repeatedBulkTransferSignal } from '../../workflows/hub/bulkTransfer';
import { conversationRoutes } from './conversationRoutes';
import { errorInformation } from '../../activities/shared/contracts/errors';
import { fromTheFuture, FUTURE_TIMESTAMP } from './timestamps';

/**
 * /bulkTransfers: the payer's POST starts the bulk transfer workflow, the payee's PUT and PUT …/error are signals to it
 * until the outcome is recorded; GET, a repeated POST, and anything else are answered from the record.
 */
export const bulkTransfersRoutes = conversationRoutes<BulkTransfersPostRequest, BulkTransfersIDPutResponse, ErrorInformationObject>({
  resource: 'bulkTransfers',
  post: {
    schema: 'BulkTransfersPostRequest',
    workflow: bulkTransfer,
    repeatSignal: repeatedBulkTransferSignal,
    // As Mojaloop's hub does, the payee gets a POST of the hub's own with the items it accepted, never the payer's bytes.
    passesOnRequest: false,
    start: (body) => {
      const currencies = [...new Set(body.individualTransfers.map((item) => item.transferAmount.currency))].sort();
      return {
        id: body.bulkTransferId,
        workflowId: workflowIds.bulkTransfer(body.bulkTransferId),
        searchAttributes: [
          { key: PayerFsp, value: body.payerFsp },
          { key: PayeeFsp, value: body.payeeFsp },
          { key: Currency, value: currencies.join(' ') },
          { key: State, value: 'RECEIVED' },
        ],
        summary: `Bulk transfer of ${body.individualTransfers.length} items from ${body.payerFsp} to ${body.payeeFsp}`,
      };
    },
    // Only the payer it names may send it: anyone else's request would take its bulkTransferId (workflow and record) from the payer.
    check: (body, fspiop) => checkSender(fspiop.source, body.payerFsp, 'bulk'),
    repeatedAfterEnd: (bulkTransferId, requestHash, requester) => ({ kind: 'repeatedBulkTransfer', bulkTransferId, requestHash, requester }),
  },
  get: (bulkTransferId, requester) => ({ kind: 'bulkTransferStatus', bulkTransferId, requester }),
  stored: async (services, bulkTransferId) => {
    const bulk = await new BulkTransfers(services).find(bulkTransferId);
    return bulk ? { answerer: bulk.payeeFsp, decided: bulk.bulkTransferState === 'COMPLETED' || bulk.bulkTransferState === 'REJECTED' } : undefined;
  },
  answer: {
    schema: 'BulkTransfersIDPutResponse',
    workflowId: workflowIds.bulkTransfer,
    signal: bulkTransferAnswerSignal,
    // A fulfil from the future is taken (200) and ends the bulk, as central-ledger's bulk fulfil handler ends it.
    signalArgument: ({ headers, body }): BulkTransferAnswer =>
      fromTheFuture(body.completedTimestamp)
        ? { kind: 'invalid', callback: { headers, body }, error: errorInformation('validationError', `Bulk fulfil failed validation - ${FUTURE_TIMESTAMP}`) }
        : { kind: 'results', callback: { headers, body } },
    // After the bulk ended (or for an unknown one) the sender is told the bulk's state, or 3210 / 3000.
    orphan: (bulkTransferId, _callback, requester) => ({ kind: 'bulkTransferStatus', bulkTransferId, requester }),
  },
  error: {
    schema: 'ErrorInformationObject',
    workflowId: workflowIds.bulkTransfer,
    signal: bulkTransferAnswerSignal,
    signalArgument: ({ headers, body }): BulkTransferAnswer => ({ kind: 'error', callback: { headers, body } }),
    orphan: (bulkTransferId, _callback, requester) => ({ kind: 'bulkTransferStatus', bulkTransferId, requester }),
  },
});
