import type { TransfersIDPutResponse } from './bodies';
import type { FspiopHeaders, ReceivedCallback } from './messages';

/** Who asked, in which FSPIOP version the hub answers, and the headers it came with. */
export interface Requester {
  source: string;
  destination?: string;
  version: string;
  headers: FspiopHeaders;
}

/**
 * An answer the switch gives from a conversation's record, outside the conversation's workflow: a GET, a POST
 * repeated after the conversation ended (spec general rule 3), a callback that no running conversation waits
 * for. The gateway hands each to a `followUp` workflow, so it is durable and its deliveries are retried.
 */
export type FollowUp =
  | { kind: 'transferStatus'; transferId: string; requester: Requester }
  | { kind: 'repeatedTransfer'; transferId: string; requestHash: string; requester: Requester }
  | { kind: 'lateFulfil'; transferId: string; callback: ReceivedCallback<TransfersIDPutResponse>; version: string }
  | { kind: 'quoteGet'; quoteId: string; requester: Requester }
  | { kind: 'repeatedQuote'; quoteId: string; requestHash: string; requester: Requester }
  | { kind: 'quoteCallback'; quoteId: string; isError: boolean; callback: ReceivedCallback<unknown> }
  | { kind: 'bulkTransferStatus'; bulkTransferId: string; requester: Requester }
  | { kind: 'repeatedBulkTransfer'; bulkTransferId: string; requestHash: string; requester: Requester };
