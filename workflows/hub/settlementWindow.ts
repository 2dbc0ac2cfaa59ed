import {
  condition,
  defineSignal,
  defineUpdate,
  getExternalWorkflowHandle,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { HubActivities } from '../../activities';
import type { ClosedWindow } from '../../activities/hub/settlement/windows';
import type { SettlementWindowState } from '../../activities/hub/db/settlementEntities';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { asRefusal, refusalOf } from '../kit/failures';

const { closeSettlementWindow, openSettlementWindow } = proxyActivities<HubActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** POST /settlementWindows/{id}: the operator closes the window now; the answer is the window opened in its place. */
export const closeWindow = defineUpdate<ClosedWindow, [{ reason: string }]>('closeWindow');
/** The operator's schedule closes the window; a window holding no payment stays open. */
export const closeOnSchedule = defineSignal<[{ reason: string }]>('closeOnSchedule');
/** A settlement of the window moved it on: PENDING_SETTLEMENT, SETTLED, or ABORTED (free to be settled again). */
export const windowStateChanged = defineSignal<[SettlementWindowState]>('windowStateChanged');

/**
 * A settlement window, from its opening to its settlement (central-settlement's OPEN → CLOSED → PENDING_SETTLEMENT →
 * SETTLED, or ABORTED and settled again). Every payment the ledger commits while it is open belongs to it. Closing it
 * opens the next window, whose workflow this one starts, so exactly one window is open at a time. Its State search
 * attribute follows it, so an operator finds windows by state in the Temporal UI.
 */
export async function settlementWindow(settlementWindowId: number): Promise<void> {
  let state: SettlementWindowState = 'OPEN';
  let closing: Promise<ClosedWindow> | undefined;
  const moveTo = (next: SettlementWindowState) => {
    state = next;
    upsertSearchAttributes([{ key: State, value: next }]);
  };

  /** One close at a time: a second asked meanwhile gets the first's answer; one refused (an empty window) may be asked again. */
  const close = (reason: string): Promise<ClosedWindow> => {
    if (closing) return closing;
    const attempt = closeSettlementWindow({ settlementWindowId, reason }).then(
      async (closed) => {
        await followedBy(closed.opened.settlementWindowId);
        if (state === 'OPEN') moveTo('CLOSED');
        return closed;
      },
      (error: unknown) => {
        closing = undefined;
        return asRefusal(error);
      },
    );
    closing = attempt;
    return attempt;
  };

  setHandler(closeWindow, ({ reason }) => close(reason), {
    validator: ({ reason }) => {
      if (typeof reason !== 'string') throw refusalOf('reason is required');
      if (state !== 'OPEN' && !closing) throw refusalOf(`Window ${settlementWindowId} is not open`);
    },
  });
  setHandler(closeOnSchedule, ({ reason }) => {
    if (state === 'OPEN') close(reason).catch(() => undefined);
  });
  setHandler(windowStateChanged, (next) => moveTo(next));

  await condition(() => state === 'SETTLED');
}

/**
 * Run by the operator's closing schedule (SETTLEMENT_WINDOW_CLOSE_CRON): asks the open window's workflow to close,
 * which it does unless the window holds no payment.
 */
export async function closeOpenSettlementWindow(reason = 'scheduled close'): Promise<number> {
  const { settlementWindowId } = await openSettlementWindow();
  const workflowId = workflowIds.settlementWindow(settlementWindowId);
  try {
    await getExternalWorkflowHandle(workflowId).signal(closeOnSchedule, { reason });
  } catch {
    // Its workflow never started (a window opened before the hub ran it): started now, then asked.
    await followedBy(settlementWindowId);
    await getExternalWorkflowHandle(workflowId).signal(closeOnSchedule, { reason });
  }
  return settlementWindowId;
}

/**
 * Starts the workflow of the window opened next, to outlive this one. The gateway or a worker starting may have
 * started it already (they start the open window's workflow if none runs): that one is the window's, and is kept.
 */
async function followedBy(settlementWindowId: number): Promise<void> {
  try {
    await startChild(settlementWindow, {
      workflowId: workflowIds.settlementWindow(settlementWindowId),
      args: [settlementWindowId],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
