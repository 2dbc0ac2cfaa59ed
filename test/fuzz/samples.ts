import crypto from 'node:crypto';
import { uniqueName } from '../helpers/database';
import { bulkItem, bulkQuoteAnswer, bulkQuoteBody, bulkTransferBody, ilpPair, quoteBody, transactionRequestBody, transferBody } from '../helpers/fspiopBodies';
import { AUTH_SERVICE, authorizationRequest, thirdpartyTransactionRequest } from '../helpers/thirdpartyFlows';
import type { Api, Operation } from './documents';
import type { FuzzScheme } from './fixture';

/** Which conversation a message names: a new one, one in flight between payer and payee, or one already decided. */
export type IdKind = 'fresh' | 'inFlight' | 'finished';

/**
 * A valid message of one operation, as its rightful sender sends it. The fuzz suite never sends it as it is (it could
 * move money): it mutates it until it is malformed, or sends it from a participant with no right to.
 */
export interface Message {
  /** The path's parameters, by the names the document gives them ({ID}, {Type}, {name}…). */
  params: Record<string, string>;
  query?: string;
  /** FSPIOP-Source (absent on the admin API). */
  source?: string;
  destination?: string;
  body?: unknown;
  /** Who may send it; any other participant is a stranger to it. By default its source alone. */
  senders?: string[];
  /**
   * The error callback (PUT …/error) a stranger who sends it is owed, at its own endpoint: always, or only when the
   * message names the conversation in flight (a decided or unknown one may be dropped without an answer).
   */
  strangerIsAnswered?: { path: string; when: 'always' | 'inFlight' };
  /** The body a stranger sends instead, claiming for itself what the rightful sender claims (default: `body` as it is). */
  strangerBody?: (stranger: string) => unknown;
}

type Declaration = {
  /** The kind of conversation whose ID the message carries, for the IDs a hostile message may name. */
  names?: keyof FuzzScheme['conversations'] | 'party' | 'consent';
  build: (scheme: FuzzScheme, id: string) => Message;
};

const USD = (amount: string) => ({ amount, currency: 'USD' as const });
const later = () => new Date(Date.now() + 10 * 60_000).toISOString();
const earlier = () => new Date(Date.now() - 1_000).toISOString();
const partyNotFound = { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } };
const msisdn = () => String(27_800_000_000 + crypto.randomInt(99_999_999));
const everyone = (s: FuzzScheme) => [s.payer, s.payee, s.stranger, s.pisp].map((dfsp) => dfsp.name);

const answered = (path: string, when: 'always' | 'inFlight' = 'always') => ({ strangerIsAnswered: { path, when } });

/** A party registration of the payer's, at a path with or without {SubId}. */
function partyMessages(withSubId: boolean): Record<string, Declaration> {
  const at = withSubId ? '/participants/{Type}/{ID}/{SubId}' : '/participants/{Type}/{ID}';
  const params = (id: string) => ({ Type: 'MSISDN', ID: id, ...(withSubId ? { SubId: 'home' } : {}) });
  const path = (id: string) => `/participants/MSISDN/${id}${withSubId ? '/home' : ''}`;
  return {
    [`GET ${at}`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payee.name, senders: everyone(s) }) },
    [`POST ${at}`]: {
      names: 'party',
      // Registering a party for another FSP is refused with an error callback (3003).
      build: (s, id) => ({
        params: params(id),
        source: s.payer.name,
        body: { fspId: s.payer.name, currency: 'USD' },
        ...answered(`${path(id)}/error`),
        // The party the payer holds for every currency, claimed by another FSP for itself in one: refused (3003), never
        // a takeover of that currency.
        ...(!withSubId && id === s.party.partyIdentifier ? { strangerBody: (stranger: string) => ({ fspId: stranger, currency: 'USD' }) } : {}),
      }),
    },
    [`PUT ${at}`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payer.name, body: { fspId: s.payer.name } }) },
    [`DELETE ${at}`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payer.name }) },
    [`PUT ${at}/error`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payer.name, body: partyNotFound }) },
  };
}

