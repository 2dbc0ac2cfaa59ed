import type { ConsentRegistration } from '../../shared/contracts/consentRegistration';
import type { ConsentsIDPutResponseVerified, Scope, ThirdpartyRequestsVerificationsPostRequest } from '../../shared/contracts/bodies';
import { requestHash } from '../../shared/contracts/requestHash';
import type { AuthServiceConfig } from '../../shared/platform/config';
import { HubError } from '../../shared/platform/hubError';
import { ConsentRecord, ConsentVerification } from '../db/thirdpartyEntities';
import type { AccountLookup } from '../lookup/accountLookup';
import type { Consents } from './consents';
import { StoredCredential, verifyRegistration, verifySignedChallenge } from './credentials';

/** What registering a consent's credential established, for the Auth service's answers. */
export interface RegisteredConsent {
  /** PUT /consents/{ID} to the DFSP: the consent with its credential VERIFIED. */
  verified: ConsentsIDPutResponseVerified;
  /** The linking the consent came from, as the switch recorded its grant. */
  consentRequestId?: string;
}

export interface RevokedConsent {
  dfsp: string;
  pisp?: string;
  revokedAt: string;
}

/**
 * The Auth service the hub hosts (Document 1, "Roles"): it validates a consent's credential at registration, keeps
 * the consent, registers it in the account lookup as `CONSENT/{consentId}` with itself as owner, verifies signed
 * challenges with it, and revokes it. Each method is one idempotent step: a retry finds its own work done. Every
 * check and write of a consent happens in one transaction holding its row.
 */
export class AuthService {
  constructor(
    private readonly consents: Consents,
    private readonly lookup: AccountLookup,
    private readonly config: AuthServiceConfig,
  ) {}

  /**
   * POST /consents from the DFSP: the credential must sign the challenge derived from the consent (7212 if not). The
   * same registration again is answered as before; another one under the same consentId is 3106.
   */
  async register(input: ConsentRegistration): Promise<RegisteredConsent> {
    const { body, dfsp, requestHash } = input;
    // The credential is checked before the row is taken: the check needs no row, and a slow one must not hold a lock.
    await this.consents.ensure(body.consentId, dfsp);
    const known = await this.consents.find(body.consentId);
    const result = known?.registrationHash === requestHash ? undefined : await verifyRegistration(body, this.config);
    const consent = await this.consents.update(body.consentId, async (consent, manager) => {
      if (consent?.dfsp && consent.dfsp !== dfsp) {
        throw new HubError('thirdpartyAccountLinkingError', `consent ${body.consentId} was granted by ${consent.dfsp}, not ${dfsp}`);
      }
      if (consent?.state === 'REVOKED') throw new HubError('consentInvalid', `consent ${body.consentId} is revoked`);
      if (consent?.registrationHash === requestHash) return consent;
      if (consent?.registrationHash) throw new HubError('modifiedRequest', `consent ${body.consentId} is registered with another credential`);
      const verified = result ?? (await verifyRegistration(body, this.config));
      if (!verified.verified) throw new HubError('signedChallengeMismatch', verified.reason);
      const row: Partial<ConsentRecord> = {
        consentId: body.consentId,
        // The grant the switch saw names the linking; a registration cannot point another linking's observer here.
        consentRequestId: consent?.consentRequestId ?? body.consentRequestId ?? null,
        dfsp,
        state: 'ISSUED',
        scopes: JSON.stringify(body.scopes),
        credentialType: body.credential.credentialType,
        credential: JSON.stringify({ ...body.credential, status: 'VERIFIED' }),
        publicKey: JSON.stringify(verified.credential),
        registrationHash: requestHash,
      };
      await manager.update(ConsentRecord, { consentId: body.consentId }, row);
      return { ...consent, ...row } as ConsentRecord;
    });
    await this.holdConsentEntry(body.consentId);
    return { verified: verifiedConsent(consent), ...(consent.consentRequestId ? { consentRequestId: consent.consentRequestId } : {}) };
  }

  /**
   * The consent as GET /consents/{ID} answers its DFSP or PISP: VERIFIED, or the reason it cannot be given (unknown,
   * revoked). Anyone else is told it is unknown: a consent's scopes and key are its parties' business.
   */
  async view(consentId: string, requester: string): Promise<ConsentsIDPutResponseVerified> {
    return verifiedConsent(usable(consentId, await this.consents.find(consentId), requester, ['dfsp', 'pisp']));
  }

