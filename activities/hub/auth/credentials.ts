import type { thirdparty } from '@mojaloop/api-snippets';
import { consentChallenge } from '../../shared/contracts/challenges';
import { verifyFidoAssertion, verifyFidoRegistration, type FidoOptions, type StoredFidoCredential } from './fido';
import { verifyGenericRegistration, verifyGenericSignature, type StoredGenericCredential } from './generic';
import { rejected, type Verified } from './result';

export type { FidoOptions } from './fido';

/** A consent's verified credential as the Auth service keeps it, tagged with the API's credentialType. */
export type StoredCredential = ({ credentialType: 'FIDO' } & StoredFidoCredential) | ({ credentialType: 'GENERIC' } & StoredGenericCredential);

/** The signed part of POST /thirdpartyRequests/verifications. */
export type SignedChallenge =
  | Pick<thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequestFIDO, 'challenge' | 'signedPayloadType' | 'fidoSignedPayload'>
  | Pick<thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequestGeneric, 'challenge' | 'signedPayloadType' | 'genericSignedPayload'>;

/** POST /consents at the Auth service: the credential must sign the challenge derived from the consent itself. */
export async function verifyRegistration(
  consent: Pick<thirdparty.Schemas.ConsentsPostRequestAUTH, 'consentId' | 'scopes' | 'credential'>,
  options: FidoOptions,
): Promise<Verified<{ credential: StoredCredential }>> {
  const challenge = consentChallenge(consent);
  const { credentialType, fidoPayload, genericPayload } = consent.credential;
  switch (credentialType) {
    case 'FIDO': {
      if (!fidoPayload || genericPayload) return rejected('a FIDO credential carries a fidoPayload and nothing else');
      const result = await verifyFidoRegistration(fidoPayload, challenge, options);
      return result.verified ? { verified: true, credential: { credentialType, ...result.credential } } : result;
    }
    case 'GENERIC': {
      if (!genericPayload || fidoPayload) return rejected('a GENERIC credential carries a genericPayload and nothing else');
      const result = verifyGenericRegistration(genericPayload, challenge);
      return result.verified ? { verified: true, credential: { credentialType, ...result.credential } } : result;
    }
  }
}

/**
 * POST /thirdpartyRequests/verifications: checks the signed challenge with the consent's credential and returns the
 * credential to store back (a FIDO one with its new signature counter). The signedPayloadType must be the registered
 * credential's type: a credential's key only ever signs in the way it was registered for.
 */
export async function verifySignedChallenge(
  stored: StoredCredential,
  request: SignedChallenge,
  options: FidoOptions,
): Promise<Verified<{ credential: StoredCredential }>> {
  const mismatch = rejected(`a ${request.signedPayloadType} signed payload cannot be verified with the consent's ${stored.credentialType} credential`);
  if (request.signedPayloadType === 'FIDO') {
    if (stored.credentialType !== 'FIDO') return mismatch;
    const result = await verifyFidoAssertion(stored, request.fidoSignedPayload, request.challenge, options);
    return result.verified ? { verified: true, credential: { ...stored, counter: result.counter } } : result;
  }
  if (stored.credentialType !== 'GENERIC') return mismatch;
  const result = verifyGenericSignature(stored, request.genericSignedPayload, request.challenge);
  return result.verified ? { verified: true, credential: stored } : result;
}
