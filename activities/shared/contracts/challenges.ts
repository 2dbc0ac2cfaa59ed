import type { thirdparty } from '@mojaloop/api-snippets';
import canonicalize from 'canonicalize';
import crypto from 'node:crypto';

/**
 * The challenge a PISP signs to register a consent's credential (POST /consents): the lowercase hex SHA-256 of the
 * RFC 8785 canonical JSON of {consentId, scopes}. It is the hex text, not the digest's bytes, that gets signed
 * (see challengeBytes): Mojaloop's thirdparty-sdk hands the PISP exactly this string (deriveChallenge in
 * src/models/outbound/pispLinking.model.ts: crypto-js `sha256(json).toString()`), and mojaloop/auth-service checks
 * the same text (src/domain/challenge.ts, which only wraps it in base64 to feed fido2-lib).
 *
 * Scopes are cut down to {address, actions} as auth-service does before hashing, so that a scope carrying fields
 * beyond the schema's hashes as it does there.
 */
export function consentChallenge(consent: Pick<thirdparty.Schemas.ConsentsPostRequestAUTH, 'consentId' | 'scopes'>): string {
  const rawChallenge = { consentId: consent.consentId, scopes: consent.scopes.map(({ address, actions }) => ({ address, actions })) };
  return crypto
    .createHash('sha256')
    .update(canonicalize(rawChallenge) ?? '')
    .digest('hex');
}

/**
 * The bytes that stand for a challenge string wherever it is signed: its UTF-8 encoding. This holds for the
 * registration challenge above and for the `challenge` of POST /thirdpartyRequests/verifications alike, although the
 * API calls the latter "base64 encoded bytes": Mojaloop's DFSP (thirdparty-sdk deriveTransactionChallenge) sends a
 * hex digest as text, its PISP test app signs the string's character codes (contrib-fido-test-ui
 * src/public/verify_transaction.js), and auth-service expects exactly those (btoa(request.challenge) in
 * src/domain/stateMachine/verifyTransaction.model.ts). Mojaloop's challenges are ASCII, where character codes and
 * UTF-8 agree; UTF-8 is the defined choice beyond that.
 */
export function challengeBytes(challenge: string): Buffer {
  return Buffer.from(challenge, 'utf8');
}

/**
 * What a FIDO client writes into clientDataJSON.challenge when given a challenge string: WebAuthn's base64url
 * (unpadded) of the challenge bytes. Real authenticator output in auth-service's tests shows it: "dW5pbXBsZW1lbnRlZDEyMw"
 * for the challenge "unimplemented123" (test/integration/server/workflows/verifyTransaction.test.ts).
 */
export function webAuthnChallenge(challenge: string): string {
  return challengeBytes(challenge).toString('base64url');
}
