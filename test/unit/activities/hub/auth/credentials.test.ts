import type { thirdparty } from '@mojaloop/api-snippets';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import test from 'ava';
import crypto from 'node:crypto';
import { consentChallenge } from '../../../../../activities/shared/contracts/challenges';
import { verifyRegistration, verifySignedChallenge, type StoredCredential } from '../../../../../activities/hub/auth/credentials';
import { GenericSigner, SoftAuthenticator, type AttestationFormat, type SoftAuthenticatorOptions } from '../../../../helpers/softAuthenticator';
import { yubikeyConsent, yubikeyOptions, yubikeyVerification } from '../../../../helpers/mojaloopVectors';

const origin = 'https://pisp.example.org';
const options = { origins: [origin], rpId: 'pisp.example.org' };
const consent = {
  consentId: '3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e',
  scopes: [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'] }] as thirdparty.Schemas.Scope[],
};
const challenge = consentChallenge(consent);

const fidoConsent = (fidoPayload: thirdparty.Schemas.FIDOPublicKeyCredentialAttestation) => ({
  ...consent,
  credential: { credentialType: 'FIDO' as const, status: 'PENDING' as const, fidoPayload },
});

const genericConsent = (genericPayload: thirdparty.Schemas.GenericCredential) => ({
  ...consent,
  credential: { credentialType: 'GENERIC' as const, status: 'PENDING' as const, genericPayload },
});

const fidoRequest = (challenge: string, fidoSignedPayload: thirdparty.Schemas.FIDOPublicKeyCredentialAssertion) => ({
  challenge,
  signedPayloadType: 'FIDO' as const,
  fidoSignedPayload,
});

const genericRequest = (challenge: string, genericSignedPayload: string) => ({ challenge, signedPayloadType: 'GENERIC' as const, genericSignedPayload });

/** An authenticator and its credential as registered with the consent. */
async function registeredFido(authenticatorOptions: Partial<SoftAuthenticatorOptions> = {}) {
  const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'packed', ...authenticatorOptions });
  return { authenticator, credential: await registered(fidoConsent(authenticator.register(challenge))) };
}

async function registered(consent: Parameters<typeof verifyRegistration>[0]): Promise<StoredCredential> {
  const result = await verifyRegistration(consent, options);
  if (!result.verified) throw new Error(`registration failed: ${result.reason}`);
  return result.credential;
}

type Cbor = Parameters<typeof isoCBOR.encode>[0];

/** Flips the last bit of an attestation statement's `sig`: still well-formed DER, no longer the signature. */
function withBadAttestationSignature(credential: thirdparty.Schemas.FIDOPublicKeyCredentialAttestation) {
  const attestationObject = isoCBOR.decodeFirst<Map<string, Cbor>>(new Uint8Array(Buffer.from(credential.response.attestationObject, 'base64')));
  const sig = (attestationObject.get('attStmt') as Map<string, Cbor>).get('sig') as Uint8Array;
  sig[sig.length - 1] ^= 1;
  const tampered = Buffer.from(isoCBOR.encode(attestationObject)).toString('base64');
  return { ...credential, response: { ...credential.response, attestationObject: tampered } };
}

// Real authenticator output made for Mojaloop

test("a YubiKey credential made for Mojaloop's auth-service registers, and its assertion verifies", async (t) => {
  const registration = await verifyRegistration(yubikeyConsent, yubikeyOptions);
  if (!registration.verified) return t.fail(registration.reason);
  t.like(registration.credential, {
    credentialType: 'FIDO',
    attestationFormat: 'fido-u2f',
    counter: 0,
    credentialId: yubikeyConsent.credential.fidoPayload?.id,
  });
  const verification = await verifySignedChallenge(registration.credential, yubikeyVerification, yubikeyOptions);
  if (!verification.verified) return t.fail(verification.reason);
  t.like(verification.credential, { counter: 11 });
});

test("the YubiKey's assertion signed the challenge string's bytes, not what they would decode to as base64", async (t) => {
  const registration = await verifyRegistration(yubikeyConsent, yubikeyOptions);
  if (!registration.verified) return t.fail(registration.reason);
  const asBase64 = { ...yubikeyVerification, challenge: Buffer.from(yubikeyVerification.challenge).toString('base64') };
  t.like(await verifySignedChallenge(registration.credential, asBase64, yubikeyOptions), { verified: false });
});

// Registration

for (const format of ['none', 'packed', 'packed-x5c', 'fido-u2f'] as AttestationFormat[]) {
  test(`a FIDO credential with ${format} attestation registers`, async (t) => {
    const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format });
    const attestation = authenticator.register(challenge);
    const result = await verifyRegistration(fidoConsent(attestation), options);
    if (!result.verified) return t.fail(result.reason);
    t.like(result.credential, { credentialType: 'FIDO', credentialId: attestation.id, counter: 0, attestationFormat: format.replace('-x5c', '') });
  });
}

test('a GENERIC credential registers with its P-256 key', async (t) => {
  const signer = new GenericSigner();
  const result = await verifyRegistration(genericConsent(signer.register(challenge)), options);
  if (!result.verified) return t.fail(result.reason);
  t.deepEqual(result.credential, { credentialType: 'GENERIC', publicKey: Buffer.from(signer.publicKey, 'base64url').toString('base64') });
});

