import crypto, { KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { FlattenedSign, flattenedVerify } from 'jose';

/**
 * FSPIOP-Signature in the form Mojaloop signs and validates it (sdk-standard-components' JwsSigner and JwsValidator),
 * so that a signature made by a Mojaloop DFSP verifies here and one made here verifies there. Document 2 leaves the
 * algorithm and steps "not shown"; Mojaloop's are: RS256 over the body, with a protected header naming the request
 * (FSPIOP-URI, FSPIOP-HTTP-Method) and its parties (FSPIOP-Source, and FSPIOP-Destination and Date when present), sent
 * as the JSON `{"signature","protectedHeader"}` of the JWS's two base64url parts (the payload is the body itself).
 */

/** The one algorithm Mojaloop's API allows. */
const SIGNATURE_ALGORITHM = 'RS256';

/** A message's headers by lower-case name, as the gateway keeps them (FspiopHeaders). */
export type SignedHeaders = Readonly<Record<string, string | undefined>>;

/** Header members of the protected header, by their case there (JWS member names are case-sensitive). */
const URI = 'FSPIOP-URI';
const METHOD = 'FSPIOP-HTTP-Method';
const SOURCE = 'FSPIOP-Source';
const DESTINATION = 'FSPIOP-Destination';
const DATE = 'Date';
/** Document 2, encryption rule 4: a message's FSPIOP-Encryption must be covered by its signature's protected header. */
const ENCRYPTION = 'FSPIOP-Encryption';

/** The least RSA modulus jose (and Mojaloop's jsonwebtoken) take for RS256. */
const MIN_MODULUS_BITS = 2048;

function requireRsa(key: KeyObject, what: string): KeyObject {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`${what} is not an RSA key (RS256 needs one)`);
  if (bits < MIN_MODULUS_BITS) throw new Error(`${what} has ${bits} bits; RS256 needs at least ${MIN_MODULUS_BITS}`);
  return key;
}

/** No RSA public key's PEM comes near this; a longer text carries something else besides. */
const MAX_PUBLIC_KEY_PEM = 16_384;

/**
 * A participant's public key from its PEM text (SPKI, PKCS#1 or an X.509 certificate); throws if it cannot verify RS256.
 * A private key is refused, though Node would derive the public key from it: it is a secret its owner must not have
 * handed over, and the hub would otherwise keep it and show it back.
 */
export function publicKeyOf(pem: string | Buffer, what = 'the public key'): KeyObject {
  if (pem.length > MAX_PUBLIC_KEY_PEM) throw new Error(`${what} is longer than any PEM public key (${MAX_PUBLIC_KEY_PEM} characters)`);
  if (isPrivateKey(pem)) throw new Error(`${what} is a private key: register the public key only, and keep the private key secret`);
  let key: KeyObject;
  try {
    key = crypto.createPublicKey(pem);
  } catch {
    throw new Error(`${what} is not a PEM public key`);
  }
  return requireRsa(key, what);
}

