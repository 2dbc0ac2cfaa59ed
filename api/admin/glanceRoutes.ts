import Router from '@koa/router';
import type { Context } from 'koa';
import { MAX_HOURS, MAX_MINUTES } from '../../activities/hub/metrics/schemeGlance';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { AdminServices } from './adminRoutes';
import { needs } from './access/permissions';

/** The windows an operator may ask for, each read bounded by them (activities/hub/metrics/schemeGlance.ts). */
const MINUTES = { default: 60, max: MAX_MINUTES };
const HOURS = { default: 6, max: MAX_HOURS };

/**
 * GET /scheme/glance?minutes=60&hours=6&currency=XXX, an addition to central-ledger's admin API for the console's home
 * page: transfers committed and aborted per minute, aborts by error code, the time to decision (p50, p95) over the last
 * `minutes`, and the positions nearest their Net Debit Cap over the last `hours` (activities/shared/contracts/glance.ts).
 */
export function glanceRoutes({ glance }: Pick<AdminServices, 'glance'>): Router {
  const router = new Router();
  router.get('/scheme/glance', needs('read'), async (ctx) => {
    ctx.body = await glance.read({
      minutes: wholeNumber(ctx, 'minutes', MINUTES),
      hours: wholeNumber(ctx, 'hours', HOURS),
      currency: currencyOf(ctx),
    });
  });
  return router;
}

/** One query parameter, once; a repeated one is refused (3101). */
function single(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'malformedSyntax', `${name} must be given once`);
  return value;
}

function wholeNumber(ctx: Context, name: string, range: { default: number; max: number }): number {
  const value = single(ctx, name);
  if (value === undefined) return range.default;
  if (!/^[1-9]\d{0,3}$/.test(value) || Number(value) > range.max)
    throw new HttpError(400, 'malformedSyntax', `${name} must be a whole number from 1 to ${range.max}`);
  return Number(value);
}

function currencyOf(ctx: Context): string | undefined {
  const value = single(ctx, 'currency');
  if (value !== undefined && !/^[A-Z]{3}$/.test(value)) throw new HttpError(400, 'malformedSyntax', 'currency must be three capital letters (ISO 4217)');
  return value;
}
