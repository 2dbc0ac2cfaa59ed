import type { ErrorInformation } from './errors';

/**
 * The errors the third-party DFSP role reports. The consent request codes are Document 1's (Errors); the others are
 * those Mojaloop's thirdparty-sdk sends in the same places (its dfspLinking and dfspTransaction models, with the
 * wording of sdk-standard-components' catalogue), so a PISP written for Mojaloop reads them as it expects.
 */
export const thirdpartyErrors = {
  // Document 1, consent requests
  unsupportedScopes: { code: '6101', description: 'Unsupported scopes were requested' },
  consentRequestRejected: { code: '6104', description: 'Thirdparty request rejection' },
  badCallbackUri: { code: '6204', description: 'Bad callbackUri' },
  unknownUser: { code: '6205', description: 'No user found for the identifier' },
  // thirdparty-sdk, linking
  accountLinkingError: { code: '7200', description: 'Generic Thirdparty account linking error' },
  otpValidationError: { code: '7205', description: 'OTP failed validation' },
  consentInvalid: { code: '7213', description: 'Consent is invalid' },
  failedToRegisterAccountLinks: { code: '7214', description: 'Failed to register account links with oracle' },
  // thirdparty-sdk, transaction requests
  transactionRequestNotValid: { code: '7101', description: 'Transaction request failed DFSP validation' },
  quoteFailed: { code: '7103', description: 'Transaction request quote send to payee DFSP failed' },
  authorizationFailed: { code: '7104', description: 'Transaction request for user authorization send to PISP failed' },
  authorizationNotValid: { code: '7105', description: 'Authorization received from PISP failed DFSP validation' },
  transferFailed: { code: '7108', description: 'Transaction request transfer failed' },
  authServiceError: { code: '7300', description: 'Generic Thirdparty auth service error' },
  // FSPIOP (Document 2)
  transactionRequestIdNotFound: { code: '3206', description: 'Transaction request ID not found' },
  transactionRequestExpired: { code: '3301', description: 'Transaction request expired' },
} as const;

export type ThirdpartyErrorName = keyof typeof thirdpartyErrors;

/** ErrorInformation with the catalogue's code and wording, then the detail, cut to the schema's 128 characters. */
export function thirdpartyError(name: ThirdpartyErrorName, detail?: string): ErrorInformation {
  const { code, description } = thirdpartyErrors[name];
  return { errorCode: code, errorDescription: (detail ? `${description} - ${detail}` : description).slice(0, 128) };
}

/** How a check of the bank's came out: fine, with what it found, or the error to send. */
export type Checked<T> = ({ ok: true } & T) | { ok: false; errorInformation: ErrorInformation };
