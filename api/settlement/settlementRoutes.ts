import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import type { SettlementWindowState, SettlementState } from '../../activities/hub/db/settlementEntities';
import type { AccountChangeRequest, ParticipantChangeRequest } from '../../activities/hub/settlement/accountSteps';
import type { SettlementRequest } from '../../activities/hub/settlement/netting';
import type { Settlements } from '../../activities/hub/settlement/settlements';
import type { SettlementWindows } from '../../activities/hub/settlement/windows';
import { HubError } from '../../activities/shared/platform/hubError';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { SettlementSchema, SettlementValidator } from './settlementValidation';
import { settlementActions } from './settlementActions';
import { changes, declaredGroups, type ChangingRoutes, type FourEyesSettings } from '../admin/approvals/fourEyes';
import { reportCsv, wantsCsv } from './report';
import { needs } from '../admin/access/permissions';

/** What Mojaloop's settlement API runs on: the windows and settlements, and Temporal, where their workflows run. */
export interface SettlementApi {
  settlementWindows: SettlementWindows;
  settlements: Settlements;
  validator: SettlementValidator;
  temporal: { client: Client; taskQueue: string };
}

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

/**
 * Mojaloop's settlement API (central-settlement's v2), on the admin gateway under /v2: settlement windows and
 * settlements, each a workflow (settlementWindow/<id>, settlement/<id>) that the requests here start or update, and a
 * report per settlement. Refusals are 400 with central-settlement's codes and words.
 */
export function settlementRoutes(api: SettlementApi, fourEyes?: FourEyesSettings): Router {
  const { settlementWindows, settlements, temporal } = api;
  // Each change is a named settlement action (settlementActions.ts), performed now or held for a second person.
  const change = changes(settlementActions({ settlementWindows, settlements, temporal: () => temporal }), fourEyes);
  const routes: SettlementRoutes = { router: new Router({ prefix: '/v2' }), services: api, change };
  return declaredGroups(routes, windowRoutes, settlementResourceRoutes, settlementParticipantRoutes, reportRoute);
}

type SettlementRoutes = ChangingRoutes<SettlementApi, ReturnType<typeof settlementActions>>;

function windowRoutes({ router, services: { settlementWindows, validator }, change }: SettlementRoutes): void {
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
    await change(ctx, 'closeSettlementWindow', { settlementWindowId, reason });
  });
}

/** Settlements: created from closed windows, found, read, moved a step or aborted. */
function settlementResourceRoutes({ router, services: { settlements, validator }, change }: SettlementRoutes): void {
  router.post('/settlements', needs('settlements'), async (ctx) => {
    const request = await body<SettlementRequest>(ctx, validator, 'SettlementEventPayload');
    await change(ctx, 'createSettlement', { request });
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
      await change(ctx, 'changeSettlement', { settlementId, participants });
      return;
    }
    if (Boolean(state) !== Boolean(reason)) throw new HttpError(400, 'missingElement', 'State and reason are mandatory');
    if (state !== 'ABORTED') throw new HttpError(400, 'validationError', 'Invalid request payload input');
    await change(ctx, 'abortSettlement', { settlementId, reason: reason!, ...(externalReference !== undefined && { externalReference }) });
  });
}

/** A settlement as one of its participants, or one of its accounts, sees it and moves it. */
function settlementParticipantRoutes({ router, services: { settlements, validator }, change }: SettlementRoutes): void {
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
    await change(ctx, 'changeSettlement', { settlementId: integer(ctx.params.sid, 'sid'), participants: [{ id: integer(ctx.params.pid, 'pid'), accounts }] });
  });

  router.put('/settlements/:sid/participants/:pid/accounts/:aid', needs('settlements'), async (ctx) => {
    const account = await body<Omit<AccountChangeRequest, 'id'>>(ctx, validator, 'SettlementUpdateBySettlementParticipantAccount');
    await change(ctx, 'changeSettlement', {
      settlementId: integer(ctx.params.sid, 'sid'),
      participants: [{ id: integer(ctx.params.pid, 'pid'), accounts: [{ ...account, id: integer(ctx.params.aid, 'aid') }] }],
    });
  });
}

function reportRoute({ router, services: { settlements } }: SettlementRoutes): void {
  /** Each participant's net amount and transfer count, as JSON or (`?format=csv`, or Accept: text/csv) CSV for the settlement bank. */
  router.get('/settlements/:id/report', needs('read'), async (ctx) => {
    const report = await settlements.report(integer(ctx.params.id, 'id'));
    if (wantsCsv(ctx)) {
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
}
