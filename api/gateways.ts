import cluster from 'node:cluster';
import { Client, type ConnectionLike } from '@temporalio/client';
import type { Logger } from 'pino';
import type { HubConfig } from '../activities/shared/platform/config';
import type { Hub } from '../activities/hub/hubServices';
import type { Tracing } from '../activities/shared/platform/tracing';
import { createAdminApp } from './admin/adminApp';
import { AdminValidator } from './admin/adminValidation';
import { SettlementValidator } from './settlement/settlementValidation';
import { createSwitchApp } from './fspiop/switchApp';
import { switchResources } from './fspiop/switchResources';
import { gatewayTls, serve } from './http/serve';
import { registerSchemeMetrics } from '../activities/hub/metrics/schemeMetrics';
import { registerLedgerCheckMetrics } from '../activities/hub/metrics/ledgerCheckMetrics';
import { schemeRegistry, shareMetricsWithSupervisor } from './http/observability';

export interface GatewayOptions {
  config: HubConfig;
  hub: Hub;
  /** The gateways' way to Temporal: a client `Connection` of their own, or the `NativeConnection` of a worker beside them. */
  connection: ConnectionLike;
  /**
   * Whether `connection` is the NativeConnection of a worker polling the hub's task queue in this process: then a
   * conversation's first workflow task comes back in the start's answer and runs here at once, without a poll.
   */
  eagerStart: boolean;
  tracing?: Tracing;
}

/**
 * Warns of admin tokens without a holder's name, which the audit trail cannot tell apart: at start, before the
 * connection to Temporal, which may keep a gateway waiting.
 */
export function warnOfUnnamedTokens(config: HubConfig, log: Logger): void {
  const unnamed = config.adminAccess.tokens.filter((token) => !token.name).length;
  if (unnamed > 0) {
    log.warn(
      { unnamedTokens: unnamed },
      'ADMIN_API_TOKENS has secrets without a name: each acts as an unnamed admin, which the audit trail cannot tell apart; give each holder name:role:secret',
    );
  }
}

/**
 * Serves the FSPIOP switch and the hub admin API, each on its own port. Returns a stop that closes both servers once
 * their open requests are answered; the hub, the connection and tracing stay the caller's to close.
 */
export async function startGateways({ config, hub, connection, eagerStart, tracing }: GatewayOptions): Promise<() => Promise<void>> {
  const adminTls = gatewayTls(config.tls, config.adminAccess.clientCaPath, 'checked by the gateway');
  const switchTls = gatewayTls(config.tls, config.tls.switchClientCaPath, 'required');
  const { services, log } = hub;
  const temporal = new Client({ connection, namespace: config.temporalNamespace, interceptors: tracing?.clientInterceptors });
  const health = [
    { name: 'datastore', check: () => services.db.ping() },
    { name: 'temporal', check: async () => void (await connection.workflowService.getSystemInfo({})) },
  ];
  registerSchemeMetrics(schemeRegistry, services);
  registerLedgerCheckMetrics(schemeRegistry, services);
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
  const switchApp = createSwitchApp({ ...hub, config, temporal, eagerStart }, switchResources, health);
  const fspiop = await serve(switchApp, config.switchPort, config.host, switchTls);
  const servers = [admin.server, fspiop.server];
  log.info({ admin: admin.url, switch: fspiop.url, mutualTls: Boolean(config.tls.switchClientCaPath), eagerStart }, 'gateways listening');
  return async () => {
    log.info('stopping gateways');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  };
}
