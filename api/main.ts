import cluster from 'node:cluster';
import { Client, Connection } from '@temporalio/client';
import { exposureProblem, loadConfig } from '../activities/shared/platform/config';
import { openHub } from '../activities/hub/hubServices';
import { createLogger } from '../activities/shared/platform/logger';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { createAdminApp } from './admin/adminApp';
import { superviseCopies } from './superviseCopies';
import { AdminValidator } from './admin/adminValidation';
import { SettlementValidator } from './settlement/settlementValidation';
import { createSwitchApp } from './fspiop/switchApp';
import { switchResources } from './fspiop/switchResources';
import { gatewayTls, serve } from './http/serve';
import { startTracing } from '../activities/shared/platform/tracing';
import { registerSchemeMetrics } from '../activities/hub/metrics/schemeMetrics';
import { schemeRegistry, shareMetricsWithSupervisor } from './http/observability';

/** The gateway process: the FSPIOP switch and the hub admin API, each on its own port (GATEWAY_PROCESSES copies). */
async function main(): Promise<void> {
  const config = loadConfig();
  const exposed = exposureProblem(config);
  if (exposed) throw new Error(exposed);
  if (superviseCopies(config.gatewayProcesses, createLogger('gateway', config.logLevel))) return;
  const adminTls = gatewayTls(config.tls, config.adminAccess.clientCaPath, 'checked by the gateway');
  const switchTls = gatewayTls(config.tls, config.tls.switchClientCaPath, 'required');
  const hub = await openHub({ ...config, log: createLogger('gateway', config.logLevel) });
  const { services, log } = hub;
  const unnamed = config.adminAccess.tokens.filter((token) => !token.name).length;
  if (unnamed > 0) {
    log.warn(
      { unnamedTokens: unnamed },
      'ADMIN_API_TOKENS has secrets without a name: each acts as an unnamed admin, which the audit trail cannot tell apart; give each holder name:role:secret',
    );
  }
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const tracing = startTracing('hub-gateway');
  const temporal = new Client({ connection, namespace: config.temporalNamespace, interceptors: tracing?.clientInterceptors });
  const health = [
    { name: 'datastore', check: () => services.db.ping() },
    { name: 'temporal', check: async () => void (await connection.workflowService.getSystemInfo({})) },
  ];
  registerSchemeMetrics(schemeRegistry, services);
  if (cluster.isWorker) shareMetricsWithSupervisor();
  const settlement = { ...services, validator: new SettlementValidator(), temporal: { client: temporal, taskQueue: config.taskQueue } };
  const admin = await serve(
    createAdminApp({ ...services, validator: new AdminValidator() }, log, health, config.adminAccess, settlement, {
      temporalUiUrl: config.temporalUiUrl,
      namespace: config.temporalNamespace,
      hub: config.hubParticipantName,
    }),
    config.adminPort,
    config.host,
    adminTls,
  );
  const fspiop = await serve(createSwitchApp({ ...hub, config, temporal }, switchResources, health), config.switchPort, config.host, switchTls);
  const servers = [admin.server, fspiop.server];
  log.info({ admin: admin.url, switch: fspiop.url, mutualTls: Boolean(config.tls.switchClientCaPath) }, 'gateways listening');

  const stop = async () => {
    log.info('stopping gateways');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await connection.close();
    await hub.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
