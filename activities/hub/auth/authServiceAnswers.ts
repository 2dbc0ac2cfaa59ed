import type { Logger } from 'pino';
import type { ConsentRegistration } from '../../shared/contracts/consentRegistration';
import type { ThirdpartyRequestsVerificationsPostRequest } from '../../shared/contracts/bodies';
import { addressOf, MessageName, THIRDPARTY_VERSION, ThirdpartyResource } from '../../shared/contracts/conversations';
import { HubError } from '../../shared/platform/hubError';
import type { CallbackSender } from '../delivery/callbacks';
import { correlationKeys, Correlations } from '../thirdparty/correlations';
import type { AuthService, RegisteredConsent, RevokedConsent } from './authService';

export interface VerificationOutcome {
  verified: boolean;
  transactionRequestId?: string;
}

export interface RegistrationOutcome {
  verified: boolean;
  /** The linking the consent came from, when the switch saw it: its observer is told. */
  consentRequestId?: string;
}

/**
 * The Auth service's side of each conversation it takes part in: one step of its rules and the message that tells
 * its outcome, sent as the Auth service (FSPIOP-Source is its participant name). Each runs as one activity, from
 * the consent's workflow or, when none runs, from a follow-up; the rules are idempotent, so a retry after a failed
 * delivery sends the same answer again. An answer the receiver refuses or has no endpoint for does not undo the
 * outcome: it is logged, and the participant can ask again (GET /consents/{ID}, a repeated request).
 */
export class AuthServiceAnswers {
  constructor(
    private readonly auth: AuthService,
    private readonly sender: CallbackSender,
    private readonly participantId: string,
    private readonly correlations: Correlations,
    private readonly log: Logger,
  ) {}

  /** POST /consents: PUT /consents/{ID} with the credential VERIFIED to the DFSP, or PUT …/error. */
  async registration(input: ConsentRegistration): Promise<RegistrationOutcome> {
    const { consentId } = input.body;
    let registered: RegisteredConsent;
    try {
      registered = await this.auth.register(input);
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.tell(input.dfsp, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
      return { verified: false, ...(input.body.consentRequestId ? { consentRequestId: input.body.consentRequestId } : {}) };
    }
    await this.tell(input.dfsp, 'consents', 'answer', consentId, registered.verified);
    return { verified: true, ...(registered.consentRequestId ? { consentRequestId: registered.consentRequestId } : {}) };
  }

  /** GET /consents/{ID} at the Auth service: the consent, VERIFIED, or why it cannot be given. */
  async consent(consentId: string, requester: string): Promise<void> {
    try {
      await this.tell(requester, 'consents', 'answer', consentId, await this.auth.view(consentId, requester));
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.tell(requester, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
    }
  }

  /**
   * POST /thirdpartyRequests/verifications: PUT …/{ID} with VERIFIED to the DFSP that asked, or PUT …/error. Says
   * which third-party transaction the verified challenge belongs to, when the switch routed it, so its observer learns.
   */
  async verification(request: ThirdpartyRequestsVerificationsPostRequest, requester: string): Promise<VerificationOutcome> {
    const id = request.verificationRequestId;
    const transactionRequestId = await this.correlations.transactionOf(correlationKeys.challenge(request.challenge));
    const outcome = (verified: boolean) => ({ verified, ...(transactionRequestId ? { transactionRequestId } : {}) });
    try {
      await this.auth.verify(request, requester);
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.tell(requester, 'thirdpartyRequests/verifications', 'error', id, { errorInformation: error.errorInformation });
      return outcome(false);
    }
    await this.tell(requester, 'thirdpartyRequests/verifications', 'answer', id, { authenticationResponse: 'VERIFIED' });
    return outcome(true);
  }

  /** DELETE /consents/{ID}: PATCH /consents/{ID} with REVOKED to the DFSP and the PISP, or PUT …/error to the requester. */
  async revocation(consentId: string, requester: string): Promise<boolean> {
    let revoked: RevokedConsent;
    try {
      revoked = await this.auth.revoke({ consentId, by: requester });
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      await this.tell(requester, 'consents', 'error', consentId, { errorInformation: error.errorInformation });
      return false;
    }
    const body = { status: 'REVOKED', revokedAt: revoked.revokedAt };
    for (const party of [revoked.dfsp, revoked.pisp]) if (party) await this.tell(party, 'consents', 'patch', consentId, body);
    return true;
  }

  /** One message from the Auth service; a refusal or a missing endpoint is logged (network errors and 5xx are retried). */
  private async tell(to: string, resource: ThirdpartyResource, message: MessageName, id: string, body: unknown): Promise<void> {
    try {
      await this.sender.send({
        to,
        ...addressOf(resource, message, id),
        method: message === 'patch' ? 'PATCH' : 'PUT',
        fromHub: { resource, version: THIRDPARTY_VERSION, source: this.participantId },
        body,
      });
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      this.log.warn({ to, resource, id, message, err: error.message }, 'Auth service message not delivered');
    }
  }
}
