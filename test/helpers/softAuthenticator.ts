// A software FIDO authenticator and a GENERIC signer, producing credentials the way a Mojaloop PISP puts them in its
// bodies. The PISP side is modelled on Mojaloop's own test app (mojaloop/contrib-fido-test-ui
// src/public/create_credential.js and verify_transaction.js): the challenge string's character codes are the
// WebAuthn challenge; `id` is the browser's base64url credential ID; `rawId` and every response field are
// standard base64. The challenge encoding is done here independently of activities/hub/auth, so that a wrong
// encoding there fails the tests instead of agreeing with itself.

// @peculiar/x509's dependency injection needs the Reflect metadata API loaded before it.
import 'reflect-metadata';
import type { thirdparty } from '@mojaloop/api-snippets';
import { BasicConstraintsExtension, X509CertificateGenerator } from '@peculiar/x509';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import crypto from 'node:crypto';
import { ecKeyPair } from './keyPairs';

/** 'packed' attests with the credential's own key (self attestation), 'packed-x5c' with a certificate's. */
export type AttestationFormat = 'none' | 'packed' | 'packed-x5c' | 'fido-u2f';

export interface SoftAuthenticatorOptions {
  rpId: string;
  origin: string;
  format: AttestationFormat;
  /** An authenticator without a signature counter reports 0 forever. */
  keepsNoCounter?: boolean;
  /** base64url; a random one by default. Lets a test forge an assertion in another credential's name. */
  credentialId?: string;
}

const USER_PRESENT = 0x01;
const ATTESTED_CREDENTIAL_DATA = 0x40;
const ES256 = -7;
const SOFT_AAGUID = Buffer.from('5f7a3b1c9d2e4f608a1b2c3d4e5f6071', 'hex');

type Cbor = Parameters<typeof isoCBOR.encode>[0];

const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

export class SoftAuthenticator {
  private readonly key = ecKeyPair();
  private readonly credentialId: Buffer;
  private counter = 0;

  static async create(options: SoftAuthenticatorOptions): Promise<SoftAuthenticator> {
    const withCertificate = options.format === 'packed-x5c' || options.format === 'fido-u2f';
    return new SoftAuthenticator(options, withCertificate ? await attestationCertificate() : undefined);
  }

  private constructor(
    private readonly options: SoftAuthenticatorOptions,
    private readonly attestation?: { key: crypto.KeyObject; certificate: Buffer },
  ) {
    this.credentialId = options.credentialId ? Buffer.from(options.credentialId, 'base64url') : crypto.randomBytes(32);
  }

  /** navigator.credentials.create() over the challenge, as the fidoPayload of POST /consents. */
  register(challenge: string): thirdparty.Schemas.FIDOPublicKeyCredentialAttestation {
    const clientDataJSON = this.clientData('webauthn.create', challenge);
    const publicKey = coseKey(this.key.publicKey);
    // fido-u2f predates AAGUIDs: WebAuthn requires zeros for it.
    const aaguid = this.options.format === 'fido-u2f' ? Buffer.alloc(16) : SOFT_AAGUID;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([this.authenticatorData(USER_PRESENT | ATTESTED_CREDENTIAL_DATA), aaguid, idLength, this.credentialId, publicKey]);
    const fmt = this.options.format === 'packed-x5c' ? 'packed' : this.options.format;
    const attestationObject = isoCBOR.encode(
      new Map<string, Cbor>([
        ['fmt', fmt],
        ['attStmt', this.statement(authData, sha256(clientDataJSON))],
        ['authData', authData],
      ]),
    );
    return {
      id: this.credentialId.toString('base64url'),
      rawId: this.credentialId.toString('base64'),
      response: { clientDataJSON: clientDataJSON.toString('base64'), attestationObject: Buffer.from(attestationObject).toString('base64') },
      type: 'public-key',
    };
  }

