import Router from '@koa/router';
import type { Context } from 'koa';
import { messageCursor, type MessagePageRequest, type TransferSearch } from '../../activities/hub/trace/traces';
import { HubError } from '../../activities/shared/platform/hubError';
import { TRANSFER_STATES } from '../../activities/shared/contracts/bodies';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { AdminServices } from './adminRoutes';
import { needs } from './access/permissions';

/**
 * The operator's transfer search and traces, additions to central-ledger's admin API (the console reads them):
 * GET /transfers?… finds transfers, newest first; GET /transfers/{id}/trace is one transfer's every message, its
 * quote and the request it answers, its ledger postings and its states; GET /deliveries/failing, the participants the
 * switch has lately failed to deliver to (15 minutes, or since `since`); GET /conversations/{resource}/{id}/trace, any
 * conversation's messages (a quote's, a bulk's, a transaction request's, a third-party transaction's), a page at a time
 * (`limit`, `cursor`: activities/shared/contracts/trace.ts MessagePage); GET /notifications/setAside, the e-mails to participants the
 * mail server kept refusing, which the hub no longer tries.
 */
export function traceRoutes({ traces, notifications }: Pick<AdminServices, 'traces' | 'notifications'>): Router {
  const router = new Router();
  router.get('/notifications/setAside', needs('read'), async (ctx) => {
    ctx.body = await notifications.setAside();
  });
  router.get('/transfers', needs('read'), async (ctx) => {
    ctx.body = await traces.search(searchOf(ctx));
  });
  router.get('/deliveries/failing', needs('read'), async (ctx) => {
    const since = ctx.query.since === undefined ? new Date(Date.now() - 15 * 60_000) : new Date(String(ctx.query.since));
    if (Number.isNaN(since.getTime())) throw new HttpError(400, 'malformedSyntax', 'since must be a date and time (ISO 8601)');
    ctx.body = await traces.failingDeliveries(since);
  });
  const conversation = async (ctx: Context, resource: string, id: string) => {
    const trace = await traces.conversation(resource, id, pageOf(ctx));
    if (!trace) throw new HubError('idNotFound', `the switch saw no message of ${resource.slice(0, 64)}/${id.slice(0, 64)}`);
    ctx.body = trace;
  };
  router.get('/conversations/:resource/:id/trace', needs('readMessages'), (ctx) => conversation(ctx, ctx.params.resource, ctx.params.id));
  // The third-party API's resources below /thirdpartyRequests have two segments.
  router.get('/conversations/:resource/:sub/:id/trace', needs('readMessages'), (ctx) =>
    conversation(ctx, `${ctx.params.resource}/${ctx.params.sub}`, ctx.params.id),
  );
  router.get('/transfers/:id/trace', needs('readMessages'), async (ctx) => {
    const trace = await traces.transfer(ctx.params.id, pageOf(ctx));
    if (!trace) throw new HubError('idNotFound', `the switch knows no transfer ${ctx.params.id.slice(0, 64)}`);
    ctx.body = trace;
  });
  return router;
}

/** One query parameter's value, if it has one; several, or one too long, are refused (3101). */
function queryText(ctx: Context, name: string, max = 64): string | undefined {
  const value = ctx.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max) throw new HttpError(400, 'malformedSyntax', `${name} must be one value of at most ${max} characters`);
  return value;
}

function limitOf(ctx: Context): number | undefined {
  const limit = queryText(ctx, 'limit');
  if (limit !== undefined && !/^[1-9]\d{0,3}$/.test(limit)) throw new HttpError(400, 'malformedSyntax', 'limit must be a whole number from 1');
  return limit === undefined ? undefined : Number(limit);
}

function pageOf(ctx: Context): MessagePageRequest {
  const cursor = queryText(ctx, 'cursor');
  const after = cursor === undefined ? undefined : messageCursor(cursor);
  if (cursor !== undefined && !after) throw new HttpError(400, 'malformedSyntax', "cursor must be a trace's nextCursor");
  return { limit: limitOf(ctx), after };
}

function searchOf(ctx: Context): TransferSearch {
  const text = (name: string, max?: number) => queryText(ctx, name, max);
  const date = (name: string): Date | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime())) throw new HttpError(400, 'malformedSyntax', `${name} must be a date and time (ISO 8601)`);
    return parsed;
  };
  const state = text('state');
  if (state !== undefined && !(TRANSFER_STATES as readonly string[]).includes(state))
    throw new HttpError(400, 'malformedSyntax', `state must be one of ${TRANSFER_STATES.join(', ')}`);
  return {
    transferId: text('transferId'),
    payerFsp: text('payerFsp', 32),
    payeeFsp: text('payeeFsp', 32),
    state,
    currency: text('currency', 3),
    from: date('fromDateTime'),
    to: date('toDateTime'),
    expiredBefore: date('expiredBefore'),
    traceId: text('traceId', 32),
    limit: limitOf(ctx),
  };
}
