import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  log,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConsentRegistration, ConsentRequest } from '../../activities/shared/contracts/consentRegistration';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import type { ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { deliveries } from '../kit/hubProxies';
import { observedMessageSignal } from '../kit/observer';

export interface ConsentInput {
  consentId: string;
  /** The Auth service's participant name, which its messages carry as FSPIOP-Source. */
  authService: string;
  /** Absent when the workflow continues as new: the consent is registered already. */
  registration?: ConsentRegistration;
  /** Verifications served by earlier runs of this consent's workflow. */
  served?: number;
}

export interface ConsentView {
  state: 'REGISTERING' | 'VERIFIED' | 'REJECTED' | 'REVOKED';
  verifications: { verificationRequestId: string; requester: string; verified: boolean }[];
  served: number;
}

export const consentRequestSignal = defineSignal<[ConsentRequest]>('consentRequest');
export const consentQuery = defineQuery<ConsentView>('consent');

/** A run keeps its history short: after this many verifications it continues as new. */
const VERIFICATIONS_PER_RUN = 500;

/**
 * `consent/<consentId>`: a consent held by the hub's Auth service (Document 1), from its registration to its
 * revocation. Registration checks the credential against the challenge derived from the consent and answers the DFSP
 * (VERIFIED, or an error); then the consent serves the DFSP's verifications of signed challenges, in order, until
 * its DFSP or PISP unlinks it. A repeated registration is answered as the first was (or 3106 if it differs). Each step is an activity whose rules are idempotent and whose state is also in the
 * database, so the Auth service answers from there when no workflow runs.
 */
export async function consent(input: ConsentInput): Promise<ConsentView['state']> {
  const view: ConsentView = { state: input.registration ? 'REGISTERING' : 'VERIFIED', verifications: [], served: input.served ?? 0 };
  const pending: ConsentRequest[] = [];
  setHandler(consentRequestSignal, (request) => void pending.push(request));
  setHandler(consentQuery, () => view);
  const moveTo = (state: ConsentView['state']) => {
    view.state = state;
    upsertSearchAttributes([{ key: State, value: state }]);
  };
  const isOver = () => view.state === 'REJECTED' || view.state === 'REVOKED';

  /** One request, answered; its outcome moves the consent. */
  async function serve(request: ConsentRequest): Promise<void> {
    switch (request.kind) {
      case 'registration': {
        const outcome = await deliveries.answerConsentRegistration(request.registration);
        // A repeat of a registered consent (answered again, or 3106) changes nothing; a first one decides the state.
        if (view.state === 'REGISTERING' || view.state === 'REJECTED') {
          moveTo(outcome.verified ? 'VERIFIED' : 'REJECTED');
          if (outcome.consentRequestId) await tellLinking(outcome.consentRequestId, input, outcome.verified);
        }
        return;
      }
      case 'revocation':
        if (await deliveries.answerConsentRevocation({ consentId: input.consentId, requester: request.requester })) moveTo('REVOKED');
        return;
      case 'verification': {
        const { verified, transactionRequestId } = await deliveries.answerVerification({ request: request.request, requester: request.requester });
        if (transactionRequestId) await tellTransaction(transactionRequestId, request, input, verified);
        view.verifications.push({ verificationRequestId: request.request.verificationRequestId, requester: request.requester, verified });
        view.served += 1;
      }
    }
  }

  if (input.registration) pending.unshift({ kind: 'registration', registration: input.registration });
  // Every request signalled is answered, also those that arrive while the consent is being rejected or revoked (a
  // corrected registration may still succeed; a verification then meets the revoked consent and is refused).
  while (!isOver() || pending.length > 0) {
    await condition(() => pending.length > 0);
    const next = pending.shift()!;
    try {
      await serve(next);
    } catch (error) {
      // Only an infrastructure failure outlasting every retry gets here: that request goes unanswered (its sender
      // may repeat it), the consent keeps serving the others.
      log.error('Auth service request not answered', { kind: next.kind, error: (error as Error).message });
    }
    if ((view.verifications.length >= VERIFICATIONS_PER_RUN || workflowInfo().continueAsNewSuggested) && pending.length === 0 && !isOver()) {
      await continueAsNew<typeof consent>({ consentId: input.consentId, authService: input.authService, served: view.served });
    }
  }
  return view.state;
}

/** The Auth service's verification is a message of the third-party transaction whose challenge it checked. */
function tellTransaction(transactionRequestId: string, request: ConsentRequest & { kind: 'verification' }, input: ConsentInput, verified: boolean) {
  return tell(workflowIds.thirdpartyTransaction(transactionRequestId), {
    resource: 'thirdpartyRequests/verifications',
    message: verified ? 'answer' : 'error',
    id: request.request.verificationRequestId,
    from: input.authService,
    to: request.requester,
    at: new Date().toISOString(),
    facts: { consentId: input.consentId, ...(verified ? { state: 'VERIFIED' } : {}) },
  });
}

/** The Auth service's answer is a message of the linking too; its observer learns it (if it still follows). */
function tellLinking(consentRequestId: string, input: ConsentInput, verified: boolean): Promise<void> {
  return tell(workflowIds.linking(consentRequestId), {
    resource: 'consents',
    message: verified ? 'answer' : 'error',
    id: input.consentId,
    from: input.authService,
    to: input.registration?.dfsp,
    at: new Date().toISOString(),
    facts: { consentId: input.consentId, ...(verified ? { state: 'VERIFIED' } : {}) },
  });
}

/** Tells an observer of the conversation an answer of the Auth service belongs to; one that has ended is left alone. */
async function tell(workflowId: string, message: ObservedMessage): Promise<void> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(observedMessageSignal, message);
  } catch (error) {
    log.info('observer not told', { workflowId, error: (error as Error).message });
  }
}
