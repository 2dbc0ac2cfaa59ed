import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import type Koa from 'koa';
import { CallbackSender } from '../activities/callbacks';
import { loadConfig } from '../activities/config';
import { ParticipantDirectory } from '../activities/directory';
import { openHubServices } from '../activities/hub';
import { createLogger } from '../activities/logger';
import { createAdminApp } from './admin/app';
import { AdminValidator } from './admin/validation';
import { createSwitchApp } from './fspiop/app';
import { switchResources } from './fspiop/resources';
import { requestListener } from './http/gateway';

function listen(app: Koa, port: number, host: string): Promise<http.Server> {
  // FSPIOP allows headers up to 64 KiB (Node's default limit is 16 KiB).
  const server = http.createServer({ maxHeaderSize: 65_536 }, requestListener(app));
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/** The gateway process: the FSPIOP switch and the hub admin API, each on its own port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('gateway', config.logLevel);
  const services = await openHubServices(config);
  const connection = await Connection.connect({ address: config.temporalAddress });
  const temporal = new Client({ connection, namespace: config.temporalNamespace });
  const health = [
    { name: 'datastore', check: () => services.db.ping() },
    { name: 'temporal', check: async () => void (await connection.workflowService.getSystemInfo({})) },
  ];
  const directory = new ParticipantDirectory(services.db);
  const sender = new CallbackSender({ directory, log, hubId: config.hubParticipantName });
  const servers = [
    await listen(createAdminApp({ ...services, validator: new AdminValidator() }, log, health), config.adminPort, config.host),
    await listen(createSwitchApp({ config, services, directory, sender, temporal, log }, switchResources, health), config.switchPort, config.host),
  ];
  log.info({ admin: `http://${config.host}:${config.adminPort}`, switch: `http://${config.host}:${config.switchPort}` }, 'gateways listening');

  const stop = async () => {
    log.info('stopping gateways');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await connection.close();
    await services.db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
