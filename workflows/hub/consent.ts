import { condition, continueAsNew, defineQuery, defineSignal, getExternalWorkflowHandle, log, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { ConsentRegistration, ConsentRequest } from '../../api/contracts/authService';
import { workflowIds } from '../../api/contracts/conversations';
import type { FollowedMessage } from '../../api/contracts/followers';
import { State } from '../../api/contracts/searchAttributes';
import { deliveries } from '../kit/activities';
import { followedMessageSignal } from '../kit/follower';

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

  if (input.registration) {
    const outcome = await deliveries.answerConsentRegistration(input.registration);
    moveTo(outcome.verified ? 'VERIFIED' : 'REJECTED');
    if (outcome.consentRequestId) await tellLinking(outcome.consentRequestId, input, outcome.verified);
    if (!outcome.verified) return view.state;
  }

  // After the revocation the requests already signalled are still answered (a revoked consent refuses them), so none
  // is lost between the revocation and the end of the run.
  while (view.state !== 'REVOKED' || pending.length > 0) {
    await condition(() => pending.length > 0);
    const next = pending.shift()!;
    if (next.kind === 'registration') {
      await deliveries.answerConsentRegistration(next.registration);
      continue;
    }
    if (next.kind === 'revocation') {
      if (await deliveries.answerConsentRevocation({ consentId: input.consentId, requester: next.requester })) moveTo('REVOKED');
      continue;
    }
    const { verified, transactionRequestId } = await deliveries.answerVerification({ request: next.request, requester: next.requester });
    if (transactionRequestId) {
      await tell(workflowIds.thirdpartyTransaction(transactionRequestId), {
        resource: 'thirdpartyRequests/verifications',
        message: verified ? 'answer' : 'error',
        id: next.request.verificationRequestId,
        from: input.authService,
        to: next.requester,
        at: new Date().toISOString(),
        facts: { consentId: input.consentId, ...(verified ? { state: 'VERIFIED' } : {}) },
      });
    }
    view.verifications.push({ verificationRequestId: next.request.verificationRequestId, requester: next.requester, verified });
    view.served += 1;
    if (view.verifications.length >= VERIFICATIONS_PER_RUN && pending.length === 0 && view.state !== 'REVOKED') {
      await continueAsNew<typeof consent>({ consentId: input.consentId, authService: input.authService, served: view.served });
    }
  }
  return view.state;
}

/** The Auth service's answer is a message of the linking too; its follower learns it (if it still follows). */
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

/** Tells a follower of the conversation an answer of the Auth service belongs to; one that has ended is left alone. */
async function tell(workflowId: string, message: FollowedMessage): Promise<void> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(followedMessageSignal, message);
  } catch (error) {
    log.info('follower not told', { workflowId, error: (error as Error).message });
  }
}
