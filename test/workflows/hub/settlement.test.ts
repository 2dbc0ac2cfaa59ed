import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import type { ExecutionContext } from 'ava';
import type { SettlementState } from '../../../activities/hub/db/settlementEntities';
import type { ParticipantChangeRequest } from '../../../activities/hub/settlement/accountSteps';
import type { BankConfirmationLine } from '../../../activities/hub/settlement/bankConfirmation';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { HUB_REJECTION, type ErrorInformation } from '../../../activities/shared/contracts/errors';
import { State } from '../../../activities/shared/contracts/searchAttributes';
import { abortSettlementUpdate, changeSettlementAccounts, finaliseSettlementUpdate, type settlement } from '../../../workflows/hub/settlement';
import type { settlementWindow } from '../../../workflows/hub/settlementWindow';
import { pollUntil } from '../../helpers/polling';
import { gate, rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// A settlement's workflow (central-settlement's PENDING_SETTLEMENT → PS_TRANSFERS_RECORDED → PS_TRANSFERS_RESERVED →
// PS_TRANSFERS_COMMITTED → SETTLED, or ABORTED) with a stub ledger: the operator's PUTs arrive as updates, run one at a
// time in the order sent; the settlement's windows' workflows hear its windows' states as it starts and as it ends.

/** The ledger as the stubs keep it: the settlement's state and its windows' (one settlement per test). */
let ledger: { state: SettlementState; windows: { settlementWindowId: number; state: string }[] };
/** Settlement and window IDs of this file's own, one block per test. */
let nextId = 2_000;

const view = (id: number, state: SettlementState) => ({
  id,
  state,
  reason: 'test',
  createdDate: '2030-01-01T00:00:00.000Z',
  changedDate: '2030-01-01T00:00:00.000Z',
  settlementWindows: [],
  participants: [],
});
/** The ledger moves the settlement to the state its accounts were moved to; once SETTLED, so are its windows. */
const moved = ({ settlementId, participants }: { settlementId: number; participants: ParticipantChangeRequest[] }) => {
  ledger.state = participants[0].accounts[0].state;
  if (ledger.state === 'SETTLED') for (const window of ledger.windows) window.state = 'SETTLED';
  return view(settlementId, ledger.state);
};
/** The ledger aborts the settlement; central-settlement's ABORTED window is free to be settled again. */
const aborted = ({ settlementId, reason }: { settlementId: number; reason: string }) => {
  ledger.state = 'ABORTED';
  for (const window of ledger.windows) window.state = 'ABORTED';
  return { id: settlementId, state: 'ABORTED' as const, reason };
};
/** Real time for a step to begin, were the workflow to let it begin out of turn. */
const outOfTurn = () => new Promise((resolve) => setTimeout(resolve, 500));
const stubs = new StubActivities({
  settlementState: async () => structuredClone(ledger),
  changeSettlement: async (input: { settlementId: number; participants: ParticipantChangeRequest[] }) => moved(input),
  abortSettlement: async (input: { settlementId: number; reason: string }) => aborted(input),
  finaliseSettlement: async (input: { settlementId: number; lines: BankConfirmationLine[] }) =>
    moved({ settlementId: input.settlementId, participants: moveTo('SETTLED') }),
});
const test = stubbedWorkflowTest('hub', stubs);

test.serial.beforeEach(() => {
  nextId += 10;
  ledger = { state: 'PENDING_SETTLEMENT', windows: [{ settlementWindowId: nextId + 1, state: 'PENDING_SETTLEMENT' }] };
});

/** The settlement of this test, as the settlement API starts it once the ledger has created it. */
const created = (t: ExecutionContext<StubbedWorkflows>) => t.context.start<typeof settlement>('settlement', workflowIds.settlement(nextId), nextId);

/** A window's workflow, running before its settlement starts (it was closed). */
const windowOf = (t: ExecutionContext<StubbedWorkflows>, settlementWindowId: number) =>
  t.context.start<typeof settlementWindow>('settlementWindow', workflowIds.settlementWindow(settlementWindowId), settlementWindowId);

/** PUT /settlements/{id}: participant 1's account 10 moved to `state`. */
const moveTo = (state: SettlementState): ParticipantChangeRequest[] => [{ id: 1, accounts: [{ id: 10, state, reason: `to ${state}` }] }];

/** A workflow's State search attribute, once it reads `expected` (or as it reads after the wait). */
const stateOf = async (t: ExecutionContext<StubbedWorkflows>, workflowId: string, expected: string) =>
  pollUntil(
    async () => (await t.context.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(State),
    (state) => state === expected,
  );

test.serial(
  "the operator's changes move the settlement step by step to SETTLED, each answered as the ledger left it; its windows' workflows follow and end with it",
  async (t) => {
    const window = await windowOf(t, nextId + 1);
    const handle = await created(t);
    t.is(await stateOf(t, window.workflowId, 'PENDING_SETTLEMENT'), 'PENDING_SETTLEMENT', 'the window hears its settlement began');

    const steps: SettlementState[] = ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED'];
    for (const state of steps) t.like(await handle.executeUpdate(changeSettlementAccounts, { args: [moveTo(state)] }), { id: nextId, state });
    t.is(await stateOf(t, handle.workflowId, 'PS_TRANSFERS_COMMITTED'), 'PS_TRANSFERS_COMMITTED', 'an operator finds it by its state');
    t.is((await window.describe()).status.name, 'RUNNING', 'the window is not settled before its settlement');

    t.like(await handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('SETTLED')] }), { state: 'SETTLED' });
    t.is(await handle.result(), undefined);
    t.deepEqual(
      stubs.inputs('changeSettlement'),
      [...steps, 'SETTLED'].map((state) => ({ settlementId: nextId, participants: moveTo(state as SettlementState) })),
    );
    t.is(await window.result(), undefined, "the window's workflow ends once its settlement is SETTLED");
    t.deepEqual(stubs.inputs('abortSettlement'), []);
  },
);

