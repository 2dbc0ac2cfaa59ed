/**
 * Participant endpoint types (Document 3, "Endpoint entry"; central-ledger's `endpointType` table): the
 * addresses the switch delivers each kind of message to. One list, from which the admin API's checks, the
 * delivery code and the test DFSPs all derive.
 */
export const FSPIOP_ENDPOINT_TYPES = [
  'FSPIOP_CALLBACK_URL_PARTIES_GET',
  'FSPIOP_CALLBACK_URL_PARTIES_PUT',
  'FSPIOP_CALLBACK_URL_PARTIES_PUT_ERROR',
  'FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_GET',
  'FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT',
  'FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT_ERROR',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_PUT',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_PUT_ERROR',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT_ERROR',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_DELETE',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT',
  'FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT_ERROR',
  'FSPIOP_CALLBACK_URL_AUTHORIZATIONS',
  'FSPIOP_CALLBACK_URL_QUOTES',
  'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE',
  'FSPIOP_CALLBACK_URL_TRANSFER_POST',
  'FSPIOP_CALLBACK_URL_TRANSFER_PUT',
  'FSPIOP_CALLBACK_URL_TRANSFER_ERROR',
  'FSPIOP_CALLBACK_URL_BULK_TRANSFER_POST',
  'FSPIOP_CALLBACK_URL_BULK_TRANSFER_PUT',
  'FSPIOP_CALLBACK_URL_BULK_TRANSFER_ERROR',
  'FSPIOP_CALLBACK_URL_BULK_QUOTES',
  'FSPIOP_CALLBACK_URL_TRANSACTION_REQUEST_AUTH',
] as const;

/**
 * Third-party API addresses (Mojaloop's `TP_CB_URL_*` types, as central-ledger seeds them), each a base address
 * to which the switch appends the API path (`/thirdpartyRequests/transactions/{ID}/error`), as Mojaloop's
 * thirdparty-api-svc renders them, so a participant provisioned for Mojaloop's third-party services works unchanged.
 */
export const THIRDPARTY_ENDPOINT_TYPES = [
  'TP_CB_URL_TRANSACTION_REQUEST_GET',
  'TP_CB_URL_TRANSACTION_REQUEST_POST',
  'TP_CB_URL_TRANSACTION_REQUEST_PUT',
  'TP_CB_URL_TRANSACTION_REQUEST_PUT_ERROR',
  'TP_CB_URL_TRANSACTION_REQUEST_PATCH',
  'TP_CB_URL_TRANSACTION_REQUEST_AUTH_POST',
  'TP_CB_URL_TRANSACTION_REQUEST_AUTH_PUT',
  'TP_CB_URL_TRANSACTION_REQUEST_AUTH_PUT_ERROR',
  'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_POST',
  'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_PUT',
  'TP_CB_URL_TRANSACTION_REQUEST_VERIFY_PUT_ERROR',
  'TP_CB_URL_CONSENT_REQUEST_POST',
  'TP_CB_URL_CONSENT_REQUEST_PUT',
  'TP_CB_URL_CONSENT_REQUEST_PUT_ERROR',
  'TP_CB_URL_CONSENT_REQUEST_PATCH',
  'TP_CB_URL_CREATE_CREDENTIAL_POST',
  'TP_CB_URL_CONSENT_POST',
  'TP_CB_URL_CONSENT_GET',
  'TP_CB_URL_CONSENT_PUT',
  'TP_CB_URL_CONSENT_PATCH',
  'TP_CB_URL_CONSENT_PUT_ERROR',
  'TP_CB_URL_CONSENT_GENERATE_CHALLENGE_POST',
  'TP_CB_URL_CONSENT_GENERATE_CHALLENGE_PUT_ERROR',
  'TP_CB_URL_ACCOUNTS_GET',
  'TP_CB_URL_ACCOUNTS_PUT',
  'TP_CB_URL_ACCOUNTS_PUT_ERROR',
  'TP_CB_URL_SERVICES_GET',
  'TP_CB_URL_SERVICES_PUT',
  'TP_CB_URL_SERVICES_PUT_ERROR',
] as const;

/** Notification addresses central-ledger keeps beside the callbacks; the switch stores them but sends nothing there. */
export const NOTIFICATION_ENDPOINT_TYPES = [
  'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL',
  'NET_DEBIT_CAP_ADJUSTMENT_EMAIL',
  'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL',
  // The hub's own: where its operator hears that the ledger check found an invariant broken (ledger/ledgerChecks.ts).
  'LEDGER_INVARIANT_VIOLATION_EMAIL',
] as const;

export const ENDPOINT_TYPES = [...FSPIOP_ENDPOINT_TYPES, ...THIRDPARTY_ENDPOINT_TYPES, ...NOTIFICATION_ENDPOINT_TYPES] as const;

export type FspiopEndpointType = (typeof FSPIOP_ENDPOINT_TYPES)[number];
export type ThirdpartyEndpointType = (typeof THIRDPARTY_ENDPOINT_TYPES)[number];
/** The endpoints the switch delivers messages to. */
export type CallbackEndpointType = FspiopEndpointType | ThirdpartyEndpointType;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

export function isEndpointType(value: string): value is EndpointType {
  return (ENDPOINT_TYPES as readonly string[]).includes(value);
}

/**
 * Endpoint types registered as a base address, to which the switch appends the API path
 * (`/quotes/{ID}/error`); the others are templates with `{{placeholders}}` filled per message.
 */
export const BASE_ADDRESS_ENDPOINT_TYPES: readonly CallbackEndpointType[] = [
  'FSPIOP_CALLBACK_URL_QUOTES',
  'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE',
  'FSPIOP_CALLBACK_URL_AUTHORIZATIONS',
  'FSPIOP_CALLBACK_URL_BULK_QUOTES',
  ...THIRDPARTY_ENDPOINT_TYPES,
];
