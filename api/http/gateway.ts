import type http from 'node:http';
import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { errorMiddleware } from './errorMiddleware';
import { HttpError } from './httpError';
import { httpTiming } from './observability';

export interface GatewayOptions {
  /** Run in order before the routers (the admin API's authentication, and its refusal of PATCH and DELETE everywhere). */
  guards?: Koa.Middleware[];
  /** Whether a path no router serves belongs to a service of the API that this hub does not offer (501, not 404). */
  notOffered?: (path: string) => boolean;
  /** The Content-Type of an error response, where the API versions its media types. */
  errorMediaType?: (ctx: Koa.Context) => string | undefined;
}

/**
 * A Koa app with what both gateways share: request timing, errors as ErrorInformation, the routers, 405
 * for a method a path does not offer, 501 (2002) for a service the hub does not offer and 404 (3002) for a
 * path no router knows.
 */
export function createGateway(name: string, log: Logger, routers: Router[], options: GatewayOptions = {}): Koa {
  const { guards = [], notOffered, errorMediaType } = options;
  const app = new Koa();
  app.use(httpTiming(name));
  if (errorMediaType) {
    app.use(async (ctx, next) => {
      await next();
      const mediaType = ctx.status >= 400 ? errorMediaType(ctx) : undefined;
      if (mediaType) ctx.type = mediaType;
    });
  }
  app.use(errorMiddleware(log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      if (notOffered?.(ctx.path)) throw new HttpError(501, 'notImplemented', `${ctx.method} ${ctx.path} is a service this hub does not offer`);
      throw new HttpError(404, 'unknownUri', `${ctx.method} ${ctx.path} is not a known resource`);
    }
  });
  for (const guard of guards) app.use(guard);
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new HttpError(405, 'clientError', `Method not allowed for this resource`) }));
  }
  return app;
}

/** Koa's handler for Node's HTTP server. Koa settles each request's promise itself, errors included. */
export function requestListener(app: Koa): http.RequestListener {
  const handle = app.callback();
  return (request, response) => void handle(request, response);
}