test.serial("an abort before anything is committed ends the settlement ABORTED; its windows' workflows go on, free to be settled again", async (t) => {
  const window = await windowOf(t, nextId + 1);
  const handle = await created(t);
  t.like(await handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_RECORDED')] }), { state: 'PS_TRANSFERS_RECORDED' });
  const aborted = await handle.executeUpdate(abortSettlementUpdate, { args: [{ reason: 'wrong windows', externalReference: 'ticket-7' }] });
  t.deepEqual(aborted, { id: nextId, state: 'ABORTED', reason: 'wrong windows' });
  t.deepEqual(stubs.inputs('abortSettlement'), [{ settlementId: nextId, reason: 'wrong windows', externalReference: 'ticket-7' }]);
  // Read before awaiting the settlement's end, while the server's clock runs in step with the test's.
  t.is(await stateOf(t, window.workflowId, 'ABORTED'), 'ABORTED', 'the window hears its settlement was aborted');
  t.is((await window.describe()).status.name, 'RUNNING');
  await window.terminate('the test is over');
  t.is(await handle.result(), undefined);
  await t.throwsAsync(handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_RESERVED')] }), { instanceOf: WorkflowNotFoundError });
  t.is(stubs.inputs('changeSettlement').length, 1, 'an ended settlement moves nothing');
});

test.serial(
  "the bank's confirmation settles a committed settlement in one update; a wrong one is refused and the settlement waits for the right one",
  async (t) => {
    const lines: BankConfirmationLine[] = [{ participant: 'payerfsp', currency: 'USD', amount: '10', reference: 'B-1' }];
    stubs.script({
      finaliseSettlement: async (input: { settlementId: number; lines: BankConfirmationLine[] }) => {
        if (input.lines[0].amount !== '10') throw rejection('validationError', "the bank's confirmation does not match settlement");
        return moved({ settlementId: input.settlementId, participants: moveTo('SETTLED') });
      },
    });
    const window = await windowOf(t, nextId + 1);
    const handle = await created(t);
    for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED'] as const) {
      await handle.executeUpdate(changeSettlementAccounts, { args: [moveTo(state)] });
    }
    const wrong = await t.throwsAsync(handle.executeUpdate(finaliseSettlementUpdate, { args: [[{ ...lines[0], amount: '9' }]] }), {
      instanceOf: WorkflowUpdateFailedError,
    });
    t.is((wrong?.cause as ApplicationFailure).type, HUB_REJECTION, 'refused as the settlement API answers a rejection (400)');
    t.is(await stateOf(t, handle.workflowId, 'PS_TRANSFERS_COMMITTED'), 'PS_TRANSFERS_COMMITTED', 'a wrong file leaves it where it was');

    t.like(await handle.executeUpdate(finaliseSettlementUpdate, { args: [lines] }), { id: nextId, state: 'SETTLED' });
    t.is(await handle.result(), undefined, 'SETTLED, its workflow ends');
    t.deepEqual(
      stubs.inputs('finaliseSettlement').map((input) => (input as { lines: BankConfirmationLine[] }).lines[0].amount),
      ['9', '10'],
      'each confirmation one step, none retried',
    );
    t.is(await window.result(), undefined, "the window's workflow ends once its settlement is SETTLED");
  },
);

test.serial('a change the ledger refuses is refused to the operator with its error; the settlement stays where it was and takes the next change', async (t) => {
  stubs.script({
    changeSettlement: async (input: { settlementId: number; participants: ParticipantChangeRequest[] }) => {
      if (input.participants[0].accounts[0].state !== 'PS_TRANSFERS_RECORDED') {
        throw rejection('validationError', 'account 10 cannot move from PENDING_SETTLEMENT to PS_TRANSFERS_COMMITTED');
      }
      return moved(input);
    },
  });
  const handle = await created(t);
  const refused = await t.throwsAsync(handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_COMMITTED')] }), {
    instanceOf: WorkflowUpdateFailedError,
  });
  const cause = refused?.cause as ApplicationFailure;
  t.is(cause.type, HUB_REJECTION, 'refused as the settlement API answers a rejection (400)');
  const refusal = cause.details?.[0] as ErrorInformation;
  t.is(refusal.errorCode, '3100');
  t.regex(refusal.errorDescription, /cannot move from PENDING_SETTLEMENT/, "the ledger's reason reaches the operator");
  t.is(await stateOf(t, handle.workflowId, 'PENDING_SETTLEMENT'), 'PENDING_SETTLEMENT');

  t.like(await handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_RECORDED')] }), { state: 'PS_TRANSFERS_RECORDED' });
  t.is(stubs.inputs('changeSettlement').length, 2, 'the refused change was not retried');
  await handle.executeUpdate(abortSettlementUpdate, { args: [{ reason: 'the test is over' }] });
  await handle.result();
});

test.serial('changes run one at a time in the order sent: an abort sent while a change is being made waits for it, then ends the settlement', async (t) => {
  const making = gate();
  const steps: string[] = [];
  stubs.script({
    changeSettlement: async (input: { settlementId: number; participants: ParticipantChangeRequest[] }) => {
      steps.push('change begun');
      await making.held;
      steps.push('change made');
      return moved(input);
    },
    abortSettlement: async (input: { settlementId: number; reason: string }) => {
      steps.push('abort begun');
      return aborted(input);
    },
  });
  const handle = await created(t);
  const change = handle.executeUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_RECORDED')] });
  await stubs.next('changeSettlement');
  const abort = await handle.startUpdate(abortSettlementUpdate, { args: [{ reason: 'operator' }], waitForStage: WorkflowUpdateStage.ACCEPTED });
  await outOfTurn();
  making.release();

  t.like(await change, { state: 'PS_TRANSFERS_RECORDED' });
  t.like(await abort.result(), { state: 'ABORTED' });
  t.deepEqual(steps, ['change begun', 'change made', 'abort begun'], 'the abort waited while the change was made');
  t.is(await handle.result(), undefined);
});

test.serial('a change sent as the settlement starts waits for it to read its state, instead of being refused', async (t) => {
  const reading = gate();
  const steps: string[] = [];
  stubs.script({
    settlementState: async () => {
      await reading.held;
      steps.push('state read');
      return structuredClone(ledger);
    },
    changeSettlement: async (input: { settlementId: number; participants: ParticipantChangeRequest[] }) => {
      steps.push('change begun');
      return moved(input);
    },
  });
  const handle = await created(t);
  await stubs.next('settlementState');
  const change = await handle.startUpdate(changeSettlementAccounts, { args: [moveTo('PS_TRANSFERS_RECORDED')], waitForStage: WorkflowUpdateStage.ACCEPTED });
  await outOfTurn();
  reading.release();
  t.like(await change.result(), { state: 'PS_TRANSFERS_RECORDED' });
  t.is(steps[0], 'state read', 'nothing moves before the settlement knows where it stands');
  await handle.executeUpdate(abortSettlementUpdate, { args: [{ reason: 'the test is over' }] });
  await handle.result();
});

test.serial(
  'a settlement the ledger holds SETTLED already (its workflow started again) ends at once, telling its windows; a window whose workflow is gone holds up nothing',
  async (t) => {
    ledger = {
      state: 'SETTLED',
      windows: [
        { settlementWindowId: nextId + 1, state: 'SETTLED' },
        { settlementWindowId: nextId + 2, state: 'SETTLED' },
      ],
    };
    const window = await windowOf(t, nextId + 1);
    const handle = await created(t);
    t.is(await handle.result(), undefined);
    t.is(await window.result(), undefined, 'the window with a workflow is told SETTLED, and ends');
    t.deepEqual(stubs.inputs('changeSettlement'), []);
  },
);
