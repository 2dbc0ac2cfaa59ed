import type { thirdparty } from '@mojaloop/api-snippets';
import crypto from 'node:crypto';

/**
 * A GENERIC credential's key (Document 1, "GENERIC signing"): ECDSA on P-256 with SHA-256, the algorithm the hub's
 * Auth service verifies (activities/hub/auth/generic.ts). The signed message is the challenge string's UTF-8 bytes;
 * ECDSA-SHA256 hashes them once, which is the document's "challengeHash = SHA-256(challenge); signature =
 * sign(challengeHash, privateKey)". The public key is a DER SubjectPublicKeyInfo, keys and signatures travel as the
 * API's BinaryString. The encoding is written here, not taken from the Auth service's code, so that the hub's tests
 * (which sign with this class) fail if either side gets it wrong instead of agreeing with itself.
 */
export class GenericSigner {
  readonly publicKey: string;

  /** A fresh random key, or the given P-256 private key. */
  constructor(private readonly key: crypto.KeyObject = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey) {
    this.publicKey = binaryString(crypto.createPublicKey(key).export({ type: 'spki', format: 'der' }));
  }

  /**
   * The key of one consent, derived from the connector's secret: the same secret and consent give the same key after
   * a restart, and no key is stored anywhere. The private scalar is HMAC-SHA256(secret, consentId), hashed again in
   * the (2^-32 likely) case that it falls outside [1, n-1].
   */
  static derived(secret: string, consentId: string): GenericSigner {
    let scalar = crypto.createHmac('sha256', secret).update(`GENERIC credential of consent ${consentId}`).digest();
    for (;;) {
      const ecdh = crypto.createECDH('prime256v1');
      try {
        ecdh.setPrivateKey(scalar);
      } catch {
        scalar = crypto.createHash('sha256').update(scalar).digest();
        continue;
      }
      const point = ecdh.getPublicKey();
      const jwk = {
        kty: 'EC',
        crv: 'P-256',
        d: scalar.toString('base64url'),
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33, 65).toString('base64url'),
      };
      return new GenericSigner(crypto.createPrivateKey({ key: jwk, format: 'jwk' }));
    }
  }

  sign(challenge: string, dsaEncoding: 'der' | 'ieee-p1363' = 'der'): string {
    return binaryString(crypto.sign('sha256', Buffer.from(challenge, 'utf8'), { key: this.key, dsaEncoding }));
  }

  /** The genericPayload of a credential: the key and its signature over the registration challenge. */
  register(challenge: string): thirdparty.Schemas.GenericCredential {
    return { publicKey: this.publicKey, signature: this.sign(challenge) };
  }
}

/** The FSPIOP BinaryString: base64url, padded to a multiple of 4 characters. */
function binaryString(bytes: Buffer): string {
  const text = bytes.toString('base64url');
  return text.padEnd(Math.ceil(text.length / 4) * 4, '=');
}
