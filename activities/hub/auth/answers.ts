import type { ConsentsPostRequestAUTH, ThirdpartyRequestsVerificationsPostRequest } from '../../../api/contracts/bodies';
import { addressOf, MessageName, ThirdpartyResource } from '../../../api/contracts/conversations';
import { HubError } from '../../platform/hubError';
import type { CallbackSender } from '../delivery/callbacks';
import { correlationKeys, Correlations } from '../thirdparty/correlations';
import type { AuthService } from './authService';

/** The version of the third-party API the Auth service speaks. */
const THIRDPARTY_VERSION = '1.0';

export interface VerificationOutcome {
  verified: boolean;
  transactionRequestId?: string;
}

export interface RegistrationOutcome {
  verified: boolean;
  /** The linking the consent came from, when the switch saw it: its follower is told. */
  consentRequestId?: string;
}

/**
 * The Auth service's side of each conversation it takes part in: one step of its rules and the message that tells
 * its outcome, sent as the Auth service (FSPIOP-Source is its participant name). Each runs as one activity, from
 * the consent's workflow or, when none runs, from a follow-up; the rules are idempotent, so a retry after a failed
 * delivery sends the same answer again.
 */
export class AuthServiceAnswers {
  constructor(
    private readonly auth: AuthService,
    private readonly sender: CallbackSender,
    private readonly participantId: string,
    private readonly correlations: Correlations,
  ) {}

  /** POST /consents: PUT /consents/{ID} with the credential VERIFIED to the DFSP, or PUT …/error. */
  async registration(input: { body: ConsentsPostRequestAUTH; dfsp: string; requestHash: string }): Promise<RegistrationOutcome> {
    const { consentId } = input.body;
    try {
      const registered = await this.auth.register(input);
      await this.send(input.dfsp, 'consents', 'answer', consentId, registered.verified);
      return { verified: true, ...(registered.consentRequestId ? { consentRequestId: registered.consentRequestId } : {}) };
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.send(input.dfsp, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
      return { verified: false, ...(input.body.consentRequestId ? { consentRequestId: input.body.consentRequestId } : {}) };
    }
  }

  /** GET /consents/{ID} at the Auth service: the consent, VERIFIED, or why it cannot be given. */
  async consent(consentId: string, requester: string): Promise<void> {
    try {
      await this.send(requester, 'consents', 'answer', consentId, await this.auth.view(consentId, requester));
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.send(requester, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
    }
  }

  /**
   * POST /thirdpartyRequests/verifications: PUT …/{ID} with VERIFIED to the DFSP that asked, or PUT …/error. Says
   * which third-party transaction the verified challenge belongs to, when the switch routed it, so its follower learns.
   */
  async verification(request: ThirdpartyRequestsVerificationsPostRequest, requester: string): Promise<VerificationOutcome> {
    const id = request.verificationRequestId;
    const transactionRequestId = await this.correlations.transactionOf(correlationKeys.challenge(request.challenge));
    const outcome = (verified: boolean) => ({ verified, ...(transactionRequestId ? { transactionRequestId } : {}) });
    try {
      await this.auth.verify(request, requester);
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.send(requester, 'thirdpartyRequests/verifications', 'error', id, { errorInformation: error.errorInformation });
      return outcome(false);
    }
    await this.send(requester, 'thirdpartyRequests/verifications', 'answer', id, { authenticationResponse: 'VERIFIED' });
    return outcome(true);
  }

  /** DELETE /consents/{ID}: PATCH /consents/{ID} with REVOKED to the DFSP and the PISP, or PUT …/error to the requester. */
  async revocation(consentId: string, requester: string): Promise<boolean> {
    try {
      const revoked = await this.auth.revoke({ consentId, by: requester });
      const body = { status: 'REVOKED', revokedAt: revoked.revokedAt };
      for (const party of [revoked.dfsp, revoked.pisp]) if (party) await this.send(party, 'consents', 'patch', consentId, body);
      return true;
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.send(requester, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
      return false;
    }
  }

  private send(to: string, resource: ThirdpartyResource, message: MessageName, id: string, body: unknown): Promise<void> {
    const method = message === 'patch' ? 'PATCH' : 'PUT';
    return this.sender.send({
      to,
      ...addressOf(resource, message, id),
      method,
      fromHub: { resource, version: THIRDPARTY_VERSION, source: this.participantId },
      body,
    });
  }
}
