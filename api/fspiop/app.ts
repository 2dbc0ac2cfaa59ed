import Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { HubConfig } from '../../activities/config';
import type { CallbackSender } from '../../activities/callbacks';
import type { ParticipantDirectory } from '../../activities/directory';
import type { HubServices } from '../../activities/hub';
import { errorMiddleware } from '../http/errorMiddleware';
import { HttpError } from '../http/httpError';
import { observabilityRoutes, Health, httpTiming } from '../http/observability';
import { warmUpSchemas } from './schemas';

export interface SwitchDependencies {
  config: Pick<HubConfig, 'hubId' | 'taskQueue'>;
  services: HubServices;
  directory: ParticipantDirectory;
  sender: CallbackSender;
  temporal: Client;
  log: Logger;
}

/** A resource's router, mounted at its path prefix; it validates, acknowledges and hands over. */
export type ResourceRoutes = (deps: SwitchDependencies) => Router;

/**
 * The FSPIOP switch gateway (Document 2). Requests are acknowledged 202 and callbacks 200 at once; the
 * work continues in workflows or in background deliveries. Unknown paths are 404 (3002), methods a
 * resource does not offer 405, and no bad input ever causes a 500.
 */
export function createSwitchApp(deps: SwitchDependencies, resources: ResourceRoutes[], health: Health): Koa {
  warmUpSchemas();
  const app = new Koa();
  app.use(httpTiming('switch'));
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new HttpError(404, 'unknownUri', `${ctx.method} ${ctx.path} is not a known resource`);
    }
  });
  const routers = [...resources.map((resource) => resource(deps)), observabilityRoutes(health)];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new HttpError(405, 'clientError', 'Method not allowed for this resource') }));
  }
  return app;
}
