/**
 * The FSPIOP error catalogue (API Definition v1.1, section 7.6), shared by the gateways, the activities
 * and the workflows so every error the hub reports carries the spec's code and Mojaloop's wording: DFSPs
 * match on the start of errorDescription, so each description is the name Mojaloop's catalogue gives it.
 */
export const fspiopErrors = {
  communicationError: { code: '1000', description: 'Communication error' },
  destinationCommunicationError: { code: '1001', description: 'Destination communication error' },
  serverError: { code: '2000', description: 'Generic server error' },
  internalServerError: { code: '2001', description: 'Internal server error' },
  notImplemented: { code: '2002', description: 'Not implemented' },
  serviceUnavailable: { code: '2003', description: 'Service currently unavailable' },
  serverTimedOut: { code: '2004', description: 'Server timed out' },
  serverBusy: { code: '2005', description: 'Server busy' },
  clientError: { code: '3000', description: 'Generic client error' },
  unacceptableVersion: { code: '3001', description: 'Unacceptable version requested' },
  unknownUri: { code: '3002', description: 'Unknown URI' },
  addPartyInfoError: { code: '3003', description: 'Add Party information error' },
  deletePartyInfoError: { code: '3040', description: 'Delete Party information error' },
  validationError: { code: '3100', description: 'Generic validation error' },
  malformedSyntax: { code: '3101', description: 'Malformed syntax' },
  missingElement: { code: '3102', description: 'Missing mandatory element' },
  tooManyElements: { code: '3103', description: 'Too many elements' },
  tooLargePayload: { code: '3104', description: 'Too large payload' },
  invalidSignature: { code: '3105', description: 'Invalid signature' },
  modifiedRequest: { code: '3106', description: 'Modified request' },
  missingMandatoryExtension: { code: '3107', description: 'Missing mandatory extension parameter' },
  idNotFound: { code: '3200', description: 'Generic ID not found' },
  destinationFspError: { code: '3201', description: 'Destination FSP Error' },
  payerFspIdNotFound: { code: '3202', description: 'Payer FSP ID not found' },
  payeeFspIdNotFound: { code: '3203', description: 'Payee FSP ID not found' },
  partyNotFound: { code: '3204', description: 'Party not found' },
  quoteIdNotFound: { code: '3205', description: 'Quote ID not found' },
  transactionRequestIdNotFound: { code: '3206', description: 'Transaction request ID not found' },
  transactionIdNotFound: { code: '3207', description: 'Transaction ID not found' },
  transferIdNotFound: { code: '3208', description: 'Transfer ID not found' },
  bulkQuoteIdNotFound: { code: '3209', description: 'Bulk quote ID not found' },
  bulkTransferIdNotFound: { code: '3210', description: 'Bulk transfer ID not found' },
  expired: { code: '3300', description: 'Generic expired error' },
  transactionRequestExpired: { code: '3301', description: 'Transaction request expired' },
  quoteExpired: { code: '3302', description: 'Quote expired' },
  transferExpired: { code: '3303', description: 'Transfer expired' },
  payerError: { code: '4000', description: 'Generic Payer error' },
  payerInsufficientLiquidity: { code: '4001', description: 'Payer FSP insufficient liquidity' },
  payerRejection: { code: '4100', description: 'Generic Payer rejection' },
  payerRejectedTransactionRequest: { code: '4101', description: 'Payer rejected transaction request' },
  payerFspUnsupportedTransactionType: { code: '4102', description: 'Payer FSP unsupported transaction type' },
  payerUnsupportedCurrency: { code: '4103', description: 'Payer unsupported currency' },
  payerLimitError: { code: '4200', description: 'Payer limit error' },
  payerPermissionError: { code: '4300', description: 'Payer permission error' },
  payerBlocked: { code: '4400', description: 'Generic Payer blocked error' },
  payeeError: { code: '5000', description: 'Generic Payee error' },
  payeeInsufficientLiquidity: { code: '5001', description: 'Payee FSP insufficient liquidity' },
  payeeRejection: { code: '5100', description: 'Generic Payee rejection' },
  payeeRejectedQuote: { code: '5101', description: 'Payee rejected quote' },
  payeeFspUnsupportedTransactionType: { code: '5102', description: 'Payee FSP unsupported transaction type' },
  payeeFspRejectedQuote: { code: '5103', description: 'Payee FSP rejected quote' },
  payeeRejectedTransaction: { code: '5104', description: 'Payee rejected transaction' },
  payeeFspRejectedTransaction: { code: '5105', description: 'Payee FSP rejected transaction' },
  payeeUnsupportedCurrency: { code: '5106', description: 'Payee unsupported currency' },
  payeeLimitError: { code: '5200', description: 'Payee limit error' },
  payeePermissionError: { code: '5300', description: 'Payee permission error' },
  payeeBlocked: { code: '5400', description: 'Generic Payee blocked error' },
  // Document 1's consent request errors, as the third-party DFSP role reports them.
  unsupportedScopes: { code: '6101', description: 'Unsupported scopes were requested' },
  consentRequestRejected: { code: '6104', description: 'Thirdparty request rejection' },
  badCallbackUri: { code: '6204', description: 'Bad callbackUri' },
  unknownUser: { code: '6205', description: 'No user found for the identifier' },
  // The third-party codes of Mojaloop's catalogue (central-services-error-handling), which the hub's Auth service and
  // the DFSP connector send where Mojaloop's thirdparty-sdk sends them, in the catalogue's wording.
  transactionRequestNotValid: { code: '7101', description: 'Transaction request failed DFSP validation' },
  transactionRequestQuoteFailed: { code: '7103', description: 'Transaction request quote send to payee DFSP failed' },
  transactionRequestAuthorizationFailed: { code: '7104', description: 'Transaction request for user authorization send to PISP failed' },
  transactionRequestTransferFailed: { code: '7108', description: 'Transaction request transfer failed' },
  otpValidationError: { code: '7205', description: 'OTP failed validation' },
  failedToRegisterAccountLinks: { code: '7214', description: 'Failed to register account links with oracle' },
  thirdpartyTransactionAuthorizationNotValid: { code: '7105', description: 'Authorization received from PISP failed DFSP validation' },
  thirdpartyAccountLinkingError: { code: '7200', description: 'Generic Thirdparty account linking error' },
  signedChallengeMismatch: { code: '7212', description: 'Signed challenge does not match derived challenge' },
  consentInvalid: { code: '7213', description: 'Consent is invalid' },
  thirdpartyAuthServiceError: { code: '7300', description: 'Generic Thirdparty auth service error' },
} as const;

export type FspiopErrorName = keyof typeof fspiopErrors;

export interface ErrorInformation {
  errorCode: string;
  errorDescription: string;
  extensionList?: { extension: Array<{ key: string; value: string }> };
}

/**
 * Failure type of a business rejection raised by an activity (a HubError); details[0] is its ErrorInformation.
 * It lives here, beside the catalogue, so the activity side can name it without loading `@temporalio/workflow`.
 */
export const HUB_REJECTION = 'HubRejection';

/** The longest errorDescription the FSPIOP schema allows (ErrorDescription, maxLength 128). */
const MAX_DESCRIPTION = 128;

/** ErrorInformation in Mojaloop's wording: the catalogue description, then the detail, cut to the schema's length. */
export function errorInformation(name: FspiopErrorName, detail?: string): ErrorInformation {
  const { code, description } = fspiopErrors[name];
  return { errorCode: code, errorDescription: (detail ? `${description} - ${detail}` : description).slice(0, MAX_DESCRIPTION) };
}