function partiesMessages(withSubId: boolean): Record<string, Declaration> {
  const at = withSubId ? '/parties/{Type}/{ID}/{SubId}' : '/parties/{Type}/{ID}';
  const params = (id: string) => ({ Type: 'MSISDN', ID: id, ...(withSubId ? { SubId: 'home' } : {}) });
  const party = (s: FuzzScheme, id: string) => ({
    party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: id, fspId: s.payer.name }, name: 'Alice' },
  });
  return {
    [`GET ${at}`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payee.name, senders: everyone(s) }) },
    [`PUT ${at}`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payer.name, destination: s.payee.name, body: party(s, id) }) },
    [`PUT ${at}/error`]: { names: 'party', build: (s, id) => ({ params: params(id), source: s.payer.name, destination: s.payee.name, body: partyNotFound }) },
  };
}

/** FSPIOP v1.1: every path and method of the document. */
const FSPIOP: Record<string, Declaration> = {
  ...partyMessages(false),
  ...partyMessages(true),
  'POST /participants': {
    build: (s) => ({
      params: {},
      source: s.payer.name,
      body: { requestId: crypto.randomUUID(), partyList: [{ partyIdType: 'MSISDN', partyIdentifier: msisdn(), fspId: s.payer.name }], currency: 'USD' },
    }),
  },
  'PUT /participants/{ID}': {
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      body: { partyList: [{ partyId: { partyIdType: 'MSISDN', partyIdentifier: msisdn(), fspId: s.payer.name } }], currency: 'USD' },
    }),
  },
  'PUT /participants/{ID}/error': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, body: partyNotFound }) },
  ...partiesMessages(false),
  ...partiesMessages(true),
  'POST /transactionRequests': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: {},
      source: s.payee.name,
      destination: s.payer.name,
      body: transactionRequestBody(s.payee.name, s.payer.name, '1', { transactionRequestId: id, expiresInMs: 60_000 }),
      ...answered(`/transactionRequests/${id}/error`, 'inFlight'),
    }),
  },
  'GET /transactionRequests/{ID}': {
    names: 'transactionRequests',
    build: (s, id) => ({ params: { ID: id }, source: s.payee.name, destination: s.payer.name, senders: [s.payee.name, s.payer.name] }),
  },
  'PUT /transactionRequests/{ID}': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      destination: s.payee.name,
      body: { transactionRequestState: 'RECEIVED' },
      ...answered(`/transactionRequests/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /transactionRequests/{ID}/error': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      destination: s.payee.name,
      body: partyNotFound,
      ...answered(`/transactionRequests/${id}/error`, 'inFlight'),
    }),
  },
  'POST /quotes': {
    names: 'quotes',
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: s.payee.name,
      body: quoteBody(s.payer.name, s.payee.name, '1', { quoteId: id }),
      ...answered(`/quotes/${id}/error`, 'inFlight'),
    }),
  },
  'GET /quotes/{ID}': {
    names: 'quotes',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.payee.name, senders: [s.payer.name, s.payee.name] }),
  },
  'PUT /quotes/{ID}': {
    names: 'quotes',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: { transferAmount: USD('1'), expiration: later(), ilpPacket: crypto.randomBytes(64).toString('base64url'), condition: ilpPair().condition },
      ...answered(`/quotes/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /quotes/{ID}/error': {
    names: 'quotes',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: partyNotFound,
      ...answered(`/quotes/${id}/error`, 'inFlight'),
    }),
  },
  'GET /authorizations/{ID}': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: { ID: id },
      query: 'authenticationType=OTP&retriesLeft=2&amount=1&currency=USD',
      source: s.payer.name,
      destination: s.payee.name,
      ...answered(`/authorizations/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /authorizations/{ID}': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: { authenticationInfo: { authentication: 'OTP', authenticationValue: '1234' }, responseType: 'ENTERED' },
      ...answered(`/authorizations/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /authorizations/{ID}/error': {
    names: 'transactionRequests',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: partyNotFound,
      ...answered(`/authorizations/${id}/error`, 'inFlight'),
    }),
  },
  'POST /transfers': {
    names: 'transfers',
    // Only the payer may ask for its own money to move (3100 to anyone else).
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: s.payee.name,
      body: transferBody(s.payer.name, s.payee.name, '1', { transferId: id }),
      ...answered(`/transfers/${id}/error`),
    }),
  },
  'GET /transfers/{ID}': {
    names: 'transfers',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, senders: [s.payer.name, s.payee.name], ...answered(`/transfers/${id}/error`) }),
  },
  'PUT /transfers/{ID}': {
    names: 'transfers',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: { transferState: 'COMMITTED', fulfilment: ilpPair().fulfilment, completedTimestamp: earlier() },
      ...answered(`/transfers/${id}/error`),
    }),
  },
  'PATCH /transfers/{ID}': {
    names: 'transfers',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: { completedTimestamp: earlier(), transferState: 'COMMITTED' },
    }),
  },
  'PUT /transfers/{ID}/error': {
    names: 'transfers',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: partyNotFound,
      ...answered(`/transfers/${id}/error`, 'inFlight'),
    }),
  },
  'GET /transactions/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.payee.name }) },
  'PUT /transactions/{ID}': {
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: { transactionState: 'COMPLETED', completedTimestamp: earlier() },
    }),
  },
  'PUT /transactions/{ID}/error': { build: (s, id) => ({ params: { ID: id }, source: s.payee.name, destination: s.payer.name, body: partyNotFound }) },
  'POST /bulkQuotes': {
    names: 'bulkQuotes',
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: s.payee.name,
      body: { ...bulkQuoteBody(s.payer.name, s.payee.name, 1), bulkQuoteId: id },
      ...answered(`/bulkQuotes/${id}/error`, 'inFlight'),
    }),
  },
  'GET /bulkQuotes/{ID}': {
    names: 'bulkQuotes',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.payee.name, senders: [s.payer.name, s.payee.name] }),
  },
  'PUT /bulkQuotes/{ID}': {
    names: 'bulkQuotes',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: bulkQuoteAnswer(bulkQuoteBody(s.payer.name, s.payee.name, 1)),
      ...answered(`/bulkQuotes/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /bulkQuotes/{ID}/error': {
    names: 'bulkQuotes',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: partyNotFound,
      ...answered(`/bulkQuotes/${id}/error`, 'inFlight'),
    }),
  },
  'POST /bulkTransfers': {
    names: 'bulkTransfers',
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: s.payee.name,
      body: bulkTransferBody(s.payer.name, s.payee.name, [bulkItem('1')], { bulkTransferId: id }),
      ...answered(`/bulkTransfers/${id}/error`),
    }),
  },
  'GET /bulkTransfers/{ID}': {
    names: 'bulkTransfers',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, senders: [s.payer.name, s.payee.name], ...answered(`/bulkTransfers/${id}/error`) }),
  },
  'PUT /bulkTransfers/{ID}': {
    names: 'bulkTransfers',
    build: (s, id) => ({
      params: { ID: id },
      source: s.payee.name,
      destination: s.payer.name,
      body: {
        bulkTransferState: 'COMPLETED',
        completedTimestamp: earlier(),
        individualTransferResults: [{ transferId: crypto.randomUUID(), fulfilment: ilpPair().fulfilment }],
      },
      ...answered(`/bulkTransfers/${id}/error`),
    }),
  },
  'PUT /bulkTransfers/{ID}/error': {
    names: 'bulkTransfers',
    build: (s, id) => ({ params: { ID: id }, source: s.payee.name, destination: s.payer.name, body: partyNotFound, ...answered(`/bulkTransfers/${id}/error`) }),
  },
};

const scopes = (s: FuzzScheme) => s.linking.scopes;
const signedPayload = () => crypto.randomBytes(64).toString('base64url');

/** The third-party API v1.0: every path and method of the document. */
const THIRDPARTY: Record<string, Declaration> = {
  'GET /accounts/{ID}': { build: (s) => ({ params: { ID: 'user@example.org' }, source: s.pisp.name, destination: s.payer.name }) },
  'PUT /accounts/{ID}': {
    build: (s) => ({
      params: { ID: 'user@example.org' },
      source: s.payer.name,
      destination: s.pisp.name,
      body: { accounts: [{ accountNickname: 'Savings', address: `${s.payer.name}.account.1`, currency: 'USD' }] },
    }),
  },
  'PUT /accounts/{ID}/error': { build: (s) => ({ params: { ID: 'user@example.org' }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }) },
  'GET /health': { build: () => ({ params: {} }) },
  'GET /metrics': { build: () => ({ params: {} }) },
  'POST /consentRequests': {
    build: (s, id) => ({
      params: {},
      source: s.pisp.name,
      destination: s.payer.name,
      body: { consentRequestId: id, userId: 'user@example.org', scopes: scopes(s), authChannels: ['OTP'], callbackUri: 'https://pisp.example.org/linked' },
    }),
  },
  'GET /consentRequests/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name }) },
  'PUT /consentRequests/{ID}': {
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: { scopes: scopes(s), authChannels: ['OTP'] } }),
  },
  'PATCH /consentRequests/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name, body: { authToken: '123456' } }) },
  'PUT /consentRequests/{ID}/error': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }) },
  'POST /consents': {
    names: 'consent',
    // The DFSP registers the consent with the hub's Auth service; a stranger's registration under its ID is refused.
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: AUTH_SERVICE,
      body: { consentId: id, scopes: scopes(s), credential: s.linking.credential, status: 'ISSUED' },
      ...answered(`/consents/${id}/error`, 'inFlight'),
    }),
  },
  'GET /consents/{ID}': {
    names: 'consent',
    // The Auth service tells the consent's DFSP and PISP about it, and anyone else nothing (7213).
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      destination: AUTH_SERVICE,
      senders: [s.payer.name, s.pisp.name],
      ...answered(`/consents/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /consents/{ID}': {
    names: 'consent',
    build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name, body: { scopes: scopes(s), credential: s.linking.credential } }),
  },
  'PATCH /consents/{ID}': {
    names: 'consent',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: { status: 'REVOKED', revokedAt: earlier() } }),
  },
  'DELETE /consents/{ID}': {
    names: 'consent',
    // Only the consent's DFSP or PISP may unlink it (7200 to anyone else).
    build: (s, id) => ({
      params: { ID: id },
      source: s.pisp.name,
      destination: s.payer.name,
      senders: [s.payer.name, s.pisp.name],
      ...answered(`/consents/${id}/error`, 'inFlight'),
    }),
  },
  'PUT /consents/{ID}/error': {
    names: 'consent',
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }),
  },
  'POST /participants': {
    build: (s) => ({
      params: {},
      source: s.payer.name,
      body: {
        requestId: crypto.randomUUID(),
        partyList: [{ partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: `${s.payer.name}.${msisdn()}`, fspId: s.payer.name }],
      },
    }),
  },
  'PUT /participants/{ID}': {
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      body: { partyList: [{ partyId: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: `${s.payer.name}.${msisdn()}`, fspId: s.payer.name } }] },
    }),
  },
  'PUT /participants/{ID}/error': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, body: partyNotFound }) },
  'GET /participants/{Type}/{ID}': {
    names: 'consent',
    build: (s, id) => ({ params: { Type: 'CONSENT', ID: id }, source: s.payer.name, senders: everyone(s) }),
  },
  'POST /participants/{Type}/{ID}': {
    build: (s, id) => ({
      params: { Type: 'THIRD_PARTY_LINK', ID: id },
      source: s.payer.name,
      body: { fspId: s.payer.name },
      ...answered(`/participants/THIRD_PARTY_LINK/${id}/error`),
    }),
  },
  'PUT /participants/{Type}/{ID}': {
    build: (s, id) => ({ params: { Type: 'THIRD_PARTY_LINK', ID: id }, source: s.payer.name, body: { fspId: s.payer.name } }),
  },
  'DELETE /participants/{Type}/{ID}': { names: 'consent', build: (s, id) => ({ params: { Type: 'CONSENT', ID: id }, source: s.payer.name }) },
  'PUT /participants/{Type}/{ID}/error': { build: (s, id) => ({ params: { Type: 'THIRD_PARTY_LINK', ID: id }, source: s.payer.name, body: partyNotFound }) },
  'GET /services/{ServiceType}': { build: (s) => ({ params: { ServiceType: 'THIRD_PARTY_DFSP' }, source: s.pisp.name, senders: everyone(s) }) },
  'PUT /services/{ServiceType}': {
    build: (s) => ({ params: { ServiceType: 'THIRD_PARTY_DFSP' }, source: s.payer.name, destination: s.pisp.name, body: { providers: [s.payer.name] } }),
  },
  'PUT /services/{ServiceType}/error': {
    build: (s) => ({ params: { ServiceType: 'THIRD_PARTY_DFSP' }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }),
  },
  'POST /thirdpartyRequests/transactions': {
    build: (s, id) => ({
      params: {},
      source: s.pisp.name,
      destination: s.payer.name,
      body: { ...thirdpartyTransactionRequest(s.payer.name, s.payee.name, 60_000), transactionRequestId: id },
    }),
  },
  'GET /thirdpartyRequests/transactions/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name }) },
  'PUT /thirdpartyRequests/transactions/{ID}': {
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      destination: s.pisp.name,
      body: { transactionId: crypto.randomUUID(), transactionRequestState: 'RECEIVED' },
    }),
  },
  'PATCH /thirdpartyRequests/transactions/{ID}': {
    build: (s, id) => ({
      params: { ID: id },
      source: s.payer.name,
      destination: s.pisp.name,
      body: { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' },
    }),
  },
  'PUT /thirdpartyRequests/transactions/{ID}/error': {
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }),
  },
  'POST /thirdpartyRequests/authorizations': {
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: s.pisp.name,
      body: { ...authorizationRequest(thirdpartyTransactionRequest(s.payer.name, s.payee.name, 60_000), signedPayload()), authorizationRequestId: id },
    }),
  },
  'GET /thirdpartyRequests/authorizations/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name }) },
  'PUT /thirdpartyRequests/authorizations/{ID}': {
    build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name, body: { responseType: 'REJECTED' } }),
  },
  'PUT /thirdpartyRequests/authorizations/{ID}/error': {
    build: (s, id) => ({ params: { ID: id }, source: s.pisp.name, destination: s.payer.name, body: partyNotFound }),
  },
  'POST /thirdpartyRequests/verifications': {
    // A verification against the payer's consent, which only the payer may ask for.
    build: (s, id) => ({
      params: {},
      source: s.payer.name,
      destination: AUTH_SERVICE,
      body: {
        verificationRequestId: id,
        challenge: signedPayload(),
        consentId: s.linking.consentId,
        signedPayloadType: 'GENERIC',
        genericSignedPayload: signedPayload(),
      },
      ...answered(`/thirdpartyRequests/verifications/${id}/error`),
    }),
  },
  'GET /thirdpartyRequests/verifications/{ID}': { build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: AUTH_SERVICE }) },
  'PUT /thirdpartyRequests/verifications/{ID}': {
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: { authenticationResponse: 'VERIFIED' } }),
  },
  'PUT /thirdpartyRequests/verifications/{ID}/error': {
    build: (s, id) => ({ params: { ID: id }, source: s.payer.name, destination: s.pisp.name, body: partyNotFound }),
  },
};

