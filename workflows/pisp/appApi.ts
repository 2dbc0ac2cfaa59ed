import type { thirdparty } from '@mojaloop/api-snippets';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';
import type { Expiration } from '../../activities/shared/contracts/expiry';

// The PISP app's calls (the outbound API of Mojaloop's thirdparty-sdk in PISP mode, src/interface/api-outbound.yaml),
// each a workflow update answered with the SDK's response body once the callback it waits for has come. Shared by the
// outbound gateway (which sends them) and the conversations (which answer them).

/** Every answer that failed: the SDK's `errored` state (`partyLookupFailure` for a party lookup) and why. */
export interface Errored<State extends string = 'errored'> {
  currentState: State;
  errorInformation: ErrorInformation;
}

// Linking (src/models/outbound/pispLinking.model.ts)

/** POST /linking/request-consent */
export interface LinkingRequestConsentPostRequest {
  toParticipantId: string;
  consentRequestId: string;
  accounts: thirdparty.Schemas.Account[];
  actions: thirdparty.Schemas.ScopeAction[];
  userId: string;
  callbackUri: string;
}
/** The DFSP's PUT /consentRequests/{ID}: the WEB channel's authUri, or the OTP channel. */
export type ChannelResponse = thirdparty.Schemas.ConsentRequestsIDPutResponseWeb | thirdparty.Schemas.ConsentRequestsIDPutResponseOTP;
export type LinkingRequestConsentResponse =
  | {
      channelResponse: ChannelResponse;
      currentState: 'WebAuthenticationChannelResponseReceived' | 'OTPAuthenticationChannelResponseReceived';
    }
  | Errored;

/** PATCH /linking/request-consent/{ID}/authenticate */
export interface LinkingRequestConsentIDAuthenticateRequest {
  authToken: string;
}
export type LinkingRequestConsentIDAuthenticateResponse =
  { consent: thirdparty.Schemas.ConsentsPostRequestPISP; challenge: string; currentState: 'consentReceivedAwaitingCredential' } | Errored;

/**
 * POST /linking/request-consent/{ID}/pass-credential: the FIDO attestation the user's device made over the challenge
 * (the SDK's body), or — this connector's addition — `credentialType: 'GENERIC'` to have the connector register a key
 * of its own for the consent and sign the challenge with it.
 */
export interface LinkingRequestConsentIDPassCredentialRequest {
  credential: { payload: thirdparty.Schemas.FIDOPublicKeyCredentialAttestation } | { credentialType: 'GENERIC' };
}
export type LinkingRequestConsentIDPassCredentialResponse = { credential: { status: 'VERIFIED' }; currentState: 'accountsLinked' } | Errored;

/**
 * DELETE /linking/consents/{consentId}: this connector's addition to the SDK's outbound API, which has no unlinking.
 * The PISP sends DELETE /consents/{ID} to the consent's DFSP (Document 1, linking rules 5 and 6) and answers once the
 * PATCH /consents/{ID} REVOKED (or PUT /consents/{ID}/error) has come. The connector knows the DFSP of a consent one
 * of its linkings was granted; `toParticipantId` names it for a consent linked elsewhere.
 */
export interface LinkingConsentsIDDeleteRequest {
  toParticipantId?: string;
}
export type LinkingConsentsIDDeleteResponse =
  { consent: { consentId: string; status: 'REVOKED'; revokedAt: string }; currentState: 'consentRevoked' } | Errored;

// Third-party transaction (src/models/pispTransaction.model.ts)

/** POST /thirdpartyTransaction/partyLookup */
export interface ThirdpartyTransactionPartyLookupRequest {
  transactionRequestId: string;
  payee: thirdparty.Schemas.PartyIdInfo;
}
export type ThirdpartyTransactionPartyLookupResponse =
  { party: thirdparty.Schemas.Party; currentState: 'partyLookupSuccess' } | Errored<'partyLookupFailure'> | Errored;

/** POST /thirdpartyTransaction/{ID}/initiate */
export interface ThirdpartyTransactionIDInitiateRequest {
  payee: thirdparty.Schemas.Party;
  payer: thirdparty.Schemas.PartyIdInfoTPLink;
  amountType: thirdparty.Schemas.AmountType;
  amount: thirdparty.Schemas.Money;
  transactionType: thirdparty.Schemas.TransactionType;
  /** Read at the edge (api/pisp/appBodies.ts: the DateTime schema). */
  expiration: Expiration;
}
export type ThirdpartyTransactionIDInitiateResponse =
  { authorization: thirdparty.Schemas.ThirdpartyRequestsAuthorizationsPostRequest; currentState: 'authorizationReceived' } | Errored;

/**
 * POST /thirdpartyTransaction/{ID}/approve: the user's decision as PUT /thirdpartyRequests/authorizations/{ID} carries
 * it. A GENERIC acceptance may leave out `genericSignedPayload`: the connector signs the challenge with the key of the
 * consent that covers the payer's account.
 */
export interface ThirdpartyTransactionIDApproveRequest {
  authorizationResponse:
    | thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseRejected
    | thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseFIDO
    | thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseGeneric
    | { responseType: 'ACCEPTED'; signedPayload: { signedPayloadType: 'GENERIC' } };
}
export type ThirdpartyTransactionIDApproveResponse =
  | {
      transactionStatus: thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPatchResponse;
      currentState: 'transactionStatusReceived';
    }
  | Errored;

/**
 * GET /thirdpartyTransaction/{ID}: this connector's addition to the SDK's outbound API, which has none. Where the payment
 * stands, and its final outcome once known: the approve call answers at REQUEST_TIMEOUT_MS as the SDK does, but the
 * conversation listens for the DFSP's outcome until the request's expiration (Document 1, "Timeout"), and the app
 * learns it here. After the expiration with no outcome, `transactionRequestState` is what the DFSP last said of the
 * request (its PUT /thirdpartyRequests/transactions/{ID}), if anything.
 */
export interface ThirdpartyTransactionIDGetResponse {
  transactionRequestId: string;
  currentState: string;
  transactionStatus?: thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPatchResponse;
  transactionRequestState?: string;
  errorInformation?: ErrorInformation;
}

export const requestConsent = defineUpdate<LinkingRequestConsentResponse, [LinkingRequestConsentPostRequest]>('requestConsent');
export const authenticate = defineUpdate<LinkingRequestConsentIDAuthenticateResponse, [LinkingRequestConsentIDAuthenticateRequest]>('authenticate');
export const passCredential = defineUpdate<LinkingRequestConsentIDPassCredentialResponse, [LinkingRequestConsentIDPassCredentialRequest]>('passCredential');
export const partyLookup = defineUpdate<ThirdpartyTransactionPartyLookupResponse, [ThirdpartyTransactionPartyLookupRequest]>('partyLookup');
export const initiate = defineUpdate<ThirdpartyTransactionIDInitiateResponse, [ThirdpartyTransactionIDInitiateRequest]>('initiate');
export const approve = defineUpdate<ThirdpartyTransactionIDApproveResponse, [ThirdpartyTransactionIDApproveRequest]>('approve');
export const transactionStatusQuery = defineQuery<Omit<ThirdpartyTransactionIDGetResponse, 'transactionRequestId'>>('transactionStatus');

/** What a PISP conversation is started with. */
export interface PispConversationInput {
  /** REQUEST_TIMEOUT_MS: how long each call waits for the callback that answers it. */
  requestTimeoutMs: number;
}
