import type { thirdparty } from '@mojaloop/api-snippets';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeBase64 } from './base64';
import { webAuthnChallenge } from '../../shared/contracts/challenges';
import { rejected, type Verified } from './result';

export interface FidoOptions {
  /** The PISP apps' origins, as their clients write them into clientDataJSON.origin. */
  origins: string[];
  /** The WebAuthn relying party ID the PISP registers credentials under (checked through authenticatorData's rpIdHash). */
  rpId: string;
}

/** What the Auth service keeps of a verified FIDO credential to check later assertions. */
export interface StoredFidoCredential {
  /** base64url, as WebAuthn names credentials. */
  credentialId: string;
  /** The credential's COSE_Key from the attestation, base64. */
  publicKey: string;
  /** The authenticator's signature counter as last seen. */
  counter: number;
  /** The attestation statement format ('packed', 'fido-u2f', 'none', …). */
  attestationFormat: string;
}

/**
 * Verifies the FIDO attestation of POST /consents against the registration challenge (see consentChallenge).
 *
 * The attestation signature is checked, but no attestation trust: no root certificates or FIDO metadata are
 * configured, so an x5c chain is not traced to a vendor (auth-service gives fido2-lib no trust anchors either). User
 * verification (PIN, biometrics) is not required, only user presence: the FIDO security keys PISPs use for Mojaloop
 * often do presence only, and Mojaloop's own test app asks for userVerification 'discouraged'.
 */
export async function verifyFidoRegistration(
  credential: thirdparty.Schemas.FIDOPublicKeyCredentialAttestation,
  expectedChallenge: string,
  options: FidoOptions,
): Promise<Verified<{ credential: StoredFidoCredential }>> {
  try {
    const id = credentialId(credential);
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response: {
        id,
        rawId: id,
        type: credential.type,
        clientExtensionResults: {},
        response: {
          clientDataJSON: base64url(credential.response.clientDataJSON, 'clientDataJSON'),
          attestationObject: base64url(credential.response.attestationObject, 'attestationObject'),
        },
      },
      expectedChallenge: webAuthnChallenge(expectedChallenge),
      expectedOrigin: options.origins,
      expectedRPID: options.rpId,
      requireUserVerification: false,
    });
    if (!verified) return rejected('the attestation signature does not verify');
    // Assertions name the credential by the ID the authenticator attested; a body naming another is not that credential.
    if (registrationInfo.credential.id !== id) return rejected('the credential id is not the one the authenticator attested');
    return {
      verified: true,
      credential: {
        credentialId: id,
        publicKey: Buffer.from(registrationInfo.credential.publicKey).toString('base64'),
        counter: registrationInfo.credential.counter,
        attestationFormat: registrationInfo.fmt,
      },
    };
  } catch (error) {
    return rejected(reasonOf(error));
  }
}

/**
 * Verifies the FIDO assertion of POST /thirdpartyRequests/verifications against its `challenge`, and returns the
 * counter to store.
 *
 * The signature counter must grow, except when it is 0 both in store and in the assertion: WebAuthn (§6.1.1
 * "Signature Counter Considerations" and the signCount step of §7.2) reserves that for authenticators that keep no
 * counter (many platform authenticators and synced passkeys), and refusing them would lock their users out. Such a credential still cannot replay an assertion into
 * another transaction, because each one signs its own challenge. User verification is not required (see
 * verifyFidoRegistration).
 */
export async function verifyFidoAssertion(
  stored: StoredFidoCredential,
  assertion: thirdparty.Schemas.FIDOPublicKeyCredentialAssertion,
  expectedChallenge: string,
  options: FidoOptions,
): Promise<Verified<{ counter: number }>> {
  try {
    const id = credentialId(assertion);
    // simplewebauthn checks the signature with the key it is given and does not compare credential IDs itself.
    if (id !== stored.credentialId) return rejected('the assertion is by another credential');
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: {
        id,
        rawId: id,
        type: assertion.type,
        clientExtensionResults: {},
        // userHandle is left out: Mojaloop binds a credential to a consent, not to a WebAuthn user.id.
        response: {
          authenticatorData: base64url(assertion.response.authenticatorData, 'authenticatorData'),
          clientDataJSON: base64url(assertion.response.clientDataJSON, 'clientDataJSON'),
          signature: base64url(assertion.response.signature, 'signature'),
        },
      },
      expectedChallenge: webAuthnChallenge(expectedChallenge),
      expectedOrigin: options.origins,
      expectedRPID: options.rpId,
      credential: { id: stored.credentialId, publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64')), counter: stored.counter },
      requireUserVerification: false,
    });
    if (!verified) return rejected('the assertion signature does not verify');
    return { verified: true, counter: authenticationInfo.newCounter };
  } catch (error) {
    return rejected(reasonOf(error));
  }
}

/** The credential ID as base64url. `rawId` is optional in an attestation; when both are given they must agree. */
function credentialId(credential: { id: string; rawId?: string }): string {
  const id = decodeBase64(credential.id);
  const rawId = credential.rawId === undefined ? id : decodeBase64(credential.rawId);
  if (!id || !rawId) throw new Error('the credential id is not base64');
  if (!id.equals(rawId)) throw new Error('id and rawId name different credentials');
  return id.toString('base64url');
}

/** simplewebauthn reads WebAuthn's binary fields as base64url; the API carries them as base64 (see decodeBase64). */
function base64url(text: string, field: string): string {
  const bytes = decodeBase64(text);
  if (!bytes) throw new Error(`${field} is not base64`);
  return bytes.toString('base64url');
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
