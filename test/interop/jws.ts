import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sign } from '../../activities/shared/platform/jws';
import { rsaKeyPair } from '../helpers/keyPairs';

/**
 * The run's JWS keys, made fresh for it: an RSA pair per participant and one for the hub. Every public key is in one
 * directory as `<fspId>.pem`, the hub's under its own name, which is what the hub and Mojaloop's SDK each read as
 * JWS_VERIFICATION_KEYS_DIRECTORY: the SDKs then validate the hub's own messages and each other's passed on by it.
 */
export interface JwsKeys {
  verificationKeysDirectory: string;
  /** A participant's (or the hub's) private key file, its JWS_SIGNING_KEY_PATH. */
  signingKeyPath(name: string): string;
  /** The headers that sign a message the suite sends as `from` would: FSPIOP-URI, FSPIOP-HTTP-Method and FSPIOP-Signature. */
  signedBy(from: string, method: string, urlPath: string, headers: Record<string, string>, body: string): Promise<Record<string, string>>;
  /** The same, signed with a key of nobody's in the scheme: a forgery in the name of the headers' FSPIOP-Source. */
  forged(method: string, urlPath: string, headers: Record<string, string>, body: string): Promise<Record<string, string>>;
  remove(): void;
}

/**
 * Keys for `names`; each of `alsoAs` (another name: one of `names`) publishes that one's public key under a second
 * name too, as a scheme publishes the hub's for the Auth service it plays (which signs with the hub's key).
 */
export function makeJwsKeys(names: string[], alsoAs: Record<string, string> = {}): JwsKeys {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'interop-jws-'));
  const verificationKeysDirectory = path.join(root, 'public');
  fs.mkdirSync(verificationKeysDirectory);
  const privateKeys = new Map<string, crypto.KeyObject>();
  for (const name of names) {
    const { privateKey, publicKey } = rsaKeyPair();
    privateKeys.set(name, privateKey);
    fs.writeFileSync(path.join(verificationKeysDirectory, `${name}.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
    fs.writeFileSync(path.join(root, `${name}.key`), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  for (const [alias, name] of Object.entries(alsoAs))
    fs.copyFileSync(path.join(verificationKeysDirectory, `${name}.pem`), path.join(verificationKeysDirectory, `${alias}.pem`));
  const stranger = rsaKeyPair().privateKey;
  const signedWith = async (key: crypto.KeyObject, method: string, urlPath: string, headers: Record<string, string>, body: string) => {
    const named = { ...headers, 'fspiop-uri': urlPath, 'fspiop-http-method': method };
    return { ...named, 'fspiop-signature': await sign(named, body, key) };
  };
  return {
    verificationKeysDirectory,
    signingKeyPath: (name) => path.join(root, `${name}.key`),
    signedBy: (from, ...message) => signedWith(privateKeys.get(from)!, ...message),
    forged: (...message) => signedWith(stranger, ...message),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
