import type {
  ConsentsIDPutResponseVerified,
  ConsentsPostRequestAUTH,
  Scope,
  SignedCredential,
  ThirdpartyRequestsVerificationsPostRequest,
} from '../../../api/contracts/bodies';
import type { AuthServiceConfig } from '../../platform/config';
import { HubError } from '../../platform/hubError';
import { ConsentRecord } from '../db/thirdpartyEntities';
import type { AccountLookup } from '../lookup/accountLookup';
import type { Consents } from './consents';
import { StoredCredential, verifyRegistration, verifySignedChallenge } from './credentials';

/** What registering a consent's credential established, for the Auth service's answers. */
export interface RegisteredConsent {
  /** PUT /consents/{ID} to the DFSP: the consent with its credential VERIFIED. */
  verified: ConsentsIDPutResponseVerified;
  dfsp: string;
  pisp?: string;
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
 * challenges with it, and revokes it. Each method is one idempotent step: a retry finds its own work done.
 */
export class AuthService {
  constructor(
    private readonly consents: Consents,
    private readonly lookup: AccountLookup,
    private readonly config: AuthServiceConfig,
  ) {}

  /** POST /consents from the DFSP: the credential must sign the challenge derived from the consent (7212 if not). */
  async register(input: { body: ConsentsPostRequestAUTH; dfsp: string; requestHash: string }): Promise<RegisteredConsent> {
    const { body, dfsp, requestHash } = input;
    const known = await this.consents.find(body.consentId);
    if (known?.dfsp && known.dfsp !== dfsp) {
      throw new HubError('thirdpartyAccountLinkingError', `consent ${body.consentId} was granted by ${known.dfsp}, not ${dfsp}`);
    }
    if (known?.state === 'REVOKED') throw new HubError('consentInvalid', `consent ${body.consentId} is revoked`);
    if (known?.registrationHash && known.registrationHash !== requestHash) {
      throw new HubError('modifiedRequest', `consent ${body.consentId} is registered with another credential`);
    }
    if (!known?.registrationHash) {
      const result = await verifyRegistration(body, this.config);
      if (!result.verified) throw new HubError('signedChallengeMismatch', result.reason);
      const credential: SignedCredential = body.credential;
      await this.consents.update(body.consentId, async (consent, manager) => {
        const row: Partial<ConsentRecord> = {
          consentId: body.consentId,
          consentRequestId: body.consentRequestId ?? consent?.consentRequestId ?? null,
          dfsp,
          state: 'ISSUED',
          scopes: JSON.stringify(body.scopes),
          credentialType: credential.credentialType,
          credential: JSON.stringify({ ...credential, status: 'VERIFIED' }),
          publicKey: JSON.stringify(result.credential),
          signCount: 0,
          registrationHash: requestHash,
        };
        if (consent) await manager.update(ConsentRecord, { consentId: body.consentId }, row);
        else await manager.insert(ConsentRecord, { ...row, pisp: null, createdDate: new Date() });
      });
    }
    // The account lookup learns who holds the consent (Document 1: POST /participants/CONSENT/{ID} by the Auth service).
    await this.lookup.register([{ partyIdType: 'CONSENT', partyIdentifier: body.consentId }], this.config.participantId);
    const consent = (await this.consents.find(body.consentId))!;
    return {
      verified: verifiedConsent(consent),
      dfsp,
      ...(consent.pisp ? { pisp: consent.pisp } : {}),
      ...(consent.consentRequestId ? { consentRequestId: consent.consentRequestId } : {}),
    };
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
   * consent's credential (7105 if not); an unknown or revoked consent, or another DFSP's, never verifies (7213). A FIDO signature counter that does
   * not grow is a replay. The outcome is kept with the verification's ID, so a retry answers the same.
   */
  async verify(request: ThirdpartyRequestsVerificationsPostRequest, requester: string): Promise<void> {
    const failure = await this.consents.update(request.consentId, async (found, manager): Promise<string | undefined> => {
      // Only the DFSP that holds the account checks its user's signatures (Document 1, payment flow rule 6).
      const consent = usable(request.consentId, found, requester, ['dfsp']);
      if (consent.lastVerificationId === request.verificationRequestId) return consent.lastVerificationError ?? undefined;
      const stored = JSON.parse(consent.publicKey!) as StoredCredential;
      const result = await verifySignedChallenge(stored, request, this.config);
      const reason = result.verified ? undefined : result.reason;
      await manager.update(
        ConsentRecord,
        { consentId: consent.consentId },
        {
          lastVerificationId: request.verificationRequestId,
          lastVerificationError: reason ?? null,
          ...(result.verified ? { publicKey: JSON.stringify(result.credential) } : {}),
        },
      );
      return reason;
    });
    if (failure) throw new HubError('thirdpartyTransactionAuthorizationNotValid', failure);
  }

  /**
   * Unlinking (Document 1, linking rule 6): the consent is REVOKED and its account-lookup entries removed. Only the
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
    // The DFSP registered one THIRD_PARTY_LINK per account of the consent; they link nothing any more.
    const scopes = JSON.parse(revoked.scopes ?? '[]') as Scope[];
    for (const scope of scopes) await this.lookup.remove({ partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: scope.address }, revoked.dfsp!);
    return { dfsp: revoked.dfsp!, ...(revoked.pisp ? { pisp: revoked.pisp } : {}), revokedAt: revoked.revokedAt!.toISOString() };
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
