import type { CallbackEndpointType } from './endpoints';
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
  /** A consent held by the hub's Auth service, from its registration to its revocation. */
  consent: (consentId: string) => `consent/${consentId}`,
  /** A linking routed through the switch, observed as its messages pass. */
  linking: (consentRequestId: string) => `linking/${consentRequestId}`,
  /** A third-party transaction request routed through the switch, observed as its messages pass. */
  thirdpartyTransaction: (transactionRequestId: string) => `thirdpartyTransaction/${transactionRequestId}`,
  /** A settlement window, from its opening to its settlement. */
  settlementWindow: (settlementWindowId: number) => `settlementWindow/${settlementWindowId}`,
  /** A settlement of closed windows, from its creation to SETTLED or ABORTED. */
  settlement: (settlementId: number) => `settlement/${settlementId}`,
  /** A change held for a second person (four eyes), from its request to its decision or expiry. */
  approval: (approvalId: string) => `approval/${approvalId}`,
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

/**
 * Third-party API resources (Document 1) the switch routes between PISP and DFSP, named by their path below the
 * switch's root, as their endpoint paths and follow-ups name them.
 */
export const THIRDPARTY_RESOURCES = [
  'accounts',
  'consentRequests',
  'consents',
  'thirdpartyRequests/transactions',
  'thirdpartyRequests/authorizations',
  'thirdpartyRequests/verifications',
  'services',
] as const;

export type ThirdpartyResource = (typeof THIRDPARTY_RESOURCES)[number];

/** The version of the third-party API this switch speaks (Document 1 is version 1.0). */
export const THIRDPARTY_VERSION = '1.0';

/** Every resource whose messages the switch delivers. */
export type Resource = FspiopResource | ThirdpartyResource;

/** The name of a resource's media type: FSPIOP names each resource, the third-party API has one for all. */
export function mediaTypeNameOf(resource: Resource): string {
  return (THIRDPARTY_RESOURCES as readonly string[]).includes(resource) ? 'thirdparty' : resource;
}

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
    // An unknown or inactive payee FSP is 3201, as Mojaloop's quoting service reports it for quotes and bulk quotes alike.
    unknownPayee: 'destinationFspError',
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

/** Every message the switch passes on: a conversation's three, a GET, and the third-party API's PATCH and DELETE. */
export type MessageName = MessageKind | 'get' | 'patch' | 'delete';

interface Addressing {
  /** Endpoint type per message; base-address types get the API path appended. A GET without its own goes to the request's. */
  endpoints: Partial<Record<MessageName, CallbackEndpointType>> & Record<'answer' | 'error', CallbackEndpointType>;
  /** The template placeholder that carries the resource ID, where the endpoints are templates. */
  idParam?: string;
}

const sameEndpoint = (type: CallbackEndpointType) => ({ request: type, answer: type, error: type });

/**
 * Where each resource's messages go, as Mojaloop's hub addresses them (ml-api-adapter, quoting and transaction-requests
 * services for FSPIOP; thirdparty-api-svc for the third-party API).
 */