  /**
   * POST /thirdpartyRequests/verifications from the consent's DFSP: the signed challenge must verify with the
   * consent's credential (7105 if not); an unknown or revoked consent, or another DFSP's, never verifies (7213). A
   * FIDO signature counter that does not grow is a replay. Each verification's outcome is kept by its ID: the same
   * request again gets the same outcome, another request under that ID is 3106.
   */
  async verify(request: ThirdpartyRequestsVerificationsPostRequest, requester: string): Promise<void> {
    const hash = requestHash(request);
    const failure = await this.consents.update(request.consentId, async (found, manager): Promise<string | undefined> => {
      // Only the DFSP that holds the account checks its user's signatures (Document 1, payment flow rule 6).
      const consent = usable(request.consentId, found, requester, ['dfsp']);
      const answered = await manager.findOneBy(ConsentVerification, { verificationRequestId: request.verificationRequestId });
      if (answered && answered.requestHash !== hash) {
        throw new HubError('modifiedRequest', `verification ${request.verificationRequestId} was asked with another request`);
      }
      if (answered) return answered.failure ?? undefined;
      const stored = JSON.parse(consent.publicKey!) as StoredCredential;
      const result = await verifySignedChallenge(stored, request, this.config);
      const reason = result.verified ? undefined : result.reason;
      if (result.verified) await manager.update(ConsentRecord, { consentId: consent.consentId }, { publicKey: JSON.stringify(result.credential) });
      await manager.insert(ConsentVerification, {
        verificationRequestId: request.verificationRequestId,
        consentId: consent.consentId,
        requestHash: hash,
        failure: reason ?? null,
        createdDate: new Date(),
      });
      return reason;
    });
    if (failure) throw new HubError('thirdpartyTransactionAuthorizationNotValid', failure);
  }

  /**
   * Unlinking (Document 1, linking rule 6): the consent is REVOKED and its CONSENT entry removed from the account
   * lookup. The DFSP's THIRD_PARTY_LINK entries are its own: it learns of the revocation from the PATCH. Only the
   * consent's DFSP or PISP may revoke it; revoking a revoked consent again only tells when it was.
   */
  async revoke(input: { consentId: string; by: string }): Promise<RevokedConsent> {
    const { consentId, by } = input;
    const revoked = await this.consents.update(consentId, async (consent, manager) => {
      if (!consent?.registrationHash) throw new HubError('consentInvalid', `the Auth service holds no consent ${consentId}`);
      if (by !== consent.dfsp && by !== consent.pisp) {
        throw new HubError('thirdpartyAccountLinkingError', `only the consent's DFSP or PISP may unlink it, not ${by}`);
      }
      if (consent.state !== 'REVOKED') {
        consent.state = 'REVOKED';
        consent.revokedAt = new Date();
        consent.revokedBy = by;
        await manager.update(ConsentRecord, { consentId }, { state: consent.state, revokedAt: consent.revokedAt, revokedBy: by });
      }
      return consent;
    });
    await this.lookup.remove({ partyIdType: 'CONSENT', partyIdentifier: consentId }, this.config.participantId);
    return { dfsp: revoked.dfsp!, ...(revoked.pisp ? { pisp: revoked.pisp } : {}), revokedAt: revoked.revokedAt!.toISOString() };
  }

  /**
   * Registers `CONSENT/{consentId}` with the Auth service as its holder (Document 1: POST /participants/CONSENT/{ID}
   * by the Auth service). A participant that registered the consent's ID first loses it: the Auth service has just
   * verified the consent, and the switch routes unlinking by this entry.
   */
  private async holdConsentEntry(consentId: string): Promise<void> {
    const entry = { partyIdType: 'CONSENT', partyIdentifier: consentId };
    const holder = await this.lookup.owner(entry);
    if (holder && holder !== this.config.participantId) await this.lookup.remove(entry, holder);
    await this.lookup.register([entry], this.config.participantId);
  }
}

/** A consent the Auth service can answer `requester` for: registered, one of its parties', not revoked. */
function usable(consentId: string, consent: ConsentRecord | null, requester: string, parties: Array<'dfsp' | 'pisp'>): ConsentRecord {
  const isParty = parties.some((party) => consent?.[party] === requester);
  if (!consent?.registrationHash || !isParty) throw new HubError('consentInvalid', `the Auth service holds no consent ${consentId} of ${requester}`);
  if (consent.state === 'REVOKED') throw new HubError('consentInvalid', `consent ${consentId} was revoked`);
  return consent;
}

function verifiedConsent(consent: ConsentRecord): ConsentsIDPutResponseVerified {
  return {
    scopes: JSON.parse(consent.scopes!) as Scope[],
    credential: JSON.parse(consent.credential!) as ConsentsIDPutResponseVerified['credential'],
  };
}
