import Router from '@koa/router';
import { ApplicationFailure, type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Context } from 'koa';
import type { SettlementWindowState, SettlementState } from '../../activities/hub/db/settlementEntities';
import type {
  AccountChangeRequest,
  ParticipantChangeRequest,
  SettlementRequest,
  SettlementView,
  Settlements,
} from '../../activities/hub/settlement/settlements';
import type { SettlementWindows } from '../../activities/hub/settlement/windows';
import { HubError } from '../../activities/platform/hubError';
import { workflowIds } from '../contracts/conversations';
import { HUB_REJECTION, type ErrorInformation } from '../contracts/errors';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/httpError';
import { settlement as settlementWorkflow, changeSettlementAccounts, abortSettlementUpdate } from '../../workflows/hub/settlement';
import { closeWindow, settlementWindow } from '../../workflows/hub/settlementWindow';
import type { SettlementSchema, SettlementValidator } from './settlementValidation';
import { reportCsv } from './report';
import { needs } from '../admin/access/permissions';

/** What Mojaloop's settlement API runs on: the windows and settlements, and Temporal, where their workflows run. */
export interface SettlementApi {
  settlementWindows: SettlementWindows;
  settlements: Settlements;
  validator: SettlementValidator;
  temporal: { client: Client; taskQueue: string };
}

const FINAL: SettlementState[] = ['SETTLED', 'ABORTED'];

function integer(value: string | undefined, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new HttpError(400, 'malformedSyntax', `${name} must be an integer`);
  return parsed;
}

const optionalInteger = (value: unknown, name: string) => (typeof value === 'string' && value !== '' ? integer(value, name) : undefined);
const optionalText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

async function body<T>(ctx: Context, validator: SettlementValidator, schema: SettlementSchema): Promise<T> {
  return validator.validate<T>(schema, (await readJsonBody(ctx)).body);
}

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
 * Mojaloop's settlement API (central-settlement's v2), on the admin gateway under /v2: settlement windows and
 * settlements, each a workflow (settlementWindow/<id>, settlement/<id>) that the requests here start or update, and a
 * report per settlement. Refusals are 400 with central-settlement's codes and words.
 */
