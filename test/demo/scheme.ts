import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';
import { freePort } from '../../temporal/ports';
import { connectorWorkflowsPaths } from '../helpers/connectors';
import { HubProcesses, logTail, onboardParticipant, startHubProcesses, startProcess } from '../helpers/hubProcesses';
import { stopChildren } from '../../worker/children';
import { writeWorkflowBundle } from '../../worker/workflowBundle';

type Log = (message: string) => void;

/** A connector process of the demo's scheme, and where to reach it. */
export interface ConnectorProcess {
  role: 'dfsp' | 'pisp';
  id: string;
  inboundUrl: string;
  outboundUrl: string;
}

/** The whole scheme on this machine: the hub, its Temporal dev server with the Web UI, and the participants' connectors. */
export interface Scheme {
  hub: HubProcesses;
  connectors: Record<string, ConnectorProcess>;
  /** A Temporal Web UI link to a conversation, in the namespace of whoever runs it (the hub's is `default`). */
  link(namespace: string, workflowId: string): string;
  stop(): Promise<void>;
}

async function healthy(url: string, child: ChildProcess, timeoutMs: number, logDir: string, name: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url} exited during start-up; ${logTail(logDir, name)}`);
    const ok = await fetch(`${url}/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} was not healthy within ${timeoutMs / 1000} s; ${logTail(logDir, name)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts the hub and the connectors (each its own process, as `npm run dfsp` / `npm run pisp` run them, on the
 * embedded defaults) and onboards every participant through the admin API as an operator does.
 */
export async function startScheme(
  participants: Array<{ role: 'dfsp' | 'pisp'; id: string; env?: NodeJS.ProcessEnv }>,
  currency: string,
  log: Log,
): Promise<Scheme> {
  const logDir = path.join(repoRoot, '.data', 'demo');
  const hub = await startHubProcesses({ log, logDir, ui: true });
  const children: ChildProcess[] = [];
  try {
    // Each role's workflows bundled once, instead of once per connector process.
    const bundles: Record<string, string> = {};
    for (const role of ['dfsp', 'pisp'] as const) {
      bundles[role] = path.join(logDir, `${role}-workflows.js`);
      await writeWorkflowBundle(connectorWorkflowsPaths[`WORKFLOW_BUNDLE_${role.toUpperCase() as 'DFSP' | 'PISP'}`], bundles[role]);
    }
    const connectors: Record<string, ConnectorProcess> = {};
    const starting = participants.map(async ({ role, id, env: own }) => {
      const [inboundPort, outboundPort] = [await freePort(), await freePort()];
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DFSP_ID: id,
        PEER_ENDPOINT: hub.switchUrl,
        INBOUND_LISTEN_PORT: String(inboundPort),
        OUTBOUND_LISTEN_PORT: String(outboundPort),
        TEMPORAL_ADDRESS: hub.temporal.address,
        WORKFLOW_BUNDLE: bundles[role],
        LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
        ...own,
      };
      const child = startProcess(`worker/${role}.js`, id, env, logDir);
      children.push(child);
      const connector = { role, id, inboundUrl: `http://127.0.0.1:${inboundPort}`, outboundUrl: `http://127.0.0.1:${outboundPort}` };
      await healthy(connector.inboundUrl, child, 120_000, logDir, id);
      await onboardParticipant(hub.adminUrl, id, connector.inboundUrl, { currency, role });
      connectors[id] = connector;
    });
    await Promise.all(starting);
    return {
      hub,
      connectors,
      link: (namespace, workflowId) => `${hub.temporal.uiUrl}/namespaces/${namespace}/workflows/${encodeURIComponent(workflowId)}`,
      async stop() {
        await stopChildren(children);
        await hub.stop();
      },
    };
  } catch (error) {
    await stopChildren(children);
    await hub.stop();
    throw error;
  }
}
