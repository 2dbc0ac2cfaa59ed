import type Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { HubConfig } from '../../activities/platform/config';
import type { CallbackSender } from '../../activities/hub/delivery/callbacks';
import type { ParticipantDirectory } from '../../activities/hub/delivery/directory';
import type { HubServices } from '../../activities/hub/services';
import { createGateway } from '../http/gateway';
import { observabilityRoutes, Health } from '../http/observability';
import { warmUpSchemas } from './schemas';

export interface SwitchDependencies {
  config: Pick<HubConfig, 'taskQueue'>;
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
  return createGateway('switch', deps.log, [...resources.map((resource) => resource(deps)), observabilityRoutes(health)]);
}
