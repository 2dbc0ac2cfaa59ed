import crypto from 'node:crypto';
import canonicalize from 'canonicalize';

/** SHA-256 of the RFC 8785 canonical JSON of a body: equal for equal requests whatever their key order. */
export function requestHash(body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(canonicalize(body) ?? '')
    .digest('hex');
}
