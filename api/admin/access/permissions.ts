import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { callerMay, type Permission } from '../../../activities/shared/contracts/operatorRoles';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { adminCaller } from './authentication';

export const INSUFFICIENT_ROLE = 'Bearer realm="hub-admin", error="insufficient_scope"';

/**
 * A 403 for a caller whose credential is good but may not do this (its roles, or four eyes' rule of a second person):
 * RFC 6750's `insufficient_scope` tells the console to show the refusal where it happened rather than ask for a sign-in.
 */
export function notAllowed(ctx: Context, description: string): HttpError {
  ctx.set('WWW-Authenticate', INSUFFICIENT_ROLE);
  return new HttpError(403, 'clientError', description);
}

/** A route's first middleware, `needs(permission)`, which carries what it declares. */
type Declaration = Middleware & { permission: Permission };

/**
 * What a route needs of its caller, declared where the route is: `router.get(path, needs('read'), handler)`. A
 * caller whose role does not allow it is refused 403 (3000), the status Document 3 gives a credential that will not do.
 */
export function needs(permission: Permission): Middleware {
  const check: Middleware = async (ctx, next) => {
    ctx.state.permission = permission;
    const caller = adminCaller(ctx);
    if (permission !== 'open' && (!caller || !callerMay(caller, permission))) {
      const who = caller?.name ?? 'this credential';
      throw notAllowed(
        ctx,
        `Forbidden: ${who} has ${caller && caller.roles.length > 1 ? 'roles' : 'role'} ${caller?.roles.join(', ') || 'none'}, which does not allow ${PERMISSION_WORDS[permission]}`,
      );
    }
    await next();
  };
  return Object.assign(check, { permission });
}

/** Each permission as a refusal names it. */
const PERMISSION_WORDS: Record<Permission, string> = {
  open: 'anything',
  metrics: 'reading metrics',
  read: 'reading the scheme',
  readMessages: "reading messages and parties' data",
  decide: 'deciding on held changes',
  audit: 'reading the audit trail',
  participants: 'changing participants',
  endpoints: 'changing endpoints',
  limits: 'changing limits',
  funds: 'moving funds',
  settlementModels: 'changing settlement models',
  settlements: 'settling',
};

/** One route of a router, as `docs/security.md` lists it: method, path, permission. */
export interface DeclaredRoute {
  method: string;
  path: string;
  permission: Permission;
}

interface RouteLayer {
  path: string;
  methods: string[];
  stack: Middleware[];
  match(path: string): boolean;
}

const layersOf = (router: Router) => (router.stack as unknown as RouteLayer[]).filter((layer) => layer.methods.length > 0);
const declarationOf = (layer: RouteLayer) => (layer.stack[0] as Partial<Declaration>).permission;

/**
 * Every route of `routers` with what it declares (HEAD, which koa-router adds to each GET, left out); a route that
 * declares nothing stops the gateway from being built, so none can slip in unguarded.
 */
export function declaredRoutes(routers: Router[]): DeclaredRoute[] {
  return routers.flatMap(layersOf).flatMap((layer) => {
    const permission = declarationOf(layer);
    if (!permission) throw new Error(`${layer.methods.join(',')} ${layer.path} declares no permission: give it needs(...) first`);
    return layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: layer.path, permission }));
  });
}

/**
 * Whether a request would reach a route declared `open`, by the route that answers it (the first that matches, as the
 * routers dispatch): authentication asks no credential of it. HEAD goes where GET does.
 */
export function openRoutes(routers: Router[]): (method: string, urlPath: string) => boolean {
  const layers = routers.flatMap(layersOf);
  return (method, urlPath) => {
    const route = layers.find((layer) => layer.methods.includes(method) && layer.match(urlPath));
    return route !== undefined && declarationOf(route) === 'open';
  };
}
