// Credentials made by a real authenticator for Mojaloop's auth-service, from its integration test of registering a
// consent and verifying a transaction (mojaloop/auth-service, test/integration/server/workflows/verifyTransaction.test.ts,
// at 41fca0180e13174f7e2838a0e86dcd33e1d50ae2): a YubiKey's fido-u2f attestation made through Mojaloop's test app
// (contrib-fido-test-ui) at http://localhost:8080, and an assertion of the same key. They are test data, quoted as is.

import type { thirdparty } from '@mojaloop/api-snippets';

export const yubikeyConsent: Pick<thirdparty.Schemas.ConsentsPostRequestAUTH, 'consentId' | 'scopes' | 'credential'> = {
  consentId: 'be433b9e-9473-4b7d-bdd5-ac5b42463afb',
  scopes: [
    { actions: ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'], address: '412ddd18-07a0-490d-814d-27d0e9af9982' },
    { actions: ['ACCOUNTS_GET_BALANCE'], address: '10e88508-e542-4630-be7f-bc0076029ea7' },
  ],
  credential: {
    credentialType: 'FIDO',
    status: 'PENDING',
    fidoPayload: {
      id: 'N_L4HWcqQH0uDSGl6nwYtKfWsuWY_0f1_CbLwCoQchLgiCB866aXc7F08T69oQ6c10grLMaeVhXag4d8OdwA9Q',
      rawId: 'N/L4HWcqQH0uDSGl6nwYtKfWsuWY/0f1/CbLwCoQchLgiCB866aXc7F08T69oQ6c10grLMaeVhXag4d8OdwA9Q==',
      response: {
        attestationObject:
          'o2NmbXRoZmlkby11MmZnYXR0U3RtdKJjc2lnWEcwRQIhAMewwET/ekF0fFwBKHEiKr6bIyEuJb3GlS1QT/oJKBLcAiAPukDS55G7pKV358QrL4t0IuBbsGtru+iiR51OdhlsAWN4NWOBWQLcMIIC2DCCAcCgAwIBAgIJALA5KjdfOKLrMA0GCSqGSIb3DQEBCwUAMC4xLDAqBgNVBAMTI1l1YmljbyBVMkYgUm9vdCBDQSBTZXJpYWwgNDU3MjAwNjMxMCAXDTE0MDgwMTAwMDAwMFoYDzIwNTAwOTA0MDAwMDAwWjBuMQswCQYDVQQGEwJTRTESMBAGA1UECgwJWXViaWNvIEFCMSIwIAYDVQQLDBlBdXRoZW50aWNhdG9yIEF0dGVzdGF0aW9uMScwJQYDVQQDDB5ZdWJpY28gVTJGIEVFIFNlcmlhbCA5MjU1MTQxNjAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATBUzDbxw7VyKPri/NcB5oy/eVWBkwkXfQNU1gLc+nLR5EP7xcV93l5aHDpq1wXjOuZA5jBJoWpb6nbhhWOI9nCo4GBMH8wEwYKKwYBBAGCxAoNAQQFBAMFBAMwIgYJKwYBBAGCxAoCBBUxLjMuNi4xLjQuMS40MTQ4Mi4xLjcwEwYLKwYBBAGC5RwCAQEEBAMCBDAwIQYLKwYBBAGC5RwBAQQEEgQQL8BXn4ETR+qxFrtajbkgKjAMBgNVHRMBAf8EAjAAMA0GCSqGSIb3DQEBCwUAA4IBAQABaTFk5Jj2iKM7SQ+rIS9YLEj4xxyJlJ9fGOoidDllzj4z7UpdC2JQ+ucOBPY81JO6hJTwcEkIdwoQPRZO5ZAScmBDNuIizJxqiQct7vF4J6SJHwEexWpF4XztIHtWEmd8JbnlvMw1lMwx+UuD06l11LxkfhK/LN613S91FABcf/ViH6rqmSpHu+II26jWeYEltk0Wf7jvOtRFKkROFBl2WPc2Dg1eRRYOKSJMqQhQn2Bud83uPFxT1H5yT29MKtjy6DJyzP4/UQjhLmuy9NDt+tlbtvfrXbrIitVMRE6oRert0juvM8PPMb6tvVYQfiM2IaYLKChn5yFCywvR9Xa+aGF1dGhEYXRhWMRJlg3liA6MaHQ0Fw9kdmBbj+SuuaKGMseZXPO6gx2XY0EAAAAAAAAAAAAAAAAAAAAAAAAAAABAN/L4HWcqQH0uDSGl6nwYtKfWsuWY/0f1/CbLwCoQchLgiCB866aXc7F08T69oQ6c10grLMaeVhXag4d8OdwA9aUBAgMmIAEhWCCaDbxvbxlV6hLykMmKAzqYVLctaUtm6XIY8yUkDW7d5CJYIDykWJ0Sw3P0pxecZuZSSj93m1Q1M+W7mMtZE5SnkjF4',
        clientDataJSON:
          'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiWVdKaVltWXlOR0psWlRNek5qUmhNR0ZoWTJOak0yTXdOemhqWTJGaE1USTVOekExTVRBNU1EbGxNV0ppTVRZMk5XTXpZVEpqWVRsbVkyWTVOV1E0T1EiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjgwODAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9',
      },
      type: 'public-key',
    },
  },
};

/** The registration challenge auth-service's test expects for yubikeyConsent (it asserts btoa of this hex). */
export const yubikeyConsentChallenge = 'abbbf24bee3364a0aaccc3c078ccaa12970510909e1bb1665c3a2ca9fcf95d89';

/** The same test's POST /thirdpartyRequests/verifications: the key's assertion over the challenge 'unimplemented123'. */
export const yubikeyVerification: thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequestFIDO = {
  verificationRequestId: '835a8444-8cdc-41ef-bf18-ca4916c2e005',
  challenge: 'unimplemented123',
  consentId: 'be433b9e-9473-4b7d-bdd5-ac5b42463afb',
  signedPayloadType: 'FIDO',
  fidoSignedPayload: {
    id: 'N_L4HWcqQH0uDSGl6nwYtKfWsuWY_0f1_CbLwCoQchLgiCB866aXc7F08T69oQ6c10grLMaeVhXag4d8OdwA9Q',
    rawId: 'N/L4HWcqQH0uDSGl6nwYtKfWsuWY/0f1/CbLwCoQchLgiCB866aXc7F08T69oQ6c10grLMaeVhXag4d8OdwA9Q==',
    response: {
      authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4/krrmihjLHmVzzuoMdl2MBAAAACw==',
      clientDataJSON:
        'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiZFc1cGJYQnNaVzFsYm5SbFpERXlNdyIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6ODA4MCIsImNyb3NzT3JpZ2luIjpmYWxzZX0=',
      signature: 'MEUCIFAVNRa300tOD1qdki66w8wHXRDuXtJxUKyLlyHdDp25AiEA4uYOUdzTI7vNtAv76CcZKzIvw9O8melbxfTBIVa16B0=',
    },
    type: 'public-key',
  },
};

/** Where the test app ran: clientDataJSON.origin, and the RP ID whose hash the authenticator data carries. */
export const yubikeyOptions = { origins: ['http://localhost:8080'], rpId: 'localhost' };
