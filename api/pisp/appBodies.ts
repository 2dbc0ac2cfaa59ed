import { HttpError } from '../../activities/shared/platform/httpError';
import { tagOf, validateThirdparty, ThirdpartySchema } from '../../activities/shared/contracts/schemas';
import type {
  LinkingConsentsIDDeleteRequest,
  LinkingRequestConsentIDAuthenticateRequest,
  LinkingRequestConsentIDPassCredentialRequest,
  LinkingRequestConsentPostRequest,
  ThirdpartyTransactionIDApproveRequest,
  ThirdpartyTransactionIDInitiateRequest,
  ThirdpartyTransactionPartyLookupRequest,
} from '../../workflows/pisp/appApi';

/**
 * The app's request bodies (thirdparty-sdk's outbound API), checked field by field against the third-party schemas
 * they are made of, so a bad body is refused 400 with the ErrorInformation that names the field.
 */

function objectOf(body: unknown, where = 'body'): Record<string, unknown> {
  if (body === undefined) throw new HttpError(400, 'missingElement', `${where} is required`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'malformedSyntax', `${where} must be a JSON object`);
  return body as Record<string, unknown>;
}

function field(body: Record<string, unknown>, name: string, schema: ThirdpartySchema | 'string', where = name): void {
  const value = body[name];
  if (value === undefined) throw new HttpError(400, 'missingElement', `${where} is required`);
  if (schema === 'string') {
    if (typeof value !== 'string' || value === '') throw new HttpError(400, 'malformedSyntax', `${where} must be a non-empty string`);
  } else validateThirdparty(schema, value, where);
}

function list(body: Record<string, unknown>, name: string, schema: ThirdpartySchema): void {
  const value = body[name];
  if (value === undefined) throw new HttpError(400, 'missingElement', `${name} is required`);
  if (!Array.isArray(value) || value.length === 0) throw new HttpError(400, 'malformedSyntax', `${name} must be a non-empty array`);
  value.forEach((item, index) => validateThirdparty(schema, item, `${name}[${index}]`));
}

export function linkingRequestConsent(value: unknown): LinkingRequestConsentPostRequest {
  const body = objectOf(value);
  field(body, 'toParticipantId', 'FspId');
  field(body, 'consentRequestId', 'CorrelationId');
  list(body, 'accounts', 'Account');
  list(body, 'actions', 'ScopeAction');
  field(body, 'userId', 'string');
  field(body, 'callbackUri', 'string');
  return body as unknown as LinkingRequestConsentPostRequest;
}

export function linkingAuthenticate(value: unknown): LinkingRequestConsentIDAuthenticateRequest {
  const body = objectOf(value);
  field(body, 'authToken', 'string');
  return { authToken: body.authToken as string };
}

export function linkingPassCredential(value: unknown): LinkingRequestConsentIDPassCredentialRequest {
  const credential = objectOf(objectOf(value).credential, 'credential');
  if (credential.credentialType === 'GENERIC' && credential.payload === undefined) return { credential: { credentialType: 'GENERIC' } };
  field(credential, 'payload', 'FIDOPublicKeyCredentialAttestation', 'credential.payload');
  return { credential: { payload: credential.payload as never } };
}

/** DELETE /linking/consents/{consentId}: no body, or one naming the consent's DFSP; the query may name it instead. */
export function unlinkingRequest(value: unknown, query: unknown): LinkingConsentsIDDeleteRequest {
  const body = value === undefined ? {} : objectOf(value);
  if (body.toParticipantId === undefined && query !== undefined) body.toParticipantId = query;
  if (body.toParticipantId === undefined) return {};
  field(body, 'toParticipantId', 'FspId');
  return { toParticipantId: body.toParticipantId as string };
}

export function partyLookupRequest(value: unknown): ThirdpartyTransactionPartyLookupRequest {
  const body = objectOf(value);
  field(body, 'transactionRequestId', 'CorrelationId');
  field(body, 'payee', 'PartyIdInfo');
  return body as unknown as ThirdpartyTransactionPartyLookupRequest;
}

export function initiateRequest(value: unknown): ThirdpartyTransactionIDInitiateRequest {
  const body = objectOf(value);
  field(body, 'payee', 'Party');
  field(body, 'payer', 'PartyIdInfoTPLink');
  // Document 1: payer.fspId is the DFSP that issued the link, where the request goes.
  field(objectOf(body.payer, 'payer'), 'fspId', 'FspId', 'payer.fspId');
  field(body, 'amountType', 'AmountType');
  field(body, 'amount', 'Money');
  field(body, 'transactionType', 'TransactionType');
  field(body, 'expiration', 'DateTime');
  return body as unknown as ThirdpartyTransactionIDInitiateRequest;
}

/** The user's decision: REJECTED, a FIDO assertion, a GENERIC signature, or a GENERIC acceptance for the connector to sign. */
export function approveRequest(value: unknown): ThirdpartyTransactionIDApproveRequest {
  const response = objectOf(objectOf(value).authorizationResponse, 'authorizationResponse');
  const type = tagOf(response, 'signedPayload', 'signedPayloadType');
  if (response.responseType === 'REJECTED') validateThirdparty('ThirdpartyRequestsAuthorizationsIDPutResponseRejected', response, 'authorizationResponse');
  else if (type === 'FIDO') validateThirdparty('ThirdpartyRequestsAuthorizationsIDPutResponseFIDO', response, 'authorizationResponse');
  else if (type === 'GENERIC' && tagOf(response, 'signedPayload', 'genericSignedPayload') !== undefined)
    validateThirdparty('ThirdpartyRequestsAuthorizationsIDPutResponseGeneric', response, 'authorizationResponse');
  else if (type !== 'GENERIC' || response.responseType !== 'ACCEPTED')
    throw new HttpError(400, 'validationError', 'authorizationResponse must be REJECTED, or ACCEPTED with a FIDO or GENERIC signedPayload');
  return { authorizationResponse: response as ThirdpartyTransactionIDApproveRequest['authorizationResponse'] };
}