const account = (s: FuzzScheme) => String(s.settlementAccounts[s.payer.name]);

/** The central-ledger admin API: every path and method of its document, for the payer and its SETTLEMENT account. */
const ADMIN: Record<string, Declaration> = {
  'GET /enums': { build: () => ({ params: {} }) },
  'GET /health': { build: () => ({ params: {} }) },
  'GET /metrics': { build: () => ({ params: {} }) },
  'GET /participants': { build: () => ({ params: {} }) },
  'POST /participants': { build: () => ({ params: {}, body: { name: uniqueName('fuzz'), currency: 'USD' } }) },
  'GET /participants/limits': { build: () => ({ params: {}, query: 'currency=USD&type=NET_DEBIT_CAP' }) },
  'GET /participants/{name}': { build: (s) => ({ params: { name: s.payer.name } }) },
  'PUT /participants/{name}': { build: (s) => ({ params: { name: s.payer.name }, body: { isActive: true } }) },
  'GET /participants/{name}/endpoints': { build: (s) => ({ params: { name: s.payer.name } }) },
  'POST /participants/{name}/endpoints': {
    build: (s) => ({ params: { name: s.payer.name }, body: { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: `${s.payer.url}/transfers` } }),
  },
  'GET /participants/{name}/limits': { build: (s) => ({ params: { name: s.payer.name }, query: 'currency=USD' }) },
  'PUT /participants/{name}/limits': {
    build: (s) => ({ params: { name: s.payer.name }, body: { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 10_000, alarmPercentage: 10 } } }),
  },
  'GET /participants/{name}/positions': { build: (s) => ({ params: { name: s.payer.name }, query: 'currency=USD' }) },
  'GET /participants/{name}/accounts': { build: (s) => ({ params: { name: s.payer.name } }) },
  'POST /participants/{name}/accounts': { build: (s) => ({ params: { name: s.payer.name }, body: { currency: 'USD', type: 'SETTLEMENT' } }) },
  'POST /participants/{name}/initialPositionAndLimits': {
    build: (s) => ({ params: { name: s.payer.name }, body: { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 10_000 }, initialPosition: 0 } }),
  },
  'POST /participants/{name}/accounts/{id}': {
    build: (s) => ({
      params: { name: s.payer.name, id: account(s) },
      body: { transferId: crypto.randomUUID(), externalReference: 'fuzz', action: 'recordFundsIn', reason: 'fuzz', amount: { amount: 1, currency: 'USD' } },
    }),
  },
  'PUT /participants/{name}/accounts/{id}': { build: (s) => ({ params: { name: s.payer.name, id: account(s) }, body: { isActive: true } }) },
  'PUT /participants/{name}/accounts/{id}/transfers/{transferId}': {
    build: (s) => ({
      params: { name: s.payer.name, id: account(s), transferId: crypto.randomUUID() },
      body: { action: 'recordFundsOutCommit', reason: 'fuzz' },
    }),
  },
  'GET /ledgerAccountTypes': { build: () => ({ params: {} }) },
  'POST /ledgerAccountTypes': { build: () => ({ params: {}, body: { name: 'FUZZ', description: 'fuzz', isActive: true, isSettleable: false } }) },
  'GET /settlementModels': { build: () => ({ params: {} }) },
  'POST /settlementModels': {
    build: () => ({
      params: {},
      body: {
        name: uniqueName('fuzz'),
        settlementGranularity: 'GROSS',
        settlementInterchange: 'BILATERAL',
        settlementDelay: 'IMMEDIATE',
        currency: 'USD',
        requireLiquidityCheck: true,
        ledgerAccountType: 'POSITION',
        settlementAccountType: 'SETTLEMENT',
        autoPositionReset: true,
      },
    }),
  },
  'GET /settlementModels/{name}': { build: () => ({ params: { name: 'DEFERREDNET' } }) },
  'PUT /settlementModels/{name}': { build: () => ({ params: { name: 'DEFERREDNET' }, body: { isActive: true } }) },
  'GET /transactions/{id}': { build: (s) => ({ params: { id: s.conversations.transfers.finished! } }) },
};

