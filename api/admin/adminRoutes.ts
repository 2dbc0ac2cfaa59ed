import Router from '@koa/router';
import type { Context } from 'koa';
import type { HubServices } from '../../activities/hub/hubServices';
import type { SettlementModelRequest } from '../../activities/hub/participants/settlementModels';
import { Decimal, formatAmount, unrepresentableAmount } from '../../activities/hub/db/money';
import { accountModelFor } from '../../activities/hub/settlement/models';
import { readJsonBody } from '../http/body';
import { refuseInexactNumbers } from './exactNumbers';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { AdminValidator, AdminSchema } from './adminValidation';
import { accountView, limitView, participantView, positionView, settlementModelView } from './views';
import { needs } from './access/permissions';
import { adminActions } from './adminActions';
import { changes, declaredGroups, type ChangingRoutes, type FourEyesSettings } from './approvals/fourEyes';

export type AdminServices = Pick<
  HubServices,
  'participants' | 'limits' | 'funds' | 'settlementModels' | 'transactions' | 'signatures' | 'traces' | 'notifications' | 'approvals' | 'glance'
> & {
  validator: AdminValidator;
};

/** An amount or limit as JSON gives it: a number (as the central-ledger document says) or a numeric string. */
type AdminNumber = number | string;

/**
 * The exact decimal of an admin amount. A numeric string is taken as written, and so is a number: the body was read
 * only if JSON.parse took each of its numbers exactly (refuseInexactNumbers). More than 4 decimal places is an error,
 * never rounded away (the ledger keeps 4), and so are more than 18 integer digits.
 */
function exactAmount(value: AdminNumber, field: string): string {
  const decimal = new Decimal(typeof value === 'string' ? value : String(value));
  const problem = unrepresentableAmount(decimal);
  if (problem) throw new HttpError(400, 'validationError', `${field} ${problem}`);
  return formatAmount(decimal);
}

/** Limits the central-ledger document leaves open but the database does not (MySQL would refuse longer values). */
function bounded(value: string, field: string, maxLength: number): string {
  if (value.length > maxLength) throw new HttpError(400, 'validationError', `${field} is longer than ${maxLength} characters`);
  return value;
}

// As lenient as central-ledger's `guid` check (any case), and ULIDs as the FSPIOP gateway takes them.
const guidOrUlid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9A-HJKMNP-TV-Z]{26}$/i;

/** A funds movement's transferId: a UUID or a ULID, like the transfers it sits beside. */
function transferIdOf(value: string): string {
  if (!guidOrUlid.test(value)) throw new HttpError(400, 'malformedSyntax', `transferId ${value.slice(0, 64)} is not a UUID or ULID`);
  return value;
}

function accountId(ctx: Context): number {
  const id = Number(ctx.params.id);
  if (!Number.isInteger(id) || id <= 0) throw new HttpError(400, 'malformedSyntax', 'account id must be a positive integer');
  return id;
}

const baseUrl = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

async function body<T>(ctx: Context, validator: AdminValidator, schema: AdminSchema): Promise<T> {
  const { body: parsed, text } = await readJsonBody(ctx);
  const valid = validator.validate<T>(schema, parsed);
  refuseInexactNumbers(text);
  return valid;
}

/**
 * The participants, their endpoints, limits, accounts and funds. Each change route reads and validates its request at
 * once (bad input is refused, never held) and ends in a named admin action (adminActions.ts), performed now or held
 * for a second person (four eyes).
 */
export function participantRoutes(services: AdminServices, fourEyes?: FourEyesSettings): Router {
  const routes: ParticipantRoutes = { router: new Router(), services, change: changes(adminActions(services), fourEyes) };
  return declaredGroups(routes, participantRecordRoutes, endpointRoutes, limitRoutes, accountRoutes, fundsRoutes);
}

type ParticipantRoutes = ChangingRoutes<AdminServices, ReturnType<typeof adminActions>>;

/**
 * The participants themselves, and the scheme-wide lists of limits and positions, which come before
 * /participants/:name (that would take "limits" or "positions" for a name).
 */
