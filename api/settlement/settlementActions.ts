import { ApplicationFailure, type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import type { SettlementState } from '../../activities/hub/db/settlementEntities';
import type { ParticipantChangeRequest } from '../../activities/hub/settlement/accountSteps';
import type { BankConfirmationLine } from '../../activities/hub/settlement/bankConfirmation';
import type { SettlementRequest } from '../../activities/hub/settlement/netting';
import type { Settlements } from '../../activities/hub/settlement/settlements';
import type { SettlementWindows } from '../../activities/hub/settlement/windows';
import { HubError } from '../../activities/shared/platform/hubError';
import type { ActionAnswer } from '../../activities/shared/contracts/approvals';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { HUB_REJECTION, type ErrorInformation } from '../../activities/shared/contracts/errors';
import { HttpError } from '../../activities/shared/platform/httpError';
import { settlement as settlementWorkflow, changeSettlementAccounts, abortSettlementUpdate, finaliseSettlementUpdate } from '../../workflows/hub/settlement';
import { closeWindow, settlementWindow } from '../../workflows/hub/settlementWindow';

/** Where the settlement workflows run: the gateway's client, or (performing an approved change) the worker's. */
export interface SettlementTemporal {
  client: Client;
  taskQueue: string;
}

export interface SettlementActionServices {
  settlementWindows: SettlementWindows;
  settlements: Settlements;
  /** Asked each time an action runs, since an activity has its worker's client only while it runs. */
  temporal: () => SettlementTemporal;
}

const FINAL: SettlementState[] = ['SETTLED', 'ABORTED'];

/** An update's refusal (a workflow's validator or its activity's rejection) as the 400 it names; anything else as it is. */
async function refusedAs400<T>(update: () => Promise<T>): Promise<T> {
  try {
    return await update();
  } catch (error) {
    const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === HUB_REJECTION) {
      throw new HttpError(400, 'validationError', undefined, cause.details?.[0] as ErrorInformation);
    }
    throw error;
  }
}

/**
 * The changes Mojaloop's settlement API makes (closing a window, creating, moving and aborting a settlement), named
 * and taking their validated input, as adminActions.ts does for the administration API: performed by the route at
 * once or by an approval's workflow once a second person agrees. Each starts or updates its window's or settlement's
 * workflow (started if it is not running yet: the first window, or one whose start was lost).
 */
export function settlementActions({ settlementWindows, settlements, temporal }: SettlementActionServices) {
  const running = <W extends typeof settlementWindow | typeof settlementWorkflow>(workflow: W, workflowId: string, id: number) => {
    const { client, taskQueue } = temporal();
    return client.workflow.start(workflow, { workflowId, taskQueue, args: [id] as Parameters<W>, workflowIdConflictPolicy: 'USE_EXISTING' });
  };
  const settlementHandle = (settlementId: number) => running(settlementWorkflow, workflowIds.settlement(settlementId), settlementId);
  const answer = (body: unknown): ActionAnswer => ({ status: 200, body });

  return {
    async closeSettlementWindow({ settlementWindowId, reason }: { settlementWindowId: number; reason: string }) {
      const window = await settlementWindows.get(settlementWindowId);
      if (window.state !== 'OPEN') throw new HubError('validationError', `Window ${settlementWindowId} is not open`);
      const handle = await running(settlementWindow, workflowIds.settlementWindow(settlementWindowId), settlementWindowId);
      const closed = await refusedAs400(() => handle.executeUpdate(closeWindow, { args: [{ reason }] }));
      // As central-settlement answers: the window opened in its place.
      return answer(closed.opened);
    },
    async createSettlement({ request }: { request: SettlementRequest }) {
      const created = await settlements.create(request);
      await settlementHandle(created.id);
      return answer(created);
    },
    /** Accounts moved by the settlement's workflow while it runs; once it is SETTLED or ABORTED nothing moves, and they are answered from the record. */
    async changeSettlement({ settlementId, participants }: { settlementId: number; participants: ParticipantChangeRequest[] }) {
      const current = await settlements.get(settlementId);
      if (FINAL.includes(current.state)) return answer(await settlements.change(settlementId, participants));
      const handle = await settlementHandle(settlementId);
      return answer(await refusedAs400(() => handle.executeUpdate(changeSettlementAccounts, { args: [participants] })));
    },
    /** Settled against the bank's confirmation by the settlement's workflow; once it has ended, answered from the record (the same file again is no change). */
    async finaliseSettlement({ settlementId, lines }: { settlementId: number; lines: BankConfirmationLine[] }) {
      const current = await settlements.get(settlementId);
      if (FINAL.includes(current.state)) return answer(await settlements.finalise(settlementId, lines));
      const handle = await settlementHandle(settlementId);
      return answer(await refusedAs400(() => handle.executeUpdate(finaliseSettlementUpdate, { args: [lines] })));
    },
    async abortSettlement({ settlementId, reason, externalReference }: { settlementId: number; reason: string; externalReference?: string }) {
      const current = await settlements.get(settlementId);
      if (FINAL.includes(current.state)) return answer(await settlements.abort(settlementId, reason, externalReference));
      const handle = await settlementHandle(settlementId);
      return answer(await refusedAs400(() => handle.executeUpdate(abortSettlementUpdate, { args: [{ reason, externalReference }] })));
    },
  };
}
