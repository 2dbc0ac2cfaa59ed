import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineUpdate,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import { APPROVAL_REFUSED, type ApprovalTerms, type ApprovalView, type DecisionRequest } from '../../activities/shared/contracts/approvals';
import { errorInformation, type FspiopErrorName } from '../../activities/shared/contracts/errors';
import { callerMay, OPERATOR_ROLES, type OperatorRole } from '../../activities/shared/contracts/operatorRoles';
import { State } from '../../activities/shared/contracts/searchAttributes';

// Recording steps are quick; performing an approved change may start or update a settlement's workflow, so it has
// minutes, and is retried on the action's own idempotency (a funds movement by its transferId).
const { recordApprovalDecision, recordApprovalExpiry, performApproval } = proxyActivities<HubActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * PUT /approvals/{id}: a second person's decision. It answers once the decision is recorded and, when approved, the
 * change performed: the approval as it then stands, with its outcome.
 */
export const decide = defineUpdate<ApprovalView, [DecisionRequest]>('decide');

/** A decision refused, as the gateway answers it: 403 for who decides, 400 for when. */
function refused(status: 400 | 403, errorName: FspiopErrorName, description: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: APPROVAL_REFUSED,
    message: description,
    details: [{ status, errorInformation: errorInformation(errorName, description) }],
    nonRetryable: true,
  });
}

/**
 * A change held for a second person (four eyes). It waits for a decision by someone other than the requester whose
 * roles allow that kind of change, until APPROVAL_TTL runs out; approved, it performs the change through the same
 * code a direct call runs, once; rejected or expired, it records that, and nothing changes.
 */
export async function approval(terms: ApprovalTerms): Promise<ApprovalView> {
  const { approvalId, changeGroup, requestedBy, ttlMs } = terms;
  let decision: DecisionRequest | undefined;
  let closed = false;
  let final: ApprovalView | undefined;

  setHandler(
    decide,
    async (request) => {
      decision = request;
      await condition(() => final !== undefined);
      return final!;
    },
    {
      validator: ({ decision: given, decidedBy }) => {
        if (decision || closed) throw refused(400, 'validationError', `approval ${approvalId} is no longer pending`);
        if (given !== 'APPROVED' && given !== 'REJECTED') throw refused(400, 'validationError', 'decision is APPROVED or REJECTED');
        if (!decidedBy.name) throw refused(403, 'clientError', 'Forbidden: four eyes needs to know who decides; this credential names no one');
        // Withdrawing one's own request is allowed; approving it would make four eyes two.
        if (given === 'APPROVED' && decidedBy.name === requestedBy.name) {
          throw refused(403, 'clientError', `Forbidden: ${decidedBy.name} asked for this change and cannot approve it`);
        }
        // Roles as the gateway found them; anything else a sender to Temporal might put there allows nothing.
        const claimed: string[] = decidedBy.roles ?? [];
        const roles = claimed.filter((role): role is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(role));
        if (!callerMay({ roles }, 'decide') || !callerMay({ roles }, changeGroup)) {
          throw refused(403, 'clientError', `Forbidden: ${decidedBy.name}'s roles do not allow deciding on ${changeGroup} changes`);
        }
      },
    },
  );

  upsertSearchAttributes([{ key: State, value: 'PENDING' }]);
  if (await condition(() => decision !== undefined, ttlMs)) {
    const { decision: decided, reason, decidedBy } = decision!;
    const recorded = await recordApprovalDecision({
      approvalId,
      decision: decided,
      reason,
      decidedBy: { name: decidedBy.name, credential: decidedBy.credential },
    });
    final = decided === 'APPROVED' ? await performApproval(approvalId) : recorded;
  } else {
    closed = true;
    final = await recordApprovalExpiry(approvalId);
    // No address is known for operators: the requester finds it EXPIRED on GET /approvals/{id} and the console.
    log.info('approval expired undecided', { approvalId, requestedBy: requestedBy.name, changeGroup });
  }
  // So an operator finds approvals by state in the Temporal UI, as every other workflow of the hub.
  upsertSearchAttributes([{ key: State, value: final.state }]);
  await condition(allHandlersFinished);
  return final;
}
