import http from 'node:http';
import { Connection } from '@temporalio/client';
import { loadConfig } from '../activities/config';
import { openHubServices } from '../activities/hub';
import { createLogger } from '../activities/logger';
import { createAdminApp } from './admin/app';
import { AdminValidator } from './admin/validation';

/** The gateway process: the admin API (and, from the core switch issue, the FSPIOP switch). */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('gateway', config.logLevel);
  const services = await openHubServices(config);
  const temporal = await Connection.connect({ address: config.temporalAddress });
  const health = [
    { name: 'datastore', check: async () => void (await services.db.manager.query('SELECT 1')) },
    { name: 'temporal', check: async () => void (await temporal.workflowService.getSystemInfo({})) },
  ];
  const admin = createAdminApp({ ...services, validator: new AdminValidator() }, log, health);
  const server = http.createServer(admin.callback());
  await new Promise<void>((resolve) => server.listen(config.adminPort, config.host, resolve));
  log.info({ url: `http://${config.host}:${config.adminPort}` }, 'admin API listening');

  const stop = async () => {
    log.info('stopping gateway');
    server.close();
    await temporal.close();
    await services.db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
