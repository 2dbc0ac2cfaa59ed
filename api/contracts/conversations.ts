import type { FspiopEndpointType } from './endpoints';
import type { FspiopErrorName } from './errors';

/** The task queue the hub's worker polls unless configured otherwise. */
export const DEFAULT_TASK_QUEUE = 'mojaloop-hub';

/**
 * Each conversation's workflow ID is its kind and the business ID the DFSP chose: it is the idempotency key
 * (a repeated POST reaches the same workflow) and what an operator types into the Temporal UI.
 */
export const workflowIds = {
  quote: (quoteId: string) => `quote/${quoteId}`,
  transfer: (transferId: string) => `transfer/${transferId}`,
  transactionRequest: (transactionRequestId: string) => `transactionRequest/${transactionRequestId}`,
  bulkQuote: (bulkQuoteId: string) => `bulkQuote/${bulkQuoteId}`,
  bulkTransfer: (bulkTransferId: string) => `bulkTransfer/${bulkTransferId}`,
  /** A follow-up answered from a record after its conversation ended; `key` makes each one its own run. */
  followUp: (resource: string, id: string, key: string) => `followUp/${resource}/${id}/${key}`,
} as const;

/** FSPIOP resources whose messages the switch routes, as media types and paths name them. */
export const FSPIOP_RESOURCES = [
  'participants',
  'parties',
  'quotes',
  'transfers',
  'transactionRequests',
  'authorizations',
  'transactions',
  'bulkQuotes',
  'bulkTransfers',
] as const;

export type FspiopResource = (typeof FSPIOP_RESOURCES)[number];

/** The resources quoted through the switch the same way: a request to the payee FSP, its answer back to the payer. */
export type QuoteResource = Extract<FspiopResource, 'quotes' | 'bulkQuotes'>;

/** What quotes and bulk quotes call things, their workflows, and the errors that name them. */
export const quoting: Record<
  QuoteResource,
  { noun: string; workflowId: (id: string) => string; idNotFound: FspiopErrorName; unknownPayee: FspiopErrorName; payeeNamedBy: string }
> = {
  quotes: {
    noun: 'quote',
    workflowId: workflowIds.quote,
    idNotFound: 'quoteIdNotFound',
    // A quote's body names its payee FSP; Mojaloop's quoting service reports 3201 for quotes too.
    unknownPayee: 'payeeFspIdNotFound',
    payeeNamedBy: 'FSPIOP-Destination (or payee.partyIdInfo.fspId)',
  },
  bulkQuotes: {
    noun: 'bulk quote',
    workflowId: workflowIds.bulkQuote,
    idNotFound: 'bulkQuoteIdNotFound',
    // A bulk quote names its payee FSP only as the message's destination, so an unknown or inactive one is the
    // spec's "destination FSP does not exist or cannot be found" (3201), as Mojaloop's quoting service reports it.
    unknownPayee: 'destinationFspError',
    payeeNamedBy: "FSPIOP-Destination (or the one fspId of every individual quote's payee)",
  },
};

/** The messages of a conversation the switch delivers: the request, its answer and the error answer. */
export type MessageKind = 'request' | 'answer' | 'error';

interface Addressing {
  /** Endpoint type per message; base-address types get the API path appended. */
  endpoints: Record<MessageKind, FspiopEndpointType>;
  /** The template placeholder that carries the resource ID, where the endpoints are templates. */
  idParam?: string;
}

/** Where each resource's messages go, as Mojaloop's hub addresses them (ml-api-adapter, quoting and transaction-requests services). */
const addressing: Partial<Record<FspiopResource, Addressing>> = {
  quotes: { endpoints: { request: 'FSPIOP_CALLBACK_URL_QUOTES', answer: 'FSPIOP_CALLBACK_URL_QUOTES', error: 'FSPIOP_CALLBACK_URL_QUOTES' } },
  transfers: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', answer: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', error: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR' },
    idParam: 'transferId',
  },
  transactionRequests: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE', answer: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE', error: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE' },
  },
  authorizations: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_AUTHORIZATIONS', answer: 'FSPIOP_CALLBACK_URL_AUTHORIZATIONS', error: 'FSPIOP_CALLBACK_URL_AUTHORIZATIONS' },
  },
  transactions: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE', answer: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE', error: 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE' },
  },
  bulkQuotes: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_BULK_QUOTES', answer: 'FSPIOP_CALLBACK_URL_BULK_QUOTES', error: 'FSPIOP_CALLBACK_URL_BULK_QUOTES' },
  },
  bulkTransfers: {
    endpoints: {
      request: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_POST',
      answer: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_PUT',
      error: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_ERROR',
    },
    idParam: 'id',
  },
};

/** The endpoint, template values and API path of one message of a conversation. */
export interface Address {
  endpointType: FspiopEndpointType;
  params?: Record<string, string>;
  path: string;
}

/**
 * Where a message about resource `id` goes: a POST to `/{resource}`, a GET or an answer to `/{resource}/{id}`,
 * an error to `/{resource}/{id}/error`. `query` is appended to a GET (authorizations carry their parameters so).
 */
export function addressOf(resource: FspiopResource, kind: MessageKind | 'get', id?: string, query = ''): Address {
  const route = addressing[resource];
  if (!route) throw new Error(`no addressing for ${resource}`);
  const endpointType = route.endpoints[kind === 'get' ? 'request' : kind];
  const path = kind === 'request' && !id ? `/${resource}` : `/${resource}/${id}${kind === 'error' ? '/error' : ''}${kind === 'get' ? query : ''}`;
  return { endpointType, path, ...(route.idParam && id ? { params: { [route.idParam]: id } } : {}) };
}
