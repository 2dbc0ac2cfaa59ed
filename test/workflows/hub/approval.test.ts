import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ExecutionContext } from 'ava';
import { APPROVAL_REFUSED, type ApprovalTerms, type DecisionRequest } from '../../../activities/shared/contracts/approvals';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { decide, type approval } from '../../../workflows/hub/approval';
import { DAY, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The approval's workflow (four eyes) with stub record and perform activities: who may decide is judged by the
// workflow itself, so a decision sent to Temporal by anyone is held to the rule; an undecided change expires.

let nextId = 0;
const view = (approvalId: string, state: string, extra: object = {}) => ({ approvalId, state, ...extra });
const stubs = new StubActivities({
  recordApprovalDecision: async ({ approvalId, decision }: { approvalId: string; decision: string }) => view(approvalId, decision),
  recordApprovalExpiry: async (approvalId: string) => view(approvalId, 'EXPIRED'),
  performApproval: async (approvalId: string) => view(approvalId, 'APPROVED', { outcome: { performed: true, answer: { status: 202, body: null } } }),
});
const test = stubbedWorkflowTest('hub', stubs);

async function held(t: ExecutionContext<StubbedWorkflows>, ttlMs = DAY) {
  const approvalId = `approval-test-${++nextId}`;
  const terms: ApprovalTerms = { approvalId, changeGroup: 'funds', requestedBy: { name: 'alice', credential: 'token' }, ttlMs };
  return { approvalId, handle: await t.context.start<typeof approval>('approval', workflowIds.approval(approvalId), terms) };
}

const by = (name: string, roles: string[], decision: DecisionRequest['decision'] = 'APPROVED'): DecisionRequest => ({
  decision,
  decidedBy: { name, credential: 'token', roles },
});

/** The refusal an update met: its status and FSPIOP code, as the gateway answers them. */
async function refusal(t: ExecutionContext, update: Promise<unknown>): Promise<{ status: number; errorInformation: { errorCode: string } }> {
  const error = await t.throwsAsync(update, { instanceOf: WorkflowUpdateFailedError });
  const cause = error?.cause as ApplicationFailure;
  t.is(cause.type, APPROVAL_REFUSED);
  return cause.details?.[0] as { status: number; errorInformation: { errorCode: string } };
}

test.serial("the requester's own approval is refused (403) by the workflow; another's performs the change once", async (t) => {
  const { approvalId, handle } = await held(t);
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [by('alice', ['finance'])] })), { status: 403, errorInformation: { errorCode: '3000' } });
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [by('alice', ['admin'])] })), { status: 403 }, 'whatever roles alice holds');
  t.deepEqual(stubs.calls, [], 'a refused decision records nothing');

  const approved = await handle.executeUpdate(decide, { args: [{ ...by('bob', ['finance']), reason: 'matches' }] });
  t.like(approved, { approvalId, state: 'APPROVED', outcome: { performed: true } });
  t.deepEqual(stubs.inputs('recordApprovalDecision'), [
    { approvalId, decision: 'APPROVED', reason: 'matches', decidedBy: { name: 'bob', credential: 'token' } },
  ]);
  t.deepEqual(stubs.inputs('performApproval'), [approvalId]);
  t.like(await handle.result(), { state: 'APPROVED' });
});

test.serial('a decider whose roles do not allow the held kind of change, or who is named by no credential, is refused 403', async (t) => {
  const { handle } = await held(t);
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [by('olga', ['operator'])] })), { status: 403 }, 'an operator decides, but not on funds');
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [by('vera', ['viewer'])] })), { status: 403 }, 'a viewer decides nothing');
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [by('mallory', ['superuser'])] })), { status: 403 }, 'a role no one has allows nothing');
  t.like(await refusal(t, handle.executeUpdate(decide, { args: [{ decision: 'APPROVED', decidedBy: { credential: 'token', roles: ['admin'] } as never }] })), {
    status: 403,
  });
  t.deepEqual(stubs.calls, []);
  await handle.terminate('the test is over');
});

test.serial('a rejection performs nothing, and no decision is taken after it; the requester may withdraw her own', async (t) => {
  const { handle } = await held(t);
  t.like(await handle.executeUpdate(decide, { args: [by('bob', ['finance'], 'REJECTED')] }), { state: 'REJECTED' });
  await handle.result();
  await t.throwsAsync(handle.executeUpdate(decide, { args: [by('carol', ['admin'])] }), { instanceOf: WorkflowNotFoundError });
  t.deepEqual(stubs.inputs('performApproval'), []);

  const withdrawn = await held(t);
  t.like(await withdrawn.handle.executeUpdate(decide, { args: [by('alice', ['finance'], 'REJECTED')] }), { state: 'REJECTED' });
  t.deepEqual(stubs.inputs('performApproval'), []);
});

test.serial('undecided, it expires after its TTL (a day passes in milliseconds): recorded once, nothing performed, no decision taken after', async (t) => {
  const { approvalId, handle } = await held(t);
  t.like(await handle.result(), { approvalId, state: 'EXPIRED' });
  t.deepEqual(stubs.inputs('recordApprovalExpiry'), [approvalId]);
  t.deepEqual(stubs.inputs('performApproval'), []);
  await t.throwsAsync(handle.executeUpdate(decide, { args: [by('bob', ['finance'])] }), { instanceOf: WorkflowNotFoundError });
});
