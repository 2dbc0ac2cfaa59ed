import crypto from 'node:crypto';
import pino from 'pino';
import type { ConnectorConfig } from '../../activities/connector/config';
import { simulatedBackends } from '../../activities/dfsp/backend/simulated';
import { SimulatedBank } from '../../activities/dfsp/backend/simulatedBank';
import { startDfspConnector } from '../../api/dfsp/connector';
import { startPispConnector } from '../../api/pisp/connector';
import { uniqueName } from './database';
import type { RunningConnector } from '../../worker/connector';
import type { SwitchHarness } from './switchHarness';
import { temporalAddress } from './worker';

/** Each connector role's workflows, bundled once per test run by test/run.ts (WORKFLOW_BUNDLE_DFSP, _PISP). */
export const connectorWorkflowsPaths = {
  WORKFLOW_BUNDLE_DFSP: require.resolve('../../workflows/dfsp'),
  WORKFLOW_BUNDLE_PISP: require.resolve('../../workflows/pisp'),
};

/** The bundle test/run.ts made for a role, if the suite runs under it. */
export const connectorBundle = (role: 'dfsp' | 'pisp'): string | undefined => process.env[`WORKFLOW_BUNDLE_${role.toUpperCase()}`];

export const testLog = () => pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });

/**
 * A connector's configuration against a test switch: free ports, the suite's Temporal dev server, the participant's
 * own namespace and a task queue of its own, and answers awaited for `requestTimeoutMs`.
 */
export function connectorConfig(hub: SwitchHarness, participantId: string, overrides: Partial<ConnectorConfig> = {}): ConnectorConfig {
  return {
    participantId,
    peerEndpoint: hub.url,
    inboundPort: 0,
    outboundPort: 0,
    host: '127.0.0.1',
    temporalAddress: temporalAddress(),
    temporalNamespace: participantId,
    taskQueue: `connector-${crypto.randomUUID()}`,
    authServiceId: 'centralauth',
    requestTimeoutMs: 20_000,
    logLevel: 'silent',
    ...overrides,
  };
}

/** Onboards the connector's participant at the hub with its inbound API as every endpoint, as an operator does. */
export async function onboardConnector(hub: SwitchHarness, connector: RunningConnector, options: Parameters<SwitchHarness['onboard']>[2] = {}): Promise<void> {
  await hub.onboard(connector.config.participantId, connector.inboundUrl, options);
}

/** A DFSP connector over a fresh simulated bank, onboarded at the test switch. */
export async function startTestDfsp(hub: SwitchHarness, options: { name?: string; fundsIn?: number } = {}) {
  const name = options.name ?? uniqueName();
  const bank = new SimulatedBank(name);
  const backends = simulatedBackends(bank);
  const connector = await startDfspConnector(connectorConfig(hub, name), testLog(), backends, connectorBundle('dfsp'));
  await onboardConnector(hub, connector, { fundsIn: options.fundsIn });
  return { name, bank, backends, connector };
}

/** A PISP connector onboarded at the test switch; `requestTimeoutMs` bounds each call of its app. */
export async function startTestPisp(hub: SwitchHarness, options: { name?: string; requestTimeoutMs?: number; genericKeySecret?: string } = {}) {
  const name = options.name ?? uniqueName();
  const overrides = options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {};
  const config = { ...connectorConfig(hub, name, overrides), genericKeySecret: options.genericKeySecret ?? crypto.randomBytes(32).toString('base64') };
  const connector = await startPispConnector(config, testLog(), connectorBundle('pisp'));
  await onboardConnector(hub, connector);
  /** Calls the connector's outbound API as the PISP's app does: JSON in, status and JSON out. */
  const app = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${connector.outboundUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { name, connector, app };
}