const DECLARATIONS: Record<Api, Record<string, Declaration>> = { fspiop: FSPIOP, thirdparty: THIRDPARTY, admin: ADMIN };

/** The ID kinds an operation's message can name: a new ID always, and those of the scheme's conversations of its kind. */
export function idKindsOf(operation: Operation, scheme: FuzzScheme): IdKind[] {
  const names = DECLARATIONS[operation.api][operation.key]?.names;
  if (!names) return ['fresh'];
  if (names === 'party' || names === 'consent' || !scheme.conversations[names].finished) return ['fresh', 'inFlight'];
  return ['fresh', 'inFlight', 'finished'];
}

function idOf(scheme: FuzzScheme, names: Declaration['names'], kind: IdKind): string {
  if (names === 'party') return kind === 'fresh' ? msisdn() : scheme.party.partyIdentifier;
  if (names === 'consent') return kind === 'fresh' ? crypto.randomUUID() : scheme.linking.consentId;
  if (kind === 'fresh' || !names) return crypto.randomUUID();
  const ids = scheme.conversations[names];
  return kind === 'inFlight' ? ids.inFlight : ids.finished!;
}

/** The operation's valid message naming an ID of `kind`; undefined for an operation the suite has no sample of. */
export function sampleOf(operation: Operation, scheme: FuzzScheme, kind: IdKind): Message | undefined {
  const declaration = DECLARATIONS[operation.api][operation.key];
  return declaration?.build(scheme, idOf(scheme, declaration.names, kind));
}

/** The operation's path with its parameters filled in, as they are: a spoiled one stays spoiled. */
export function pathWith(operation: Operation, params: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
}
