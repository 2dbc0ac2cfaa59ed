import { ApplicationFailure } from '@temporalio/common';
import type { Scope } from '../shared/contracts/bodies';
import { errorInformation, HUB_REJECTION } from '../shared/contracts/errors';
import { consentChallenge } from '../shared/contracts/challenges';
import { GenericSigner } from './genericSigner';
import type { LinkedConsents } from './linkedConsents';

/** A consent as the DFSP granted it (POST /consents to the PISP). */
export interface GrantedConsent {
  consentId: string;
  scopes: Scope[];
}

/**
 * The PISP's GENERIC credentials. Each consent has a key of its own, derived from the connector's secret
 * (GenericSigner.derived), so a restart with the same secret signs with the same keys and no private key is stored.
 * Which consent covers an account is read from the PISP's linkings and unlinkings in Temporal (LinkedConsents), so
 * every worker knows it, before a restart and after. The registration challenge is the Auth service's own derivation
 * (activities/shared/contracts/challenges.ts, the Auth service's own: Document 1's rule, shared by the three sides).
 */
export function createCredentialActivities({ genericKeySecret, linkedConsents }: { genericKeySecret: string; linkedConsents: LinkedConsents }) {
  const signerOf = (consentId: string) => GenericSigner.derived(genericKeySecret, consentId);
  return {
    /** The registration challenge of a granted consent (Document 1, "Challenge derivation"), as the Auth service derives it. */
    async registrationChallenge(consent: GrantedConsent): Promise<string> {
      return consentChallenge(consent);
    },

    /** The genericPayload of PUT /consents/{ID}: the consent's public key and its signature over the registration challenge. */
    async genericCredential(consent: GrantedConsent) {
      return signerOf(consent.consentId).register(consentChallenge(consent));
    },

    /**
     * genericSignedPayload: the challenge of an authorization request signed with the key of the consent `dfsp`
     * granted over the account. None once every such consent is revoked (linking rules 5 and 6): a payment from the
     * account is then refused as one from an account never linked.
     */
    async signChallenge({ account, dfsp, challenge }: { account: string; dfsp: string; challenge: string }): Promise<string> {
      const consent = await linkedConsents.consentCovering(account, dfsp);
      if (!consent)
        throw ApplicationFailure.create({
          message: `no consent linked by this PISP covers ${account}`,
          type: HUB_REJECTION,
          nonRetryable: true,
          details: [errorInformation('consentInvalid', `no GENERIC credential of this PISP covers account ${account}`)],
        });
      return signerOf(consent.consentId).sign(challenge);
    },
  };
}

export type CredentialActivities = ReturnType<typeof createCredentialActivities>;
