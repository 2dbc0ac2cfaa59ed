import type { KeyObject } from 'node:crypto';
import type { FuzzScheme } from './fixture';
import { rsaKeyPair } from '../helpers/keyPairs';

/** The signing keys of the scheme's participants, whose public halves the hub holds, and a key it knows nobody by. */
export interface SchemeKeys {
  privateKeyOf(name: string): KeyObject;
  /** The PEM the hub was given, which anyone may know. */
  publicPemOf(name: string): string;
  /** The participants that have keys. */
  names: string[];
  strangerKey: KeyObject;
}

const registered = new WeakMap<FuzzScheme, Promise<SchemeKeys>>();

/**
 * Gives each of the scheme's participants a key, registered through the admin API, and turns JWS validation on for
 * each: from then on each of their messages with a body must carry a valid FSPIOP-Signature. Done once per scheme.
 */
export function validateSignatures(scheme: FuzzScheme): Promise<SchemeKeys> {
  let keys = registered.get(scheme);
  if (!keys) {
    keys = register(scheme);
    registered.set(scheme, keys);
  }
  return keys;
}

async function register(scheme: FuzzScheme): Promise<SchemeKeys> {
  const names = [scheme.payer, scheme.payee, scheme.stranger, scheme.pisp].map((dfsp) => dfsp.name);
  const pairs = new Map(names.map((name) => [name, rsaKeyPair()]));
  const pemOf = (name: string) => pairs.get(name)!.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  for (const name of names) {
    const answer = await scheme.hub.admin.call('PUT', `/participants/${name}/jws`, { publicKey: pemOf(name), validate: true });
    if (answer.status !== 200) throw new Error(`could not register ${name}'s key: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return {
    privateKeyOf: (name) => pairs.get(name)!.privateKey,
    publicPemOf: pemOf,
    names,
    strangerKey: rsaKeyPair().privateKey,
  };
}
