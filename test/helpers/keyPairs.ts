import crypto from 'node:crypto';

type KeyPair = { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject };

/**
 * An RSA key pair for tests, read from the PEM its generation wrote. Node 20 can deadlock when a key object that
 * `generateKeyPairSync` returned is exported as a JWK (jose does so to sign and to verify) while the garbage collector
 * frees the generation job that still holds it: the job's destructor waits on the lock the export holds. It was seen
 * as a test worker asleep for good in futex_wait, under KeyGenJob::~KeyGenJob inside KeyObjectHandle::ExportJWK. Keys
 * read from PEM belong to no generation job.
 */
export function rsaKeyPair(modulusLength = 2048): KeyPair {
  return fromPem(
    crypto.generateKeyPairSync('rsa', {
      modulusLength,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }),
  );
}

/** The same for an elliptic-curve key pair (a FIDO authenticator's, exported as a JWK for its COSE key). */
export function ecKeyPair(namedCurve = 'P-256'): KeyPair {
  return fromPem(
    crypto.generateKeyPairSync('ec', { namedCurve, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }),
  );
}

function fromPem({ privateKey, publicKey }: { privateKey: string; publicKey: string }): KeyPair {
  return { privateKey: crypto.createPrivateKey(privateKey), publicKey: crypto.createPublicKey(publicKey) };
}