export function settlementRoutes({ settlementWindows, settlements, validator, temporal }: SettlementApi): Router {
  const router = new Router({ prefix: '/v2' });
  const { client, taskQueue } = temporal;

  /** A window's or settlement's workflow (its ID numbered by the database), started if it is not running yet: the first window, or one whose start was lost. */
  const running = <W extends typeof settlementWindow | typeof settlementWorkflow>(workflow: W, workflowId: string, id: number) =>
    client.workflow.start(workflow, { workflowId, taskQueue, args: [id] as Parameters<W>, workflowIdConflictPolicy: 'USE_EXISTING' });
  const windowWorkflow = (settlementWindowId: number) => running(settlementWindow, workflowIds.settlementWindow(settlementWindowId), settlementWindowId);
  const settlementHandle = (settlementId: number) => running(settlementWorkflow, workflowIds.settlement(settlementId), settlementId);

  router.get('/settlementWindows', needs('read'), async (ctx) => {
    const { participantId, state, fromDateTime, toDateTime, currency } = ctx.query;
    ctx.body = await settlementWindows.find({
      participantId: optionalInteger(participantId, 'participantId'),
      state: optionalText(state) as SettlementWindowState | undefined,
      fromDateTime: optionalText(fromDateTime),
      toDateTime: optionalText(toDateTime),
      currency: optionalText(currency),
    });
  });

  router.get('/settlementWindows/:id', needs('read'), async (ctx) => {
    ctx.body = await settlementWindows.get(integer(ctx.params.id, 'id'));
  });

  router.post('/settlementWindows/:id', needs('settlements'), async (ctx) => {
    const settlementWindowId = integer(ctx.params.id, 'id');
    const { reason } = await body<{ state: 'CLOSED'; reason: string }>(ctx, validator, 'SettlementWindowClosurePayload');
    const window = await settlementWindows.get(settlementWindowId);
    if (window.state !== 'OPEN') throw new HubError('validationError', `Window ${settlementWindowId} is not open`);
    const handle = await windowWorkflow(settlementWindowId);
    const closed = await refusedAs400(() => handle.executeUpdate(closeWindow, { args: [{ reason }] }));
    // As central-settlement answers: the window opened in its place.
    ctx.body = closed.opened;
  });

  router.post('/settlements', needs('settlements'), async (ctx) => {
    const request = await body<SettlementRequest>(ctx, validator, 'SettlementEventPayload');
    const created = await settlements.create(request);
    await settlementHandle(created.id);
    ctx.body = created;
  });

  router.get('/settlements', needs('read'), async (ctx) => {
    const query = ctx.query;
    ctx.body = await settlements.find({
      state: optionalText(query.state) as SettlementState | undefined,
      currency: optionalText(query.currency),
      participantId: optionalInteger(query.participantId, 'participantId'),
      accountId: optionalInteger(query.accountId, 'accountId'),
      settlementWindowId: optionalInteger(query.settlementWindowId, 'settlementWindowId'),
      fromDateTime: optionalText(query.fromDateTime),
      toDateTime: optionalText(query.toDateTime),
      fromSettlementWindowDateTime: optionalText(query.fromSettlementWindowDateTime),
      toSettlementWindowDateTime: optionalText(query.toSettlementWindowDateTime),
    });
  });

  router.get('/settlements/:id', needs('read'), async (ctx) => {
    const { settlementModel: _model, ...view } = await settlements.get(integer(ctx.params.id, 'id'));
    ctx.body = view;
  });

  /** Accounts moved by the settlement's workflow while it runs; once it is SETTLED or ABORTED nothing moves, and they are answered from the record. */
  const change = async (settlementId: number, participants: ParticipantChangeRequest[]): Promise<SettlementView> => {
    const current = await settlements.get(settlementId);
    if (FINAL.includes(current.state)) return settlements.change(settlementId, participants);
    const handle = await settlementHandle(settlementId);
    return refusedAs400(() => handle.executeUpdate(changeSettlementAccounts, { args: [participants] }));
  };

  router.put('/settlements/:id', needs('settlements'), async (ctx) => {
    const settlementId = integer(ctx.params.id, 'id');
    const payload = await body<{ participants?: ParticipantChangeRequest[]; state?: string; reason?: string; externalReference?: string }>(
      ctx,
      validator,
      'SettlementUpdateBySettlementIdPayload',
    );
    const { participants, state, reason, externalReference } = payload;
    if (participants && (state || reason || externalReference)) {
      throw new HttpError(400, 'validationError', 'No other properties are allowed when participants is provided');
    }
    if (participants) {
      ctx.body = await change(settlementId, participants);
      return;
    }
    if (Boolean(state) !== Boolean(reason)) throw new HttpError(400, 'missingElement', 'State and reason are mandatory');
    if (state !== 'ABORTED') throw new HttpError(400, 'validationError', 'Invalid request payload input');
    const current = await settlements.get(settlementId);
    if (FINAL.includes(current.state)) {
      ctx.body = await settlements.abort(settlementId, reason!, externalReference);
      return;
    }
    const handle = await settlementHandle(settlementId);
    ctx.body = await refusedAs400(() => handle.executeUpdate(abortSettlementUpdate, { args: [{ reason: reason!, externalReference }] }));
  });

  /** The settlement as one participant (and, with `accountId`, one of its accounts) sees it. */
  const participantView = async (settlementId: number, participantId: number, accountId?: number) => {
    const { settlementModel: _model, reason: _reason, createdDate: _created, changedDate: _changed, ...view } = await settlements.get(settlementId);
    const participant = view.participants.find((entry) => entry.id === participantId);
    if (!participant) throw new HubError('validationError', `Participant with ID '${participantId}' is not part of settlement '${settlementId}'`);
    if (accountId === undefined) return { ...view, participants: [participant] };
    const account = participant.accounts.find((entry) => entry.id === accountId);
    if (!account) throw new HubError('validationError', `Account ID '${accountId}' is not part of settlement '${settlementId}'`);
    return { ...view, participants: [{ id: participantId, accounts: [account] }] };
  };

  router.get('/settlements/:sid/participants/:pid', needs('read'), async (ctx) => {
    ctx.body = await participantView(integer(ctx.params.sid, 'sid'), integer(ctx.params.pid, 'pid'));
  });

  router.get('/settlements/:sid/participants/:pid/accounts/:aid', needs('read'), async (ctx) => {
    ctx.body = await participantView(integer(ctx.params.sid, 'sid'), integer(ctx.params.pid, 'pid'), integer(ctx.params.aid, 'aid'));
  });

  router.put('/settlements/:sid/participants/:pid', needs('settlements'), async (ctx) => {
    const { accounts = [] } = await body<{ accounts?: AccountChangeRequest[] }>(ctx, validator, 'SettlementUpdateBySettlementParticipantPayload');
    ctx.body = await change(integer(ctx.params.sid, 'sid'), [{ id: integer(ctx.params.pid, 'pid'), accounts }]);
  });

  router.put('/settlements/:sid/participants/:pid/accounts/:aid', needs('settlements'), async (ctx) => {
    const account = await body<Omit<AccountChangeRequest, 'id'>>(ctx, validator, 'SettlementUpdateBySettlementParticipantAccount');
    ctx.body = await change(integer(ctx.params.sid, 'sid'), [
      { id: integer(ctx.params.pid, 'pid'), accounts: [{ ...account, id: integer(ctx.params.aid, 'aid') }] },
    ]);
  });

  /** Each participant's net amount and transfer count, as JSON or (`?format=csv`, or Accept: text/csv) CSV for the settlement bank. */
  router.get('/settlements/:id/report', needs('read'), async (ctx) => {
    const report = await settlements.report(integer(ctx.params.id, 'id'));
    if (ctx.query.format === 'csv' || (ctx.query.format === undefined && ctx.accepts('application/json', 'text/csv') === 'text/csv')) {
      ctx.type = 'text/csv';
      ctx.attachment(`settlement-${report.settlement.id}.csv`);
      ctx.body = reportCsv(report.lines);
      return;
    }
    ctx.body = {
      id: report.settlement.id,
      state: report.settlement.state,
      settlementWindows: report.settlement.settlementWindows.map((w) => w.id),
      lines: report.lines,
    };
  });

  return router;
}
