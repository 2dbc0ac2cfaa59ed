import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import { errorMiddleware } from '../http/errorMiddleware';
import { HttpError } from '../http/httpError';
import { observabilityRoutes, Health, httpTiming } from '../http/observability';
import { AdminServices, participantRoutes, settlementModelRoutes } from './routes';

/**
 * The hub administration API (Document 3) with central-ledger's bodies. Only GET, POST and PUT exist
 * here: any other method is 405, an unknown path 404 (3002), both with ErrorInformation.
 */
export function createAdminApp(services: AdminServices, log: Logger, health: Health): Koa {
  const app = new Koa();
  const routers: Router[] = [participantRoutes(services), settlementModelRoutes(services), observabilityRoutes(health)];
  app.use(httpTiming('admin'));
  app.use(errorMiddleware(log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new HttpError(404, 'unknownUri', `${ctx.method} ${ctx.path} is not a known resource`);
    }
  });
  app.use(async (ctx, next) => {
    if (!['GET', 'POST', 'PUT', 'HEAD', 'OPTIONS'].includes(ctx.method)) {
      throw new HttpError(405, 'clientError', `Method ${ctx.method} is not supported`);
    }
    await next();
  });
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new HttpError(405, 'clientError', 'Method not allowed for this path') }));
  }
  return app;
}
