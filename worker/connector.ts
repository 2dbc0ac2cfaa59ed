import type http from 'node:http';
import type https from 'node:https';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { connectorExposureProblem, type ConnectorConfig } from '../activities/connector/connectorConfig';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { gatewayTls } from '../api/http/serve';
import { createGateway, gatewayServer } from '../api/http/gateway';
import { observabilityRoutes } from '../api/http/observability';
import { ensureNamespace } from '../temporal/namespaces';
import { workflowCode } from './workflowBundle';
import { startTracing } from '../activities/shared/platform/tracing';

/** What a connector role is made of, once it has a Temporal client to hand messages to. */
export interface ConnectorParts {
  /** The role's workflows module (workflows/dfsp, workflows/pisp), bundled at start unless `workflowBundlePath` names a bundle. */
  workflowsPath: string;
  workflowBundlePath?: string;
  activities: object;
  /** The inbound API the switch calls, and the outbound API the participant's own systems call. */
  inbound: Router[];
  outbound: Router[];
}

export interface RunningConnector {
  config: ConnectorConfig;
  /** A client on the connector's namespace, to read its conversations. */
  client: Client;
  inboundUrl: string;
  outboundUrl: string;
  stop(): Promise<void>;
}

function listen(server: http.Server | https.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

/**
 * One connector process: a worker running the role's conversations in the participant's own namespace, the inbound
 * gateway the switch delivers to, and the outbound gateway the participant's systems call. Ports 0 pick free ones.
 */
export async function startConnector(
  role: 'dfsp' | 'pisp',
  config: ConnectorConfig,
  log: Logger,
  build: (client: Client) => ConnectorParts | Promise<ConnectorParts>,
): Promise<RunningConnector> {
  const exposed = connectorExposureProblem(config);
  if (exposed) throw new Error(`${role} connector ${config.participantId} will not serve: ${exposed}`);
  // With INBOUND_MUTUAL_TLS_ENABLED a client certificate from IN_CA is required to connect, as at the switch.
  const inboundTls = config.inboundTls && gatewayTls({ server: config.inboundTls.server }, config.inboundTls.caPath, 'required');
  const temporal = temporalConnectionOptions(config);
  await ensureNamespace(temporal, config.temporalNamespace);
  const connection = await Connection.connect(temporal);
  // OTEL_EXPORTER_OTLP_ENDPOINT: its requests, conversations and messages traced as the hub's are.
  const tracing = startTracing(`${role}-${config.participantId}`);
  const client = new Client({ connection, namespace: config.temporalNamespace, interceptors: tracing?.clientInterceptors });
  const parts = await build(client);
  const nativeConnection = await NativeConnection.connect(temporal);
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    activities: parts.activities,
    ...tracing?.worker,
    ...(await workflowCode(parts.workflowsPath, parts.workflowBundlePath, tracing?.workflowInterceptorModules)),
  });
  const running = worker.run();
  const health = [{ name: 'temporal', check: async () => void (await connection.workflowService.getSystemInfo({})) }];
  const name = `${role} ${config.participantId}`;
  const servers = [
    gatewayServer(createGateway(`${name} inbound`, log, [observabilityRoutes(health), ...parts.inbound]), inboundTls),
    gatewayServer(createGateway(`${name} outbound`, log, [observabilityRoutes(health), ...parts.outbound])),
  ];
  const inboundPort = await listen(servers[0], config.inboundPort, config.host);
  const outboundPort = await listen(servers[1], config.outboundPort, config.host);
  const inboundUrl = `${inboundTls ? 'https' : 'http'}://${config.host}:${inboundPort}`;
  const outboundUrl = `http://${config.host}:${outboundPort}`;
  log.info({ inbound: inboundUrl, outbound: outboundUrl, namespace: config.temporalNamespace, taskQueue: config.taskQueue }, `${name} connector running`);
  let stopped: Promise<void> | undefined;
  return {
    config,
    client,
    inboundUrl,
    outboundUrl,
    stop() {
      stopped ??= (async () => {
        await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
        // The Temporal SDK shuts the worker down itself on SIGINT/SIGTERM; a second shutdown() would throw.
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await nativeConnection.close();
        await connection.close();
        await tracing?.shutdown();
      })();
      return stopped;
    },
  };
}
