import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Permission } from '../../../activities/shared/contracts/operatorRoles';

/** The route a request is for: its path template as the router declares it (`/participants/:name/limits`) and its permission. */
export interface MatchedRoute {
  template: string;
  permission?: Permission;
  params: Record<string, string>;
}

export type RouteOf = (method: string, urlPath: string) => MatchedRoute | undefined;

interface RouteLayer {
  path: string;
  methods: string[];
  stack: Array<Middleware & { permission?: Permission }>;
  captures(path: string): string[];
  params(path: string, captures: string[]): Record<string, string>;
}

/**
 * Finds the route that would answer a request, as the routers dispatch it (the first that matches), whether or not the
 * request gets that far: the audit trail names what a refused attempt was for, and reads a change's before-state ahead
 * of the route's handler.
 */
export function routeOf(routers: Router[]): RouteOf {
  return (method, urlPath) => {
    for (const router of routers) {
      const layer = (router.match(urlPath, method).pathAndMethod as unknown as RouteLayer[]).find((candidate) => candidate.methods.length > 0);
      if (layer) return { template: layer.path, permission: layer.stack[0]?.permission, params: paramsOf(layer, urlPath) };
    }
    return undefined;
  };
}

/** The path's parameters; one that is not valid percent-encoding (the router answers it 400) as it came. */
function paramsOf(layer: RouteLayer, urlPath: string): Record<string, string> {
  try {
    return layer.params(urlPath, layer.captures(urlPath));
  } catch {
    return {};
  }
}
