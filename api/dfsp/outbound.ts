import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { ConnectorConfig } from '../../activities/connector/config';

/** The API the bank's own systems call (the sdk-scheme-adapter's outbound API). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function dfspOutboundRouter(client: Client, config: ConnectorConfig): Router {
  return new Router();
}