test("a credential made over another consent's challenge does not register", async (t) => {
  const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'packed' });
  const otherConsent = consentChallenge({ ...consent, consentId: 'a6e1c3e4-0d0b-4bd4-8a51-6f7c2e9d4b10' });
  const otherScopes = consentChallenge({ ...consent, scopes: [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_GET_BALANCE'] }] });
  for (const other of [otherConsent, otherScopes]) {
    const result = await verifyRegistration(fidoConsent(authenticator.register(other)), options);
    t.like(result, { verified: false });
    if (!result.verified) t.regex(result.reason, /challenge/);
    t.like(await verifyRegistration(genericConsent(new GenericSigner().register(other)), options), { verified: false });
  }
});

test('a FIDO credential made for another origin or another RP ID does not register', async (t) => {
  const otherOrigin = await SoftAuthenticator.create({ origin: 'https://pisp.example.net', rpId: options.rpId, format: 'packed' });
  const byOrigin = await verifyRegistration(fidoConsent(otherOrigin.register(challenge)), options);
  t.like(byOrigin, { verified: false });
  if (!byOrigin.verified) t.regex(byOrigin.reason, /origin/);
  const otherRp = await SoftAuthenticator.create({ origin, rpId: 'example.org', format: 'packed' });
  const byRp = await verifyRegistration(fidoConsent(otherRp.register(challenge)), options);
  t.like(byRp, { verified: false });
  if (!byRp.verified) t.regex(byRp.reason, /RP ID/);
});

for (const format of ['packed', 'packed-x5c', 'fido-u2f'] as AttestationFormat[]) {
  test(`a ${format} attestation with a bad signature does not register`, async (t) => {
    const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format });
    const attestation = authenticator.register(challenge);
    t.like(await verifyRegistration(fidoConsent(attestation), options), { verified: true });
    t.deepEqual(await verifyRegistration(fidoConsent(withBadAttestationSignature(attestation)), options), {
      verified: false,
      reason: 'the attestation signature does not verify',
    });
  });
}

test('a GENERIC registration signed by another key, or with a key not on P-256, does not register', async (t) => {
  const signer = new GenericSigner();
  const foreign = { publicKey: signer.publicKey, signature: new GenericSigner().sign(challenge) };
  t.deepEqual(await verifyRegistration(genericConsent(foreign), options), { verified: false, reason: 'the signature does not verify' });
  // secp256k1, the curve of auth-service's own signature tests: not the curve this hub accepts.
  const k1 = crypto.generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const k1Payload = {
    publicKey: k1.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url'),
    signature: crypto.sign('sha256', Buffer.from(challenge), k1.privateKey).toString('base64url'),
  };
  const result = await verifyRegistration(genericConsent(k1Payload), options);
  t.like(result, { verified: false });
  if (!result.verified) t.regex(result.reason, /P-256/);
});

test("a credential's payload must be the one its credentialType names, and only that one", async (t) => {
  const genericPayload = new GenericSigner().register(challenge);
  const mislabelled = { ...consent, credential: { credentialType: 'FIDO' as const, status: 'PENDING' as const, genericPayload } };
  t.like(await verifyRegistration(mislabelled, options), { verified: false });
  const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'packed' });
  const both = fidoConsent(authenticator.register(challenge));
  t.like(await verifyRegistration(both, options), { verified: true });
  t.like(await verifyRegistration({ ...both, credential: { ...both.credential, genericPayload } }, options), { verified: false });
});

test('a FIDO registration must name the credential the authenticator attested', async (t) => {
  const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'packed' });
  const attestation = authenticator.register(challenge);
  const otherId = crypto.randomBytes(32);
  const renamed = { ...attestation, id: otherId.toString('base64url'), rawId: otherId.toString('base64') };
  t.deepEqual(await verifyRegistration(fidoConsent(renamed), options), {
    verified: false,
    reason: 'the credential id is not the one the authenticator attested',
  });
  const halfRenamed = { ...attestation, rawId: otherId.toString('base64') };
  t.deepEqual(await verifyRegistration(fidoConsent(halfRenamed), options), { verified: false, reason: 'id and rawId name different credentials' });
});

test('a FIDO body field that is not base64 is refused as such, not read as whatever bytes survive', async (t) => {
  const authenticator = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'none' });
  const attestation = authenticator.register(challenge);
  const garbled = { ...attestation, response: { ...attestation.response, attestationObject: `!!!!${attestation.response.attestationObject}` } };
  t.deepEqual(await verifyRegistration(fidoConsent(garbled), options), { verified: false, reason: 'attestationObject is not base64' });
});

// Assertions

test('an assertion verifies and the signature counter moves on', async (t) => {
  const { authenticator, credential } = await registeredFido();
  const first = await verifySignedChallenge(credential, fidoRequest('a1b2', authenticator.assert('a1b2')), options);
  if (!first.verified) return t.fail(first.reason);
  t.like(first.credential, { credentialType: 'FIDO', counter: 1 });
  const second = await verifySignedChallenge(first.credential, fidoRequest('c3d4', authenticator.assert('c3d4')), options);
  if (!second.verified) return t.fail(second.reason);
  t.like(second.credential, { counter: 2 });
});

