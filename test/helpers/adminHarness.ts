import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { openHubServices, HubServices } from '../../activities/hub/services';
import { createAdminApp } from '../../api/admin/app';
import { AdminValidator } from '../../api/admin/validation';
import { testDatabaseUrl } from './database';
import { gatewayServer } from '../../api/http/gateway';
import { answerBody } from './http';

export const HUB_NAME = 'Hub';

export interface AdminHarness {
  url: string;
  services: HubServices;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The real admin API over real HTTP on a free port, against the real database. */
export async function startAdmin(given?: HubServices): Promise<AdminHarness> {
  const services = given ?? (await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: HUB_NAME }));
  const health = [{ name: 'datastore', check: () => services.db.ping() }];
  const app = createAdminApp({ ...services, validator: new AdminValidator() }, pino({ level: 'silent' }), health);
  const server = gatewayServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