const addressing: Partial<Record<Resource, Addressing>> = {
  quotes: { endpoints: sameEndpoint('FSPIOP_CALLBACK_URL_QUOTES') },
  transfers: {
    endpoints: { request: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', answer: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', error: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR' },
    idParam: 'transferId',
  },
  transactionRequests: { endpoints: sameEndpoint('FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE') },
  authorizations: { endpoints: sameEndpoint('FSPIOP_CALLBACK_URL_AUTHORIZATIONS') },
  transactions: { endpoints: sameEndpoint('FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE') },
  bulkQuotes: { endpoints: sameEndpoint('FSPIOP_CALLBACK_URL_BULK_QUOTES') },
  bulkTransfers: {
    endpoints: {
      request: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_POST',
      answer: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_PUT',
      error: 'FSPIOP_CALLBACK_URL_BULK_TRANSFER_ERROR',
    },
    idParam: 'id',
  },
  accounts: { endpoints: { get: 'TP_CB_URL_ACCOUNTS_GET', answer: 'TP_CB_URL_ACCOUNTS_PUT', error: 'TP_CB_URL_ACCOUNTS_PUT_ERROR' } },
  consentRequests: {
    endpoints: {
      request: 'TP_CB_URL_CONSENT_REQUEST_POST',
      answer: 'TP_CB_URL_CONSENT_REQUEST_PUT',
      patch: 'TP_CB_URL_CONSENT_REQUEST_PATCH',
      error: 'TP_CB_URL_CONSENT_REQUEST_PUT_ERROR',
    },
  },
  consents: {
    endpoints: {
      request: 'TP_CB_URL_CONSENT_POST',
      get: 'TP_CB_URL_CONSENT_GET',
      answer: 'TP_CB_URL_CONSENT_PUT',
      patch: 'TP_CB_URL_CONSENT_PATCH',
      error: 'TP_CB_URL_CONSENT_PUT_ERROR',
      // Mojaloop defines no endpoint type for DELETE /consents/{ID}: it is a request about the consent, like its GET.
      delete: 'TP_CB_URL_CONSENT_GET',
    },
  },
  'thirdpartyRequests/transactions': {
    endpoints: {
      request: 'TP_CB_URL_TRANSACTION_REQUEST_POST',
      get: 'TP_CB_URL_TRANSACTION_REQUEST_GET',
      answer: 'TP_CB_URL_TRANSACTION_REQUEST_PUT',
      patch: 'TP_CB_URL_TRANSACTION_REQUEST_PATCH',
      error: 'TP_CB_URL_TRANSACTION_REQUEST_PUT_ERROR',
    },
  },
  'thirdpartyRequests/authorizations': {
    endpoints: {
      request: 'TP_CB_URL_TRANSACTION_REQUEST_AUTH_POST',
      answer: 'TP_CB_URL_TRANSACTION_REQUEST_AUTH_PUT',
      error: 'TP_CB_URL_TRANSACTION_REQUEST_AUTH_PUT_ERROR',
    },
  },
  'thirdpartyRequests/verifications': {
    endpoints: {
      request: 'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_POST',
      answer: 'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_PUT',
      error: 'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_PUT_ERROR',
    },
  },
  services: { endpoints: { get: 'TP_CB_URL_SERVICES_GET', answer: 'TP_CB_URL_SERVICES_PUT', error: 'TP_CB_URL_SERVICES_PUT_ERROR' } },
};

/** The endpoint, template values and API path of one message of a conversation. */
export interface Address {
  endpointType: CallbackEndpointType;
  params?: Record<string, string>;
  path: string;
}

/**
 * Where a message about resource `id` goes: a POST to `/{resource}` (its ID in the body), a GET, PATCH, DELETE or an answer to
 * `/{resource}/{id}`, an error to `/{resource}/{id}/error`. `query` is appended to a GET (authorizations carry their
 * parameters so). The ID is percent-encoded as one path segment: an /accounts/{ID} is the user's identifier, which
 * may hold `/`, `?` or `+` (an MSISDN), and must reach the participant as the same ID at the same path. A
 * CorrelationId or ServiceType is unchanged by it.
 */
export function addressOf(resource: Resource, kind: MessageName, id?: string, query = ''): Address {
  const route = addressing[resource];
  const endpointType = route?.endpoints[kind] ?? (kind === 'get' ? route?.endpoints.request : undefined);
  if (!route || !endpointType) throw new Error(`no ${kind} endpoint for ${resource}`);
  const segment = encodeURIComponent(id ?? '');
  const path = kind === 'request' ? `/${resource}` : `/${resource}/${segment}${kind === 'error' ? '/error' : ''}${kind === 'get' ? query : ''}`;
  return { endpointType, path, ...(route.idParam && id ? { params: { [route.idParam]: id } } : {}) };
}
