import type { Middleware } from 'koa';
import { changedState, keepsState, type StateServices } from '../../../activities/hub/audit/changedState';
import { callerMay } from '../../../activities/shared/contracts/operatorRoles';
import { adminCaller } from '../access/authentication';
import type { RouteOf } from './routeOf';

/**
 * Runs last before the routers and reads, for the changes whose values the trail keeps (changedState.ts), the state
 * before the route's handler and, if the change was answered as done or held, after it: ctx.state.auditSnapshot, which
 * the recorder (recorder.ts) writes down. Only for a caller whose roles allow the route: no read is spent on a refused
 * attempt.
 */
export function auditSnapshots(services: StateServices, routeOf: RouteOf): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    const route = routeOf(ctx.method, ctx.path);
    const change = route && `${ctx.method} ${route.template}`;
    const caller = adminCaller(ctx);
    if (!change || !keepsState(change) || !caller || !route.permission || !callerMay(caller, route.permission)) return next();
    const before = await changedState(services, change, route.params);
    ctx.state.auditSnapshot = { before };
    await next();
    if (ctx.status < 400) ctx.state.auditSnapshot = { before, after: await changedState(services, change, route.params) };
  };
}