test("another authenticator's assertion does not verify, even in the registered credential's name", async (t) => {
  const { credential } = await registeredFido();
  const { authenticator: other } = await registeredFido();
  const result = await verifySignedChallenge(credential, fidoRequest('a1b2', other.assert('a1b2')), options);
  t.deepEqual(result, { verified: false, reason: 'the assertion is by another credential' });
  if (credential.credentialType !== 'FIDO') return t.fail();
  const forger = await SoftAuthenticator.create({ origin, rpId: options.rpId, format: 'packed', credentialId: credential.credentialId });
  const forged = await verifySignedChallenge(credential, fidoRequest('a1b2', forger.assert('a1b2')), options);
  t.deepEqual(forged, { verified: false, reason: 'the assertion signature does not verify' });
});

test('an assertion over another challenge does not verify', async (t) => {
  const { authenticator, credential } = await registeredFido();
  const result = await verifySignedChallenge(credential, fidoRequest('a1b2', authenticator.assert('e5f6')), options);
  t.like(result, { verified: false });
  if (!result.verified) t.regex(result.reason, /challenge/);
});

test('an assertion from another origin or for another RP ID does not verify', async (t) => {
  const { authenticator, credential } = await registeredFido();
  const assertion = authenticator.assert('a1b2');
  t.like(await verifySignedChallenge(credential, fidoRequest('a1b2', assertion), options), { verified: true });
  const byOrigin = await verifySignedChallenge(credential, fidoRequest('a1b2', assertion), { ...options, origins: ['https://pisp.example.net'] });
  t.like(byOrigin, { verified: false });
  if (!byOrigin.verified) t.regex(byOrigin.reason, /origin/);
  const byRp = await verifySignedChallenge(credential, fidoRequest('a1b2', assertion), { ...options, rpId: 'example.org' });
  t.like(byRp, { verified: false });
  if (!byRp.verified) t.regex(byRp.reason, /RP ID/);
});

test('a signature counter that does not grow fails: a replayed assertion, or a replaying authenticator', async (t) => {
  const { authenticator, credential } = await registeredFido();
  const assertion = authenticator.assert('a1b2');
  const first = await verifySignedChallenge(credential, fidoRequest('a1b2', assertion), options);
  if (!first.verified) return t.fail(first.reason);
  const resent = await verifySignedChallenge(first.credential, fidoRequest('a1b2', assertion), options);
  t.like(resent, { verified: false });
  if (!resent.verified) t.regex(resent.reason, /counter/);
  const replayed = await verifySignedChallenge(first.credential, fidoRequest('c3d4', authenticator.assert('c3d4', { replay: true })), options);
  t.like(replayed, { verified: false });
  if (!replayed.verified) t.regex(replayed.reason, /counter/);
});

test('an authenticator that keeps no counter (0 in store and in every assertion) still verifies', async (t) => {
  const { authenticator, credential } = await registeredFido({ keepsNoCounter: true });
  const first = await verifySignedChallenge(credential, fidoRequest('a1b2', authenticator.assert('a1b2')), options);
  if (!first.verified) return t.fail(first.reason);
  const second = await verifySignedChallenge(first.credential, fidoRequest('c3d4', authenticator.assert('c3d4')), options);
  if (!second.verified) return t.fail(second.reason);
  t.like(second.credential, { counter: 0 });
});

test("a GENERIC signed challenge verifies, DER or raw r||s, and not with another key's signature or over another challenge", async (t) => {
  const signer = new GenericSigner();
  const credential = await registered(genericConsent(signer.register(challenge)));
  t.deepEqual(await verifySignedChallenge(credential, genericRequest('a1b2', signer.sign('a1b2')), options), { verified: true, credential });
  t.like(await verifySignedChallenge(credential, genericRequest('a1b2', signer.sign('a1b2', 'ieee-p1363')), options), { verified: true });
  t.like(await verifySignedChallenge(credential, genericRequest('a1b2', new GenericSigner().sign('a1b2')), options), { verified: false });
  t.like(await verifySignedChallenge(credential, genericRequest('a1b2', signer.sign('e5f6')), options), { verified: false });
});

test("a signedPayloadType other than the registered credential's type is refused", async (t) => {
  const { authenticator, credential: fido } = await registeredFido();
  const signer = new GenericSigner();
  const generic = await registered(genericConsent(signer.register(challenge)));
  const genericToFido = await verifySignedChallenge(fido, genericRequest('a1b2', signer.sign('a1b2')), options);
  t.deepEqual(genericToFido, { verified: false, reason: "a GENERIC signed payload cannot be verified with the consent's FIDO credential" });
  const fidoToGeneric = await verifySignedChallenge(generic, fidoRequest('a1b2', authenticator.assert('a1b2')), options);
  t.deepEqual(fidoToGeneric, { verified: false, reason: "a FIDO signed payload cannot be verified with the consent's GENERIC credential" });
});
