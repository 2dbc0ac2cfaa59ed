import { WorkflowUpdateFailedError } from '@temporalio/client';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import {
  closeOnSchedule,
  closeWindow,
  windowStateChanged,
  type closeOpenSettlementWindow,
  type settlementWindow,
} from '../../../workflows/hub/settlementWindow';
import { pollUntil } from '../../helpers/polling';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// A settlement window's workflow (central-settlement's OPEN → CLOSED → PENDING_SETTLEMENT → SETTLED) with stub
// window activities: closing it opens the next window, whose workflow it starts.

/** Window IDs of this file's own, one block per test, so each test's windows are new to the server. */
let nextId = 1_000;
const view = (settlementWindowId: number, state: string) => ({
  settlementWindowId,
  id: settlementWindowId,
  state,
  reason: 'test',
  createdDate: '2030-01-01T00:00:00.000Z',
  changedDate: '2030-01-01T00:00:00.000Z',
});
const stubs = new StubActivities({
  closeSettlementWindow: async ({ settlementWindowId }: { settlementWindowId: number }) => ({
    closed: view(settlementWindowId, 'CLOSED'),
    opened: view(settlementWindowId + 1, 'OPEN'),
  }),
  openSettlementWindow: async () => view(nextId, 'OPEN'),
});
const test = stubbedWorkflowTest('hub', stubs);

test.serial.beforeEach(() => {
  nextId += 10;
});

async function opened(t: { context: StubbedWorkflows }, settlementWindowId = nextId) {
  return t.context.start<typeof settlementWindow>('settlementWindow', workflowIds.settlementWindow(settlementWindowId), settlementWindowId);
}

test.serial("the operator's close answers with the window opened in its place, whose workflow it starts; the window ends once SETTLED", async (t) => {
  const window = await opened(t);
  const closed = await window.executeUpdate(closeWindow, { args: [{ reason: 'end of day' }] });
  t.like(closed, { closed: { settlementWindowId: nextId, state: 'CLOSED' }, opened: { settlementWindowId: nextId + 1, state: 'OPEN' } });
  t.deepEqual(stubs.inputs('closeSettlementWindow'), [{ settlementWindowId: nextId, reason: 'end of day' }]);
  const next = t.context.client.workflow.getHandle(workflowIds.settlementWindow(nextId + 1));
  t.is((await next.describe()).status.name, 'RUNNING', "the next window's workflow outlives this one");

  t.deepEqual(await window.executeUpdate(closeWindow, { args: [{ reason: 'again' }] }), closed, 'a close asked again gets the first one’s answer');
  t.is(stubs.inputs('closeSettlementWindow').length, 1, 'and closes nothing more');
  await next.terminate('the test is over');
  await window.signal(windowStateChanged, 'PENDING_SETTLEMENT');
  await window.signal(windowStateChanged, 'SETTLED');
  t.is(await window.result(), undefined);
});

test.serial('a window the ledger refuses to close (it holds no payment) stays open and may be closed later', async (t) => {
  let refusals = 1;
  stubs.script({
    closeSettlementWindow: async ({ settlementWindowId }: { settlementWindowId: number }) => {
      if (refusals-- > 0) throw rejection('validationError', 'the window holds no payment');
      return { closed: view(settlementWindowId, 'CLOSED'), opened: view(settlementWindowId + 1, 'OPEN') };
    },
  });
  const window = await opened(t);
  const refused = await t.throwsAsync(window.executeUpdate(closeWindow, { args: [{ reason: 'end of day' }] }), { instanceOf: WorkflowUpdateFailedError });
  t.regex(String(refused?.cause?.message), /holds no payment/);
  t.like(await window.executeUpdate(closeWindow, { args: [{ reason: 'end of day' }] }), { opened: { settlementWindowId: nextId + 1 } });
  await window.terminate('the test is over');
  await t.context.client.workflow.getHandle(workflowIds.settlementWindow(nextId + 1)).terminate('the test is over');
});

test.serial("the closing schedule asks the open window's workflow to close, starting it first if it never ran", async (t) => {
  await t.context.client.workflow.execute<typeof closeOpenSettlementWindow>('closeOpenSettlementWindow', {
    workflowId: `closeOpenSettlementWindow/${nextId}`,
    taskQueue: t.context.taskQueue,
    args: ['scheduled close'],
  });
  t.deepEqual(await stubs.next('closeSettlementWindow'), { settlementWindowId: nextId, reason: 'scheduled close' });
  const next = t.context.client.workflow.getHandle(workflowIds.settlementWindow(nextId + 1));
  const started = await pollUntil(
    () =>
      next.describe().then(
        ({ status }) => status.name,
        () => 'not yet',
      ),
    (status) => status === 'RUNNING',
  );
  t.is(started, 'RUNNING', "the next window's workflow is started");
  const window = t.context.client.workflow.getHandle(workflowIds.settlementWindow(nextId));
  await next.terminate('the test is over');
  await window.signal(closeOnSchedule, { reason: 'scheduled close' });
  await window.signal(windowStateChanged, 'SETTLED');
  await window.result();
  t.is(stubs.inputs('closeSettlementWindow').length, 1, 'a closed window is not closed again by the schedule');
});
