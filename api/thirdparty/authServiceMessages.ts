import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import type { ConsentRequest } from '../../activities/shared/contracts/consentRegistration';
import type { ConsentsPostRequestAUTH, ThirdpartyRequestsVerificationsPostRequest } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { ConsentId, Dfsp, State } from '../../activities/shared/contracts/searchAttributes';
import { consent, consentRequestSignal } from '../../workflows/hub/consent';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { SwitchDependencies } from '../fspiop/switchApp';
import { startFollowUp } from '../fspiop/conversationRoutes';
import { requesterOf } from '../fspiop/routed';
import { requestHash } from '../../activities/shared/contracts/requestHash';
import { signalIfRunning, startOrRepeat } from '../fspiop/conversations';
import type { FspiopRequest } from '../fspiop/headers';
import type { ThirdpartyMessage } from './thirdpartyRoutes';

/** Whether a message is addressed to the Auth service the hub hosts. */
export const forAuthService = (fspiop: FspiopRequest, deps: SwitchDependencies) => fspiop.destination === deps.authService.participantId;

/**
 * POST /consents to the Auth service: the DFSP registers the consent and its credential. The consent's workflow
 * starts, its ID being the idempotency key; a registration repeated while it runs is a step of it, and one repeated
 * after it ended a follow-up: either way the duplicate rule runs it again.
 */
export async function registerConsent(message: ThirdpartyMessage<ConsentsPostRequestAUTH>, deps: SwitchDependencies): Promise<boolean> {
  if (!forAuthService(message.fspiop, deps)) return false;
  if (message.schema !== 'ConsentsPostRequestAUTH') {
    throw new HttpError(400, 'missingElement', "body must have required property 'credential': the Auth service registers a consent with its credential");
  }
  const { body, fspiop } = message;
  const registration = { body, dfsp: fspiop.source, requestHash: requestHash(body) };
  const outcome = await startOrRepeat(
    deps,
    consent,
    {
      workflowId: workflowIds.consent(body.consentId),
      taskQueue: deps.config.taskQueue,
      args: [{ consentId: body.consentId, authService: deps.authService.participantId, registration }],
      typedSearchAttributes: [
        { key: ConsentId, value: body.consentId },
        { key: Dfsp, value: fspiop.source },
        { key: State, value: 'REGISTERING' },
      ],
      staticSummary: `Consent ${body.consentId} of ${fspiop.source}, ${body.credential.credentialType} credential`,
    },
    consentRequestSignal,
    { kind: 'registration', registration },
  );
  if (outcome === 'finished') {
    await startFollowUp(deps.temporal, deps.config.taskQueue, 'consents', body.consentId, {
      kind: 'consentRequest',
      consentId: body.consentId,
      request: { kind: 'registration', registration },
    });
  }
  return true;
}

/** GET /consents/{ID} to the Auth service: answered from the consent's record. */
export async function getConsent(message: ThirdpartyMessage<undefined>, deps: SwitchDependencies): Promise<boolean> {
  if (!forAuthService(message.fspiop, deps)) return false;
  await startFollowUp(deps.temporal, deps.config.taskQueue, 'consents', message.id, {
    kind: 'consentGet',
    consentId: message.id,
    requester: requesterOf(message.fspiop),
  });
  return true;
}

/**
 * DELETE /consents/{ID} (Document 1, linking rules 5 and 6): addressed to the DFSP, it is first looked up as
 * CONSENT/{ID}; when the hub's Auth service owns the consent, the Auth service takes it, otherwise it goes to the DFSP.
 */
export async function unlinkConsent(message: ThirdpartyMessage<undefined>, deps: SwitchDependencies): Promise<boolean> {
  const owner = forAuthService(message.fspiop, deps)
    ? deps.authService.participantId
    : await new AccountLookup(deps.services.db).owner({ partyIdType: 'CONSENT', partyIdentifier: message.id });
  if (owner !== deps.authService.participantId) return false;
  await askAuthService(message.id, { kind: 'revocation', requester: message.fspiop.source }, deps);
  return true;
}

/** POST /thirdpartyRequests/verifications to the Auth service. */
export async function verifyChallenge(message: ThirdpartyMessage<ThirdpartyRequestsVerificationsPostRequest>, deps: SwitchDependencies): Promise<boolean> {
  if (!forAuthService(message.fspiop, deps)) return false;
  await askAuthService(message.body.consentId, { kind: 'verification', request: message.body, requester: message.fspiop.source }, deps);
  return true;
}

/** To the consent's running workflow, in order with the others; when none runs, a follow-up answers from the record. */
async function askAuthService(consentId: string, request: ConsentRequest, deps: SwitchDependencies): Promise<void> {
  if (await signalIfRunning(deps.temporal, workflowIds.consent(consentId), consentRequestSignal, request)) return;
  await startFollowUp(deps.temporal, deps.config.taskQueue, 'consents', consentId, { kind: 'consentRequest', consentId, request });
}
