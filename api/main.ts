import type http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import type Koa from 'koa';
import { loadConfig } from '../activities/platform/config';
import { openHub } from '../activities/hub/services';
import { createLogger } from '../activities/platform/logger';
import { createAdminApp } from './admin/app';
import { AdminValidator } from './admin/validation';
import { createSwitchApp } from './fspiop/app';
import { switchResources } from './fspiop/resources';
import { gatewayServer } from './http/gateway';

function listen(app: Koa, port: number, host: string): Promise<http.Server> {
  const server = gatewayServer(app);
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/** The gateway process: the FSPIOP switch and the hub admin API, each on its own port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const hub = await openHub({ ...config, log: createLogger('gateway', config.logLevel) });
  const { services, log } = hub;
  const connection = await Connection.connect({ address: config.temporalAddress });
  const temporal = new Client({ connection, namespace: config.temporalNamespace });
  const health = [
    { name: 'datastore', check: () => services.db.ping() },
    { name: 'temporal', check: async () => void (await connection.workflowService.getSystemInfo({})) },
  ];
  const servers = [
    await listen(createAdminApp({ ...services, validator: new AdminValidator() }, log, health), config.adminPort, config.host),
    await listen(createSwitchApp({ ...hub, config, temporal }, switchResources, health), config.switchPort, config.host),
  ];
  log.info({ admin: `http://${config.host}:${config.adminPort}`, switch: `http://${config.host}:${config.switchPort}` }, 'gateways listening');

  const stop = async () => {
    log.info('stopping gateways');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await connection.close();
    await hub.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
