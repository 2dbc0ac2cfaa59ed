import type https from 'node:https';
import pino from 'pino';
import type { AdminAccessConfig } from '../../activities/shared/platform/config';
import { openHubServices, HubServices } from '../../activities/hub/hubServices';
import { createAdminApp } from '../../api/admin/adminApp';
import { AdminValidator } from '../../api/admin/adminValidation';
import type { SettlementApi } from '../../api/settlement/settlementRoutes';
import { SettlementValidator } from '../../api/settlement/settlementValidation';
import { testDatabaseUrl } from './database';
import { serve } from '../../api/http/serve';
import { answerBody } from './http';

export const HUB_NAME = 'Hub';

export interface AdminHarness {
  url: string;
  services: HubServices;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The real admin API over real HTTP on a free port, against the real database; with `access`, it asks for
 * credentials, and with `tls` it serves HTTPS.
 */
export async function startAdmin(
  given?: HubServices,
  options: { access?: AdminAccessConfig; tls?: https.ServerOptions; temporal?: SettlementApi['temporal'] } = {},
): Promise<AdminHarness> {
  const services = given ?? (await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: HUB_NAME }));
  const health = [{ name: 'datastore', check: () => services.db.ping() }];
  // With Temporal, Mojaloop's settlement API too, its workflows run by the caller's worker.
  const settlement = options.temporal && { ...services, validator: new SettlementValidator(), temporal: options.temporal };
  const app = createAdminApp(
    { ...services, validator: new AdminValidator() },
    pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    health,
    options.access,
    settlement,
  );
  const { server, url } = await serve(app, 0, '127.0.0.1', options.tls);
  return {
    url,
    services,
    async call(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: await answerBody(response) };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!given) await services.db.close();
    },
  };
}
