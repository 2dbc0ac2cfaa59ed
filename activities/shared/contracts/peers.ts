import type { MessageName, Resource } from './conversations';
import type { ErrorInformation } from './errors';

/**
 * The participant side of the scheme: the DFSP and PISP connectors that run in this codebase. Their conversations
 * are workflows too, in a Temporal namespace of the participant's own, named so an operator finds them as the hub's.
 */
export const participantWorkflowIds = {
  /** A PISP linking a user's account: pre-linking, discovery, consent request, authentication, grant, credential. */
  pispLinking: (consentRequestId: string) => `pispLinking/${consentRequestId}`,
  /** A payment the PISP initiates from a linked account: lookup, initiate, authorization, final outcome. */
  pispTransaction: (transactionRequestId: string) => `pispTransaction/${transactionRequestId}`,
  /** The PISP's app unlinking a consent (this connector's addition to the SDK's API): DELETE /consents/{ID} to its DFSP. */
  pispUnlinking: (consentId: string) => `pispUnlinking/${consentId}`,
  /** A DFSP's side of a linking: the consent request, the user's authentication, the consent and its credential. */
  dfspLinking: (consentRequestId: string) => `dfspLinking/${consentRequestId}`,
  /** A payer DFSP's side of a third-party transaction request: checks, quote, authorization, verification, transfer. */
  dfspThirdpartyTransaction: (transactionRequestId: string) => `dfspThirdpartyTransaction/${transactionRequestId}`,
  /**
   * A payee DFSP answering one lookup of one of its parties (`{Type}/{ID}[/{SubId}]`): backend, then PUT /parties.
   * Each lookup is a workflow of its own (`lookupId` is unique), so a party looked up without pause grows no history.
   */
  payeeParty: (partyId: string, lookupId: string) => `payeeParty/${partyId}/${lookupId}`,
  /** A payee DFSP's quote: backend quote, ILP packet and condition, PUT /quotes; repeats answered until it expires. */
  payeeQuote: (quoteId: string) => `payeeQuote/${quoteId}`,
  /** A payee DFSP's transfer: fulfilment re-derived and checked, backend credits the payee, PUT /transfers. */
  payeeTransfer: (transferId: string) => `payeeTransfer/${transferId}`,
  /** A payer DFSP's transfer asked for on its outbound API (sdk-scheme-adapter POST /transfers): lookup, quote, transfer. */
  dfspTransfer: (transferId: string) => `dfspTransfer/${transferId}`,
  /**
   * One request a connector sends and the answer it waits for, named by the resource and ID the answer comes back
   * on (`quotes/<quoteId>`, `thirdpartyRequests/authorizations/<authorizationRequestId>`): the connector's gateway
   * hands an answer to the exchange waiting for it without knowing which conversation started it.
   */
  exchange: (resource: Resource, id: string) => `${resource}/${id}`,
} as const;

/** A message a connector received from the switch, as the gateway hands it to the workflow it belongs to. */
export interface PeerMessage<Body = unknown> {
  resource: Resource;
  name: MessageName;
  /** The path ID: `{ID}`, or `{Type}/{ID}[/{SubId}]` for parties and participants; absent on a POST. */
  id?: string;
  /** FSPIOP-Source: who sent it. */
  source: string;
  /**
   * Whether FSPIOP-Source is the switch's own name (HUB_PARTICIPANT_NAME): the switch speaking for itself, not
   * relaying a participant. Absent from messages recorded before connectors told the two apart.
   */
  fromSwitch?: boolean;
  /**
   * False where the connector cannot tell that the switch's connection carried it (VALIDATE_INBOUND_JWS alone): a
   * participant's signed message then reads the same whether the switch relayed it or the participant sent it
   * straight to the connector. Absent where the connection is the switch's, and from messages recorded before.
   */
  viaSwitch?: false;
  headers: Record<string, string>;
  /** Parsed and validated against the resource's schema; undefined for a GET or DELETE. */
  body: Body;
}

/** A message a connector sends to the switch, as its own (it is the FSPIOP-Source). */
export interface OutgoingMessage {
  /** FSPIOP-Destination; absent where the switch finds the addressee itself (GET /parties). */
  to?: string;
  resource: Resource;
  name: MessageName;
  /** The path ID, as in PeerMessage; absent on a POST, except one to `/participants/{Type}/{ID}`. */
  id?: string;
  body?: unknown;
}

/**
 * The API path of a message: POST `/{resource}`, else `/{resource}/{ID}`, `…/error` for an error. A POST with an ID
 * is one that names its resource in the path: POST /participants/{Type}/{ID} (Document 1's THIRD_PARTY_LINK).
 */
export function pathOf({ resource, name, id }: Pick<OutgoingMessage, 'resource' | 'name' | 'id'>): string {
  if (name === 'request' && id === undefined) return `/${resource}`;
  if (id === undefined) throw new Error(`a ${name} on ${resource} needs an ID`);
  // {Type}/{ID}/{SubId} of parties and participants are separate path segments; any other ID is one.
  const segments = resource === 'parties' || resource === 'participants' ? id.split('/') : [id];
  return `/${resource}/${segments.map(encodeURIComponent).join('/')}${name === 'error' ? '/error' : ''}`;
}

/** The HTTP method of each kind of message. */
export const METHOD_OF: Record<MessageName, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'> = {
  request: 'POST',
  get: 'GET',
  answer: 'PUT',
  error: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};

/** The ErrorInformation of an error callback (PUT …/error). */
export const errorInformationOf = (message: PeerMessage): ErrorInformation => (message.body as { errorInformation: ErrorInformation }).errorInformation;