  /**
   * navigator.credentials.get() over the challenge, as the fidoSignedPayload of POST /thirdpartyRequests/verifications.
   * Each assertion counts one more use, unless told to replay: then it signs with the last count again.
   */
  assert(challenge: string, { replay = false } = {}): thirdparty.Schemas.FIDOPublicKeyCredentialAssertion {
    if (!replay && !this.options.keepsNoCounter) this.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', challenge);
    const authenticatorData = this.authenticatorData(USER_PRESENT);
    const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.key.privateKey);
    return {
      id: this.credentialId.toString('base64url'),
      rawId: this.credentialId.toString('base64'),
      response: {
        authenticatorData: authenticatorData.toString('base64'),
        clientDataJSON: clientDataJSON.toString('base64'),
        signature: signature.toString('base64'),
      },
      type: 'public-key',
    };
  }

  /** The PISP app hands the challenge string to WebAuthn as `Uint8Array.from(challenge, c => c.charCodeAt(0))`. */
  private clientData(type: string, challenge: string): Buffer {
    const bytes = Uint8Array.from(challenge, (c) => c.charCodeAt(0));
    return Buffer.from(JSON.stringify({ type, challenge: Buffer.from(bytes).toString('base64url'), origin: this.options.origin, crossOrigin: false }));
  }

  private authenticatorData(flags: number): Buffer {
    const signCount = Buffer.alloc(4);
    signCount.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.options.rpId), Buffer.from([flags]), signCount]);
  }

  private statement(authData: Buffer, clientDataHash: Buffer): Map<string, Cbor> {
    const { format } = this.options;
    if (format === 'none') return new Map();
    // packed (WebAuthn §8.2): a signature over authData and the client data hash.
    const packedSignature = (key: crypto.KeyObject) => crypto.sign('sha256', Buffer.concat([authData, clientDataHash]), key);
    if (format === 'packed')
      return new Map<string, Cbor>([
        ['alg', ES256],
        ['sig', packedSignature(this.key.privateKey)],
      ]);
    const attestation = this.attestation as { key: crypto.KeyObject; certificate: Buffer };
    if (format === 'packed-x5c')
      return new Map<string, Cbor>([
        ['alg', ES256],
        ['sig', packedSignature(attestation.key)],
        ['x5c', [attestation.certificate]],
      ]);
    // fido-u2f (WebAuthn §8.6): the U2F registration signature, over the raw uncompressed public key.
    const { x, y } = coordinates(this.key.publicKey);
    const rawKey = Buffer.concat([Buffer.from([0x04]), x, y]);
    const signed = Buffer.concat([Buffer.from([0x00]), sha256(this.options.rpId), clientDataHash, this.credentialId, rawKey]);
    return new Map<string, Cbor>([
      ['sig', crypto.sign('sha256', signed, attestation.key)],
      ['x5c', [attestation.certificate]],
    ]);
  }
}

/** An EC2 P-256 COSE_Key (RFC 9053), as authenticators put it in attested credential data. */
function coseKey(publicKey: crypto.KeyObject): Uint8Array {
  const { x, y } = coordinates(publicKey);
  return isoCBOR.encode(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, ES256], // alg
      [-1, 1], // crv: P-256
      [-2, x],
      [-3, y],
    ]),
  );
}

function coordinates(publicKey: crypto.KeyObject): { x: Buffer; y: Buffer } {
  const { x, y } = publicKey.export({ format: 'jwk' });
  return { x: Buffer.from(x as string, 'base64url'), y: Buffer.from(y as string, 'base64url') };
}

/**
 * A batch attestation certificate like a security key vendor's: self-signed here (nothing checks the chain, see
 * verifyFidoRegistration), with the subject and constraints WebAuthn §8.2.1 asks of a packed attestation certificate.
 */
async function attestationCertificate(): Promise<{ key: crypto.KeyObject; certificate: Buffer }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    name: 'C=SE, O=Soft Authenticator, OU=Authenticator Attestation, CN=Soft Authenticator Attestation',
    keys,
    signingAlgorithm: algorithm,
    notBefore: new Date(Date.now() - 3_600_000),
    extensions: [new BasicConstraintsExtension(false, undefined, true)],
  });
  return { key: crypto.KeyObject.from(keys.privateKey), certificate: Buffer.from(certificate.rawData) };
}

/** A PISP app's GENERIC key: the connector's production signer (ECDSA P-256 over the challenge's UTF-8). */
export { GenericSigner } from '../../activities/pisp/genericSigner';
