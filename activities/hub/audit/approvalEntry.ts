import type { ApprovalView } from '../../shared/contracts/approvals';
import type { AuditRecord } from './auditTrail';

/**
 * The audit entry of a held change performed after its approval: the person who approved it acted, on the request of
 * the one who asked, and the outcome is what performing it did. Its reference makes the activity's append happen once
 * however often Temporal runs it. The decision itself and the request are entries of their own (the gateway's).
 */
export function performedApprovalEntry(approval: ApprovalView): AuditRecord {
  const [method, ...path] = approval.summary.split(' ');
  const outcome = approval.outcome;
  return {
    actor: approval.decidedBy?.name,
    credential: approval.decidedBy?.credential,
    action: 'approval.performed',
    method,
    target: path.join(' '),
    permission: approval.changeGroup,
    status: outcome ? (outcome.performed ? outcome.answer.status : outcome.status) : undefined,
    errorCode: outcome && !outcome.performed ? outcome.errorInformation.errorCode : undefined,
    approvalId: approval.approvalId,
    detail: `${approval.action}, requested by ${approval.requestedBy.name}, approved by ${approval.decidedBy?.name ?? 'unknown'}`,
    reference: `approval/${approval.approvalId}/performed`,
  };
}