function isPrivateKey(pem: string | Buffer): boolean {
  try {
    crypto.createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/** A signer's private key read from a PEM file (JWS_SIGNING_KEY_PATH, as Mojaloop's SDK names it). */
export function readSigningKey(file: string): KeyObject {
  return requireRsa(crypto.createPrivateKey(fs.readFileSync(file)), `the signing key ${file}`);
}

function protectedHeaderOf(headers: SignedHeaders): Record<string, string> {
  const uri = headers['fspiop-uri'];
  const method = headers['fspiop-http-method'];
  const source = headers['fspiop-source'];
  if (!uri || !method || !source) throw new Error('a signed message needs FSPIOP-URI, FSPIOP-HTTP-Method and FSPIOP-Source');
  // The members in JwsSigner's order: its signatures and these are then the same bytes (RS256 is deterministic).
  const header: Record<string, string> = { alg: SIGNATURE_ALGORITHM, [URI]: uri, [METHOD]: method, [SOURCE]: source };
  if (headers['fspiop-destination']) header[DESTINATION] = headers['fspiop-destination'];
  if (headers.date) header[DATE] = headers.date;
  if (headers['fspiop-encryption']) header[ENCRYPTION] = headers['fspiop-encryption'];
  return header;
}

/** The FSPIOP-Signature of a message with these headers and body text. */
export async function sign(headers: SignedHeaders, body: string, privateKey: KeyObject): Promise<string> {
  const jws = await new FlattenedSign(Buffer.from(body, 'utf8')).setProtectedHeader(protectedHeaderOf(headers)).sign(privateKey);
  return JSON.stringify({ signature: jws.signature, protectedHeader: jws.protected });
}

/** A message as received: its headers and its body exactly as it came. */
export interface ReceivedMessage {
  headers: SignedHeaders;
  body: string;
}

/**
 * Why the message's signature does not hold, or undefined when it does: JwsValidator's checks. The signature must
 * verify with the sender's key over the body; RS256 only; the signed FSPIOP-URI, FSPIOP-HTTP-Method and FSPIOP-Source
 * must be present and equal the message's headers; a signed Date or FSPIOP-Destination must equal the message's, and a
 * message naming a destination must have signed it. Beyond Mojaloop, a message's FSPIOP-Encryption must be signed too
 * (Document 2, encryption rule 4), which no Mojaloop DFSP sends.
 *
 * The body is verified exactly as it came, the bytes the hub passes on and keeps. Mojaloop's validator verifies
 * `JSON.stringify` of the parsed body instead, which its signer sends as the body, so the two agree on every message a
 * Mojaloop SDK makes; taking a re-serialised form as well would let bytes nobody signed travel on (a duplicate key
 * JSON.parse drops, for one). jose takes RS256 alone: a header naming another algorithm (HS256 keyed with the public
 * key, `none`) does not verify.
 */
export async function signatureProblem(message: ReceivedMessage, publicKey: KeyObject): Promise<string | undefined> {
  const { headers } = message;
  const signatureHeader = headers['fspiop-signature'];
  if (!signatureHeader) return 'the message carries no FSPIOP-Signature';
  if (!headers['fspiop-uri'] || !headers['fspiop-http-method']) return 'a signed message needs FSPIOP-URI and FSPIOP-HTTP-Method headers';
  const parts = signatureParts(signatureHeader);
  if (typeof parts === 'string') return parts;
  let signed: Record<string, unknown>;
  try {
    const jws = { protected: parts.protectedHeader, payload: Buffer.from(message.body, 'utf8').toString('base64url'), signature: parts.signature };
    signed = (await flattenedVerify(jws, publicKey, { algorithms: [SIGNATURE_ALGORITHM] })).protectedHeader as Record<string, unknown>;
  } catch (error) {
    return `the signature does not verify with ${headers['fspiop-source']}'s key: ${(error as Error).message}`;
  }
  return protectedHeaderProblem(signed, headers);
}

function signatureParts(header: string): { protectedHeader: string; signature: string } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return 'FSPIOP-Signature is not JSON';
  }
  const { protectedHeader, signature } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof protectedHeader !== 'string' || typeof signature !== 'string') return 'FSPIOP-Signature needs the strings protectedHeader and signature';
  return { protectedHeader, signature };
}

function protectedHeaderProblem(signed: Record<string, unknown>, headers: SignedHeaders): string | undefined {
  const mustMatch: Array<[string, string | undefined, boolean]> = [
    [URI, headers['fspiop-uri'], true],
    [METHOD, headers['fspiop-http-method'], true],
    [SOURCE, headers['fspiop-source'], true],
    [DATE, headers.date, false],
    [DESTINATION, headers['fspiop-destination'], false],
    [ENCRYPTION, headers['fspiop-encryption'], false],
  ];
  for (const [member, sent, required] of mustMatch) {
    const value = signed[member];
    if (value === undefined && required) return `the protected header has no ${member}`;
    if (value !== undefined && typeof value !== 'string') return `the protected header's ${member} is not a string`;
    // A member signed must be the message's; a destination or encryption the message names must have been signed.
    const checked = value !== undefined || (sent !== undefined && member !== DATE);
    if (checked && value !== sent) return `the signed ${member} (${String(value)}) is not the message's (${String(sent)})`;
  }
  return undefined;
}
