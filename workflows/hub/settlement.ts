import {
  allHandlersFinished,
  condition,
  defineUpdate,
  getExternalWorkflowHandle,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { HubActivities } from '../../activities';
import type { SettlementState } from '../../activities/hub/db/settlementEntities';
import type { ParticipantChangeRequest } from '../../activities/hub/settlement/accountSteps';
import type { BankConfirmationLine } from '../../activities/hub/settlement/bankConfirmation';
import type { SettlementView } from '../../activities/hub/settlement/settlementViews';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { asRefusal } from '../kit/failures';
import { windowStateChanged } from './settlementWindow';

// A step heartbeats as it works (activities/index.ts): a worker that dies in the middle of one is noticed in seconds
// and the step tried again at once, however long a large scheme's step may take.
const { changeSettlement, finaliseSettlement, abortSettlement, settlementState } = proxyActivities<HubActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** PUT /settlements/{id} (and its participant and account forms): participants' accounts move a step. */
export const changeSettlementAccounts = defineUpdate<SettlementView, [ParticipantChangeRequest[]]>('changeSettlementAccounts');
/**
 * POST /settlements/{id}/bankConfirmation: the settlement bank's confirmation, checked and applied in one step. A new
 * handler records nothing until it is called, so histories from before it replay unchanged (no patch needed).
 */
export const finaliseSettlementUpdate = defineUpdate<SettlementView, [BankConfirmationLine[]]>('finaliseSettlement');
/** PUT /settlements/{id} with `{state: ABORTED, reason}`. */
export const abortSettlementUpdate = defineUpdate<{ id: number; state: 'ABORTED'; reason: string }, [{ reason: string; externalReference?: string }]>(
  'abortSettlement',
);

/**
 * A settlement of closed windows (central-settlement's), from PENDING_SETTLEMENT through PS_TRANSFERS_RECORDED,
 * PS_TRANSFERS_RESERVED and PS_TRANSFERS_COMMITTED to SETTLED, or ABORTED before anything is committed. The operator
 * moves its accounts; each change is an update run in turn, its ledger step one idempotent activity, so a worker
 * that fails in the middle neither loses nor repeats a movement. Its windows' workflows follow its state, and its
 * State search attribute tells an operator where it stands.
 */
export async function settlement(settlementId: number): Promise<void> {
  let state: SettlementState = 'PENDING_SETTLEMENT';
  const moveTo = (next: SettlementState) => {
    state = next;
    upsertSearchAttributes([{ key: State, value: next }]);
  };

  // One change at a time, in the order they came: each reads the state the one before it left. The handlers are set
  // before anything is awaited, so a change sent as the settlement starts waits its turn instead of being refused.
  let turn: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work);
    turn = run.catch(() => undefined);
    return run;
  };
  setHandler(changeSettlementAccounts, (participants) =>
    oneAtATime(async () => {
      const view = await changeSettlement({ settlementId, participants }).catch(asRefusal);
      moveTo(view.state);
      return view;
    }),
  );
  setHandler(finaliseSettlementUpdate, (lines) =>
    oneAtATime(async () => {
      const view = await finaliseSettlement({ settlementId, lines }).catch(asRefusal);
      moveTo(view.state);
      return view;
    }),
  );
  setHandler(abortSettlementUpdate, ({ reason, externalReference }) =>
    oneAtATime(async () => {
      const aborted = await abortSettlement({ settlementId, reason, externalReference }).catch(asRefusal);
      moveTo(aborted.state);
      return aborted;
    }),
  );

  await oneAtATime(async () => {
    moveTo((await settlementState(settlementId)).state);
    await tellWindows(settlementId);
  });

  await condition(() => state === 'SETTLED' || state === 'ABORTED');
  await condition(allHandlersFinished);
  await tellWindows(settlementId);
}

/** Each of the settlement's windows' workflows hears the state its window is in now. */
async function tellWindows(settlementId: number): Promise<void> {
  for (const { settlementWindowId, state } of (await settlementState(settlementId)).windows) {
    try {
      await getExternalWorkflowHandle(workflowIds.settlementWindow(settlementWindowId)).signal(windowStateChanged, state);
    } catch (error) {
      // A window whose workflow is gone (its history retention passed) has nothing left to show.
      log.warn('settlement window workflow not told', { settlementWindowId, state, error: (error as Error).message });
    }
  }
}
