import { freePort } from '../../temporal/ports';
import { stopChildren } from '../../worker/children';
import { waitUntilReady } from '../../worker/readiness';
import { Issued, TestCa } from '../helpers/certificates';
import { HubProcesses, logTail, onboardParticipant, startProcess } from '../helpers/hubProcesses';
import { DfspBackend } from './backend';
import { SdkAdapter, SdkJws, SdkTls, startRedis, startSdkAdapter } from './peers';

/**
 * The scheme's PKI of the suite's mutual TLS part, as a scheme operator runs one: a CA that signs the hub's server
 * certificate, the hub's client certificate, and each DFSP's pair (subject CN = its DFSP ID for the client one).
 */
export class SchemePki {
  private constructor(
    readonly ca: TestCa,
    /** Signs the hub's client certificate alone, so a DFSP's inbound API that trusts it takes the hub only. */
    private readonly hubClientCa: TestCa,
    private readonly hubServer: Issued,
    private readonly hubClient: Issued,
  ) {}

  static async create(hubId: string): Promise<SchemePki> {
    const [ca, hubClientCa] = [await TestCa.create('interop-scheme-ca'), await TestCa.create('interop-hub-client-ca')];
    return new SchemePki(ca, hubClientCa, await ca.server('hub'), await hubClientCa.client(hubId));
  }

  remove(): void {
    this.ca.remove();
    this.hubClientCa.remove();
  }

  /** Every hub process's settings: its client certificate for participants' HTTPS endpoints, and the CA it trusts. */
  get hubEnv(): NodeJS.ProcessEnv {
    return { OUTBOUND_TLS_CERT_PATH: this.hubClient.certPath, OUTBOUND_TLS_KEY_PATH: this.hubClient.keyPath, OUTBOUND_TLS_CA_PATH: this.ca.certPath };
  }

  /** The settings of a gateway whose switch takes only client certificates the scheme CA signed. */
  get gatewayEnv(): NodeJS.ProcessEnv {
    return { TLS_CERT_PATH: this.hubServer.certPath, TLS_KEY_PATH: this.hubServer.keyPath, SWITCH_CLIENT_CA_PATH: this.ca.certPath };
  }

  async dfsp(dfspId: string): Promise<SdkTls & { client: Issued }> {
    const [server, client] = await Promise.all([this.ca.server(dfspId), this.ca.client(dfspId)]);
    return { caPath: this.ca.certPath, hubClientCaPath: this.hubClientCa.certPath, server, client };
  }
}

/**
 * Another gateway process of the same hub (its database, its Temporal task queue), serving the switch over HTTPS
 * with client certificates required, as a hub scales out its gateways; the admin API stays on the first one.
 */
export async function startMutualTlsGateway(hub: HubProcesses, pki: SchemePki): Promise<{ switchUrl: string; stop(): Promise<void> }> {
  const [switchPort, adminPort] = await Promise.all([freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = { ...hub.env, ...pki.gatewayEnv, SWITCH_PORT: String(switchPort), ADMIN_PORT: String(adminPort) };
  const child = startProcess('api/main.js', 'hub-gateway-mtls', env, hub.logDir);
  const stop = () => stopChildren([child]);
  try {
    await waitUntilReady({
      healthUrl: `https://127.0.0.1:${adminPort}/health`,
      temporalAddress: hub.temporal.address,
      namespace: 'default',
      taskQueue: env.TEMPORAL_TASK_QUEUE!,
      timeoutMs: 60_000,
      failed: () => (child.exitCode !== null ? `the mutual TLS gateway exited; ${logTail(hub.logDir, 'hub-gateway-mtls')}` : undefined),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { switchUrl: `https://127.0.0.1:${switchPort}`, stop };
}

/**
 * An SDK DFSP with mutual TLS towards the hub, its Redis and backend, onboarded with its HTTPS inbound address.
 * Each part started is handed to `stoppers` at once, so a failure later still stops it.
 */
export async function startMutualTlsDfsp(
  options: { name: string; switchUrl: string; adminUrl: string; currency: string; redisServer: string; tls: SdkTls; jws?: SdkJws },
  stoppers: Array<() => Promise<unknown>>,
): Promise<{ name: string; sdk: SdkAdapter; backend: DfspBackend }> {
  const redis = await startRedis(options.redisServer, `redis-${options.name}`);
  stoppers.push(() => redis.stop());
  const backend = await DfspBackend.start();
  stoppers.push(() => backend.close());
  const sdk = await startSdkAdapter({
    dfspId: options.name,
    peerEndpoint: new URL(options.switchUrl).host,
    backendPort: backend.port,
    cacheUrl: redis.url,
    expirySeconds: 60,
    tls: options.tls,
    jws: options.jws,
  });
  stoppers.push(() => sdk.stop());
  await onboardParticipant(options.adminUrl, options.name, `https://127.0.0.1:${sdk.inboundPort}`, { currency: options.currency });
  return { name: options.name, sdk, backend };
}
