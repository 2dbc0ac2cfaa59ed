import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { exposureProblem, loadConfig, repoRoot } from '../activities/shared/platform/config';
import { startDevServer, DevServer } from '../temporal/devServer';
import { temporalCliPath } from '../temporal/setup';
import { stopTogether } from './children';
import { waitUntilLaunched } from './readiness';
import { hubNodeFlags } from './nodeFlags';

/**
 * `npm start`: the whole hub on one machine with the embedded defaults. Starts the Temporal dev server
 * (SQLite file under .data/, Web UI on :8233) unless TEMPORAL_ADDRESS points at a cluster, then the
 * hub in one process (worker/hub.ts; the worker and gateway processes apart with GATEWAY_PROCESSES > 1), waits
 * until the admin API reports healthy, and prints where everything is. Ctrl-C stops it all.
 */
const log = (message: string) => process.stderr.write(`hub: ${message}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const exposed = exposureProblem(config);
  if (exposed) throw new Error(exposed);
  const external = Boolean(process.env.TEMPORAL_ADDRESS);
  let temporal: DevServer | undefined;
  if (!external) {
    const [ip, port] = config.temporalAddress.split(':');
    temporal = await startDevServer({
      cliPath: await temporalCliPath(log),
      ip,
      port: Number(port),
      uiPort: Number(process.env.TEMPORAL_UI_PORT || 8233),
      ui: true,
      dbFile: path.join(repoRoot, '.data', 'temporal.sqlite'),
      log,
    });
  }
  const env = { ...process.env, TEMPORAL_ADDRESS: temporal?.address ?? config.temporalAddress };
  // Copies of the gateway (GATEWAY_PROCESSES) are processes of their own beside a worker's; otherwise one process.
  const entries = config.gatewayProcesses > 1 ? ['worker/main.js', 'api/main.js'] : ['worker/hub.js'];
  const children: ChildProcess[] = entries.map((entry) =>
    spawn(process.execPath, [...hubNodeFlags(env), path.join(repoRoot, 'dist', entry)], { env, stdio: 'inherit' }),
  );
  const stopping = stopTogether(children, temporal, log);

  const scheme = config.tls.server ? 'https' : 'http';
  // An IPv6 address in a URL goes in brackets (RFC 3986).
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  await waitUntilLaunched(config, `${scheme}://${host}:${config.adminPort}/health`, env.TEMPORAL_ADDRESS, stopping);
  const lines = [
    `ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  switch API   ${scheme}://${host}:${config.switchPort}   (FSPIOP${config.tls.switchClientCaPath ? ', client certificates required' : ''})`,
    `  admin API    ${scheme}://${host}:${config.adminPort}`,
    `  Temporal     ${env.TEMPORAL_ADDRESS}${temporal?.uiUrl ? `   (Web UI ${temporal.uiUrl})` : ''}`,
    '  Ctrl-C stops everything',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
