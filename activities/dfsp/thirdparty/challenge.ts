import canonicalize from 'canonicalize';
import crypto from 'node:crypto';
import type { QuotesIDPutResponse } from '../../shared/contracts/bodies';

/**
 * The transaction challenge (Document 1, "Challenge derivation"): SHA-256 of the RFC 8785 canonical JSON of the
 * PUT /quotes/{ID} body, as lowercase hex text. Hex is how Mojaloop's thirdparty-sdk encodes its challenge (crypto-js
 * `sha256(json).toString()` in src/shared/challenge.ts), and the text is what the PISP signs and the hub's Auth
 * service verifies (activities/shared/contracts/challenges.ts, challengeBytes).
 */
export function transactionChallenge(quote: QuotesIDPutResponse): string {
  return crypto
    .createHash('sha256')
    .update(canonicalize(quote) ?? '')
    .digest('hex');
}
