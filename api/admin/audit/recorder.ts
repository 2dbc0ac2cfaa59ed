import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import client from 'prom-client';
import type { AuditRecord, AuditTrail } from '../../../activities/hub/audit/auditTrail';
import { sha256 } from '../../../activities/hub/audit/auditChain';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { metricsRegistry } from '../../http/observability';
import { adminCaller } from '../access/authentication';
import { actionOf } from './actions';
import { RefusalShare } from './refusalShare';
import type { RouteOf } from './routeOf';

const droppedRefusals = new client.Counter({
  name: 'hub_audit_refusals_dropped_total',
  help: "Refused attempts without an established caller that the audit trail did not record, over its share a minute (each minute's count is an entry of the trail too)",
  registers: [metricsRegistry],
});

/** Reads change nothing; what they are refused is still an attempt worth knowing of. */
const READS = ['GET', 'HEAD', 'OPTIONS'];
const recorded = (ctx: Context) => !READS.includes(ctx.method) || ctx.status === 401 || ctx.status === 403;

/** The digest of the body as the route read it (readJsonBody keeps that reading); none when it was never read (a refusal). */
async function bodyDigest(ctx: Context): Promise<string | undefined> {
  const reading = ctx.state.jsonBody as Promise<{ text: string }> | undefined;
  const body = await reading?.catch(() => undefined);
  return body && sha256(body.text);
}

async function recordOf(ctx: Context, at: Date, routeOf: RouteOf): Promise<AuditRecord> {
  const route = routeOf(ctx.method, ctx.path);
  const caller = adminCaller(ctx);
  const answer = ctx.body as { errorInformation?: { errorCode?: string; errorDescription?: string }; approvalId?: unknown } | null | undefined;
  const error = ctx.status >= 400 ? answer?.errorInformation : undefined;
  const snapshot = ctx.state.auditSnapshot as { before?: unknown; after?: unknown } | undefined;
  return {
    at,
    actor: caller?.name,
    roles: caller?.roles,
    credential: caller?.credential,
    action: actionOf(ctx.method, route?.template),
    method: ctx.method,
    route: route?.template,
    target: ctx.path,
    permission: route?.permission,
    bodyDigest: await bodyDigest(ctx),
    before: snapshot?.before,
    after: snapshot?.after,
    status: ctx.status,
    errorCode: error?.errorCode,
    approvalId: ctx.status === 202 && typeof answer?.approvalId === 'string' ? answer.approvalId : undefined,
    detail: error?.errorDescription,
    address: ctx.ip,
    userAgent: ctx.get('User-Agent') || undefined,
  };
}

/**
 * Records, once its answer is final (refusals and errors included: it runs outside the gateway's error handling), every
 * request to the admin port that could change something (any method but GET, HEAD and OPTIONS, refused or failed or
 * not) and every 401 and 403 of any method. A refused attempt without an established caller is recorded within a share
 * a minute (refusalShare.ts).
 *
 * A change that was made but could not be recorded is answered 500 (2001) saying so, not as done: the operator must
 * not believe the trail holds what it does not. The admin API's changes are safe to repeat (they set a value, or are
 * keyed by their transferId, whose repeat is answered as a duplicate), and the repeat is recorded; the entry that
 * failed is in the gateway's log, at error level, for whoever reconciles.
 */
export function auditRecorder(
  trail: AuditTrail,
  routeOf: RouteOf,
  log: Logger,
  { share = new RefusalShare(), now = Date.now }: { share?: RefusalShare; now?: () => number } = {},
): Middleware {
  const append = async (record: AuditRecord) => {
    for (const minute of share.takeOver(now())) {
      await trail.append({
        at: minute.from,
        action: 'audit.refusalsDropped',
        detail: `${minute.dropped} refused attempts without a credential the hub accepts were not recorded in the minute from ${minute.from.toISOString()}`,
      });
    }
    await trail.append(record);
  };
  return async (ctx, next) => {
    const at = new Date(now());
    await next();
    if (!recorded(ctx)) return;
    const caller = adminCaller(ctx);
    if (!caller && ctx.status >= 400 && !share.take(at.getTime())) {
      droppedRefusals.inc();
      return;
    }
    const record = await recordOf(ctx, at, routeOf);
    try {
      await append(record);
    } catch (error) {
      log.error({ err: error, audit: record }, 'the audit trail could not record this request');
      if (ctx.status < 400) {
        ctx.status = 500;
        ctx.body = {
          errorInformation: errorInformation('internalServerError', 'the change was made, but the audit trail could not record it; it is safe to repeat'),
        };
      }
    }
  };
}
