import { ApplicationFailure } from '@temporalio/common';
import type { Scope } from '../../api/contracts/bodies';
import { errorInformation, HUB_REJECTION } from '../../api/contracts/errors';
import { consentChallenge } from '../hub/auth/challenge';
import { GenericSigner } from './genericSigner';

/** A consent as the DFSP granted it (POST /consents to the PISP). */
export interface GrantedConsent {
  consentId: string;
  scopes: Scope[];
}

/**
 * The PISP's GENERIC credentials. Each consent has a key of its own, derived from the connector's secret
 * (GenericSigner.derived), so a restart with the same secret signs with the same keys and no private key is stored.
 * Which consent covers an account is remembered in memory when a linking ends, and forgotten when it is unlinked: after
 * a restart a payment from an account linked before it finds no consent until the account is linked again.
 */
export function createCredentialActivities({ genericKeySecret }: { genericKeySecret: string }) {
  const consentOfAccount = new Map<string, string>();
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

    /** Remembers which consent each linked account belongs to, for the payments made from it. */
    async rememberLinkedAccounts(consent: GrantedConsent): Promise<void> {
      for (const scope of consent.scopes) consentOfAccount.set(scope.address, consent.consentId);
    },

    /**
     * Unlinking (linking rules 5 and 6): once the consent is REVOKED its accounts are covered by it no more, so a
     * payment from them is refused as one from an account never linked. Forgetting twice changes nothing.
     */
    async forgetConsent({ consentId }: { consentId: string }): Promise<void> {
      for (const [account, linkedBy] of consentOfAccount) if (linkedBy === consentId) consentOfAccount.delete(account);
    },

    /** genericSignedPayload: the challenge of an authorization request signed with the key of the account's consent. */
    async signChallenge({ account, challenge }: { account: string; challenge: string }): Promise<string> {
      const consentId = consentOfAccount.get(account);
      if (!consentId)
        throw ApplicationFailure.create({
          message: `no consent linked by this PISP covers ${account}`,
          type: HUB_REJECTION,
          nonRetryable: true,
          details: [errorInformation('consentInvalid', `no GENERIC credential of this PISP covers account ${account}`)],
        });
      return signerOf(consentId).sign(challenge);
    },
  };
}

export type CredentialActivities = ReturnType<typeof createCredentialActivities>;
