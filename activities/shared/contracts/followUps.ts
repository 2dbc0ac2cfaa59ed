import type { ConsentRequest } from './consentRegistration';
import type { ServiceType, TransfersIDPutResponse } from './bodies';
import type { FspiopResource, MessageName, QuoteResource, Resource } from './conversations';
import type { ErrorInformation } from './errors';
import type { FspiopHeaders, ReceivedCallback, RelayedCallback } from './messages';

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
 * for, a request to the hub's Auth service about a consent whose workflow no longer runs. The gateway hands each to a
 * `followUp` workflow, so it is durable and its deliveries are retried.
 */
export type FollowUp =
  | { kind: 'transferStatus'; transferId: string; requester: Requester }
  | { kind: 'repeatedTransfer'; transferId: string; requestHash: string; requester: Requester }
  | { kind: 'lateFulfil'; transferId: string; callback: ReceivedCallback<TransfersIDPutResponse>; version: string }
  | { kind: 'quoteGet'; resource: QuoteResource; id: string; requester: Requester }
  | { kind: 'repeatedQuote'; resource: QuoteResource; id: string; requestHash: string; requester: Requester }
  | { kind: 'quoteCallback'; resource: QuoteResource; id: string; isError: boolean; callback: RelayedCallback; version: string }
  | { kind: 'transactionRequestGet'; transactionRequestId: string; requester: Requester }
  | { kind: 'repeatedTransactionRequest'; transactionRequestId: string; requestHash: string; requester: Requester }
  | { kind: 'lateTransactionRequestAnswer'; transactionRequestId: string; isError: boolean; callback: ReceivedCallback<unknown>; version: string }
  | { kind: 'bulkTransferStatus'; bulkTransferId: string; requester: Requester }
  | { kind: 'repeatedBulkTransfer'; bulkTransferId: string; requestHash: string; requester: Requester }
  | { kind: 'consentGet'; consentId: string; requester: Requester }
  | { kind: 'servicesGet'; serviceType: ServiceType; requester: Requester }
  | { kind: 'consentRequest'; consentId: string; request: ConsentRequest }
  | RefusedRequest
  | RoutedMessage;

/**
 * A message refused before anything of it was recorded or signalled (a POST not from the payer it names, a callback not
 * from the participant its conversation waits on): the error goes to its sender.
 */
export interface RefusedRequest {
  kind: 'refusedRequest';
  resource: FspiopResource;
  id: string;
  requester: Requester;
  errorInformation: ErrorInformation;
}

/**
 * A message the switch passes on by its FSPIOP-Destination alone, as Mojaloop's transaction-requests service and
 * thirdparty-api-svc do: an authorization no running transaction request takes, a GET or PUT /transactions, every
 * third-party message between PISP and DFSP. `id` names the resource (a POST's from its body), to which an error
 * the switch reports refers. `query` goes after a GET's path.
 */
export interface RoutedMessage {
  kind: 'routed';
  resource: Resource;
  id: string;
  message: MessageName;
  from: Requester;
  query?: string;
  rawBody?: string;
}
