import crypto from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import type { ExecutionContext } from 'ava';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { FollowUp } from '../../../activities/shared/contracts/followUps';
import type { followUp } from '../../../workflows/hub/followUp';
import { fspiopHeaders } from '../../helpers/hubMessages';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// A follow-up (an answer from a conversation's record: a GET, a repeat after the conversation ended, a late callback)
// on the time-skipping server with a stub delivery: its one step is retried with backoff while the participant is out
// of reach, so the answer outlives the gateway that took the request. Serial: each test moves the one server clock the
// file shares.
const PAYER = 'payerfsp';

const stubs = new StubActivities({ answerFollowUp: async () => undefined });
const test = stubbedWorkflowTest('hub', stubs);

/** The payer's GET /transfers/{ID} of a transfer whose workflow has ended, handed to a follow-up as the gateway hands it. */
async function asked(t: ExecutionContext<StubbedWorkflows>) {
  const transferId = crypto.randomUUID();
  const request: FollowUp = { kind: 'transferStatus', transferId, requester: { source: PAYER, version: '1.1', headers: fspiopHeaders(PAYER) } };
  const handle = await t.context.start<typeof followUp>('followUp', workflowIds.followUp('transfers', transferId, 'get'), request);
  return { request, handle };
}

/** A delivery that meets a participant out of reach its first `failures` times. */
const unreachable = (failures: number) => async () => {
  if (failures-- > 0) throw new Error('connect ECONNREFUSED');
};

test.serial('the answer is delivered once, as the gateway asked for it, and the follow-up ends', async (t) => {
  const { request, handle } = await asked(t);
  t.is(await handle.result(), undefined);
  t.deepEqual(stubs.inputs('answerFollowUp'), [request]);
});

test.serial('a participant out of reach for a while gets the answer once it is back: the delivery is tried again with backoff', async (t) => {
  stubs.script({ answerFollowUp: unreachable(3) });
  const { request, handle } = await asked(t);
  // Awaiting the result lets the server skip the backoff.
  t.is(await handle.result(), undefined);
  t.deepEqual(stubs.inputs('answerFollowUp'), [request, request, request, request]);
});

test.serial('a participant out of reach through every retry: after a first attempt and eight more, the follow-up fails', async (t) => {
  stubs.script({ answerFollowUp: unreachable(Infinity) });
  const { handle } = await asked(t);
  await t.throwsAsync(handle.result(), { instanceOf: WorkflowFailedError });
  t.is(stubs.inputs('answerFollowUp').length, 9);
});

test.serial('an answer the record refuses (a business rejection) is not tried again', async (t) => {
  stubs.script({
    answerFollowUp: async () => {
      throw rejection('transferIdNotFound');
    },
  });
  const { handle } = await asked(t);
  const failed = await t.throwsAsync(handle.result(), { instanceOf: WorkflowFailedError });
  t.regex(String(failed?.cause?.message), /Transfer ID not found/);
  t.is(stubs.inputs('answerFollowUp').length, 1);
});