function participantRecordRoutes({ router, services: { participants, limits, validator }, change }: ParticipantRoutes): void {
  router.get('/participants', needs('read'), async (ctx) => {
    ctx.body = (await participants.list()).map((p) => participantView(p, baseUrl(ctx)));
  });

  router.post('/participants', needs('participants'), async (ctx) => {
    const request = await body<{ name: string; currency?: string }>(ctx, validator, 'PostParticipantsRequest');
    if (!request.currency) throw new HttpError(400, 'malformedSyntax', '"currency" is required');
    await change(ctx, 'createParticipant', { name: request.name, currency: request.currency, baseUrl: baseUrl(ctx) });
  });

  router.get('/participants/limits', needs('read'), async (ctx) => {
    const views = await limits.all({ currency: query(ctx, 'currency'), type: query(ctx, 'limit') });
    ctx.body = views.map((view) => limitView(view, true));
  });

  // An addition to central-ledger's API, for the operator's console: every participant's positions in one answer.
  router.get('/participants/positions', needs('read'), async (ctx) => {
    ctx.body = (await limits.allPositions(query(ctx, 'currency'))).map((position) => ({ name: position.name, ...positionView(position) }));
  });

  router.get('/participants/:name', needs('read'), async (ctx) => {
    ctx.body = participantView(await participants.get(ctx.params.name), baseUrl(ctx));
  });

  router.put('/participants/:name', needs('participants'), async (ctx) => {
    const request = await body<{ isActive: boolean }>(ctx, validator, 'ParticipantIsActive');
    await change(ctx, 'setParticipantActive', { name: ctx.params.name, isActive: request.isActive, baseUrl: baseUrl(ctx) });
  });
}

function endpointRoutes({ router, services: { participants, validator }, change }: ParticipantRoutes): void {
  router.get('/participants/:name/endpoints', needs('read'), async (ctx) => {
    ctx.body = (await participants.endpoints(ctx.params.name)).map(({ type, value }) => ({ type, value }));
  });

  router.post('/participants/:name/endpoints', needs('endpoints'), async (ctx) => {
    const request = await body<{ type: string; value: string }>(ctx, validator, 'PostParticipantsNameEndpointsRequest');
    const value = validator.endpointValue(request.type, bounded(request.value, 'value', 512));
    await change(ctx, 'setEndpoint', { name: ctx.params.name, type: request.type, value });
  });
}

/** A participant's limits and the positions they bound. */
function limitRoutes({ router, services: { limits, validator }, change }: ParticipantRoutes): void {
  router.post('/participants/:name/initialPositionAndLimits', needs('limits'), async (ctx) => {
    const request = await body<{ currency?: string; limit: { type: string; value: AdminNumber }; initialPosition?: AdminNumber }>(
      ctx,
      validator,
      'PostInitialPositionAndLimitsRequest',
    );
    if (!request.currency) throw new HttpError(400, 'malformedSyntax', '"currency" is required');
    await change(ctx, 'initialPositionAndLimits', {
      name: ctx.params.name,
      currency: request.currency,
      limit: { type: request.limit.type, value: exactAmount(request.limit.value, 'limit.value') },
      ...(request.initialPosition !== undefined && { initialPosition: exactAmount(request.initialPosition, 'initialPosition') }),
    });
  });

  router.get('/participants/:name/limits', needs('read'), async (ctx) => {
    const views = await limits.forParticipant(ctx.params.name, { currency: query(ctx, 'currency'), type: query(ctx, 'limit') });
    ctx.body = views.map((view) => limitView(view, false));
  });

  router.put('/participants/:name/limits', needs('limits'), async (ctx) => {
    const request = await body<{ currency?: string; limit: { type: string; value: AdminNumber; alarmPercentage: AdminNumber } }>(
      ctx,
      validator,
      'PutParticipantsNameLimitsRequest',
    );
    if (!request.currency) throw new HttpError(400, 'malformedSyntax', '"currency" is required');
    await change(ctx, 'adjustLimit', {
      name: ctx.params.name,
      currency: request.currency,
      limit: {
        type: request.limit.type,
        value: exactAmount(request.limit.value, 'limit.value'),
        alarmPercentage: exactAmount(request.limit.alarmPercentage, 'limit.alarmPercentage'),
      },
    });
  });

  router.get('/participants/:name/positions', needs('read'), async (ctx) => {
    const currency = query(ctx, 'currency');
    const positions = (await limits.positions(ctx.params.name, currency)).map(positionView);
    // central-ledger answers a currency-filtered query with the one position, not a list.
    ctx.body = currency ? (positions[0] ?? {}) : positions;
  });
}

