import type http from 'node:http';
import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { errorMiddleware } from './errorMiddleware';
import { HttpError } from './httpError';
import { httpTiming } from './observability';

/**
 * A Koa app with what both gateways share: request timing, errors as ErrorInformation, the routers, 405
 * for a method a path does not offer, and 404 (3002) for a path no router knows. `guard` runs before
 * the routers (the admin API uses it to refuse PATCH and DELETE everywhere).
 */
export function createGateway(name: string, log: Logger, routers: Router[], guard?: Koa.Middleware): Koa {
  const app = new Koa();
  app.use(httpTiming(name));
  app.use(errorMiddleware(log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new HttpError(404, 'unknownUri', `${ctx.method} ${ctx.path} is not a known resource`);
    }
  });
  if (guard) app.use(guard);
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
