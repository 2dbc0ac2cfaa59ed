import type { thirdparty } from '@mojaloop/api-snippets';
import crypto from 'node:crypto';
import { decodeBase64 } from './base64';
import { challengeBytes } from '../../shared/contracts/challenges';
import { rejected, type Verified } from './result';

/**
 * GENERIC credentials: a key pair the PISP's app holds itself. The API leaves the algorithm open; this hub takes
 * ECDSA on P-256 with SHA-256:
 *   - `publicKey` is the SubjectPublicKeyInfo, DER, as a BinaryString (base64url; base64 is read too);
 *   - the signed message is the challenge string's UTF-8 bytes (challengeBytes). ECDSA-SHA256 hashes them once, so
 *     the curve operation signs SHA-256(challenge): this is Document 1's "challengeHash = SHA-256(challenge),
 *     signature = sign(challengeHash, privateKey)", and what auth-service's verifySignature does
 *     (src/domain/challenge.ts: createVerify('SHA256').update(challenge)). The digest is not hashed a second time;
 *   - `signature` is a BinaryString of either an ASN.1 DER ECDSA-Sig-Value (what OpenSSL, Java and Android produce)
 *     or raw r||s of 64 bytes (IEEE P1363, what WebCrypto produces). Both carry the same (r, s); accepting both costs a
 *     second verify.
 * Mojaloop's thirdparty-sdk does not implement GENERIC signing (a todo in its pispLinking.model.ts), so there is no
 * PISP encoding to follow beyond the API's types.
 */
export interface StoredGenericCredential {
  /** SubjectPublicKeyInfo, DER, base64. */
  publicKey: string;
}

/** A GENERIC registration proves possession of the key by a signature over the registration challenge. */
export function verifyGenericRegistration(payload: thirdparty.Schemas.GenericCredential, challenge: string): Verified<{ credential: StoredGenericCredential }> {
  const spki = decodeBase64(payload.publicKey);
  if (!spki) return rejected('publicKey is not base64');
  if (!p256Key(spki)) return rejected('publicKey is not a P-256 public key (SubjectPublicKeyInfo, DER)');
  const credential = { publicKey: spki.toString('base64') };
  const signed = verifyGenericSignature(credential, payload.signature, challenge);
  return signed.verified ? { verified: true, credential } : signed;
}

export function verifyGenericSignature(stored: StoredGenericCredential, signature: string, challenge: string): Verified {
  const key = p256Key(Buffer.from(stored.publicKey, 'base64'));
  if (!key) return rejected('the stored publicKey is not a P-256 public key');
  const bytes = decodeBase64(signature);
  if (!bytes) return rejected('signature is not base64');
  const message = challengeBytes(challenge);
  const verifies = (dsaEncoding: 'der' | 'ieee-p1363') => crypto.verify('sha256', message, { key, dsaEncoding }, bytes);
  return verifies('der') || verifies('ieee-p1363') ? { verified: true } : rejected('the signature does not verify');
}

function p256Key(spki: Buffer): crypto.KeyObject | undefined {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey({ key: spki, format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : undefined;
}