function accountRoutes({ router, services: { participants, settlementModels, validator }, change }: ParticipantRoutes): void {
  router.get('/participants/:name/accounts', needs('read'), async (ctx) => {
    const [accounts, models] = await Promise.all([participants.accounts(ctx.params.name), settlementModels.list()]);
    ctx.body = accounts.map((account) => accountView(account, accountModelFor(models, account)));
  });

  router.post('/participants/:name/accounts', needs('participants'), async (ctx) => {
    const request = await body<{ currency?: string; type: string }>(ctx, validator, 'PostParticipantsNameAccountsRequest');
    if (!request.currency) throw new HttpError(400, 'malformedSyntax', '"currency" is required');
    await change(ctx, 'createHubAccount', { name: ctx.params.name, currency: request.currency, type: request.type, baseUrl: baseUrl(ctx) });
  });

  router.put('/participants/:name/accounts/:id', needs('participants'), async (ctx) => {
    const request = await body<{ isActive: boolean }>(ctx, validator, 'CurrencyIsActive');
    await change(ctx, 'setAccountActive', { name: ctx.params.name, accountId: accountId(ctx), isActive: request.isActive });
  });
}

/** Funds in and out of a participant's account, and the outcome of a funds out it reserved. */
function fundsRoutes({ router, services: { validator }, change }: ParticipantRoutes): void {
  router.post('/participants/:name/accounts/:id', needs('funds'), async (ctx) => {
    const request = await body<{
      transferId: string;
      externalReference: string;
      action: 'recordFundsIn' | 'recordFundsOutPrepareReserve' | 'recordFundsOut';
      reason: string;
      amount: { amount: AdminNumber; currency?: string };
    }>(ctx, validator, 'Participants');
    const movement = {
      transferId: transferIdOf(request.transferId),
      externalReference: bounded(request.externalReference, 'externalReference', 256),
      reason: bounded(request.reason, 'reason', 512),
      amount: exactAmount(request.amount.amount, 'amount.amount'),
      ...(request.amount.currency !== undefined && { currency: request.amount.currency }),
    };
    await change(ctx, 'moveFunds', { name: ctx.params.name, accountId: accountId(ctx), action: request.action, movement });
  });

  // Document 3 lists POST for this path, the central-ledger document PUT: both record the outcome.
  const resolveFundsOut = async (ctx: Context) => {
    const request = await body<{ action?: 'recordFundsOutCommit' | 'recordFundsOutAbort'; reason: string }>(ctx, validator, 'RecordFundsOut');
    if (!request.action) throw new HttpError(400, 'malformedSyntax', '"action" is required');
    const transferId = transferIdOf(ctx.params.transferId);
    await change(ctx, 'resolveFundsOut', { name: ctx.params.name, accountId: accountId(ctx), transferId, action: request.action });
  };
  router.put('/participants/:name/accounts/:id/transfers/:transferId', needs('funds'), resolveFundsOut);
  router.post('/participants/:name/accounts/:id/transfers/:transferId', needs('funds'), resolveFundsOut);
}

export function settlementModelRoutes(services: AdminServices, fourEyes?: FourEyesSettings): Router {
  const { settlementModels, participants, validator } = services;
  const change = changes(adminActions(services), fourEyes);
  const router = new Router();

  router.get('/settlementModels', needs('read'), async (ctx) => {
    ctx.body = (await settlementModels.list()).map(settlementModelView);
  });

  router.post('/settlementModels', needs('settlementModels'), async (ctx) => {
    const model = await body<SettlementModelRequest>(ctx, validator, 'SettlementModel');
    bounded(model.settlementAccountType, 'settlementAccountType', 50);
    await change(ctx, 'createSettlementModel', { model });
  });

  router.get('/settlementModels/:name', needs('read'), async (ctx) => {
    ctx.body = settlementModelView(await settlementModels.get(ctx.params.name));
  });

  router.put('/settlementModels/:name', needs('settlementModels'), async (ctx) => {
    const request = await body<{ isActive: boolean }>(ctx, validator, 'SettlementModelIsActive');
    await change(ctx, 'setSettlementModelActive', { name: ctx.params.name, isActive: request.isActive });
  });

  router.get('/ledgerAccountTypes', needs('read'), async (ctx) => {
    ctx.body = (await participants.ledgerAccountTypes()).map(({ name, description, isActive, isSettleable }) => ({
      name,
      description,
      isActive,
      isSettleable,
    }));
  });

  return router;
}

function query(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** GET /transactions/{id}: the transaction a transfer carries in its ILP packet, as central-ledger shows it. */
export function transactionRoutes({ transactions }: AdminServices): Router {
  const router = new Router();
  router.get('/transactions/:id', needs('readMessages'), async (ctx) => {
    ctx.body = await transactions.of(ctx.params.id);
  });
  return router;
}
