import { patched, workflowInfo } from '@temporalio/workflow';
import { CODE_REVISION_MEMO, revisionOf } from '../../activities/shared/contracts/codeRevision';

/**
 * Whether this run has the behaviour `patchId` guards: from the revision it was started at when that revision took
 * the patch in (no marker recorded, no search attribute upserted), else from the patch marker, as `patched()`.
 */
export function hasPatch(patchId: string): boolean {
  const startedAt = workflowInfo().memo?.[CODE_REVISION_MEMO];
  const since = revisionOf(patchId);
  if (typeof startedAt === 'number' && since !== undefined && startedAt >= since) return true;
  return patched(patchId);
}
