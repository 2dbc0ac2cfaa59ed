// `npm test` entry (after temporal/ensure.mjs has installed, compiled and fetched the CLI):
// one in-memory, headless Temporal dev server on a free port for the whole run, then ava. Workflow tests of timers
// start Temporal's time-skipping test server of their own (TEMPORAL_TEST_SERVER, installed here on first run); the
// console's browser tests drive Debian's Chromium (CHROMIUM_PATH, installed here when missing), the dashboard's tests
// Debian's Prometheus (PROMETHEUS_PATH, the same).
//
//   node dist/test/run.js [ava args…]        e.g. npm test -- --match '*transfer*'
//
// Tests read the server address from TEMPORAL_ADDRESS. The exit code is ava's. How many test files run at once:
// `--concurrency N` among the args, else TEST_CONCURRENCY, else one per core and never fewer than 2.

import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../activities/shared/platform/config';
import { startDevServer, type DevServer } from '../temporal/devServer';
import { temporalCliPath } from '../temporal/setup';
import { timeSkippingServerPath } from '../temporal/testServer';
import { workflowsPath } from '../worker/createWorker';
import { writeWorkflowBundle } from '../worker/workflowBundle';
import { connectorWorkflowsPaths } from './helpers/connectors';
import { chromiumPath } from './helpers/chromium';
import { prometheusPath } from './helpers/prometheus';

const log = (msg: string) => process.stderr.write(`${msg}\n`);

async function main(): Promise<number> {
  const repo = repoRoot;
  let server: DevServer | undefined;
  let ava: ChildProcess | undefined;
  let signalled: NodeJS.Signals | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = signal;
    log(`test: ${signal} received, stopping`);
    // Ctrl-C already reaches ava through the process group; a SIGTERM sent to us alone must be forwarded.
    if (ava) {
      if (ava.exitCode === null) ava.kill(signal);
      return; // main() stops the server once ava has exited
    }
    // Still preparing: stop whatever is up and leave (a server still starting is killed on exit).
    void (server?.stop() ?? Promise.resolve()).finally(() => process.exit(128 + signalNumber(signal)));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const avaArgs = withConcurrency(process.argv.slice(2));
    const testServer = await timeSkippingServerPath(log);
    const chromium = chromiumPath(log);
    const prometheus = prometheusPath(log);
    server = await startDevServer({ cliPath: await temporalCliPath(log), ui: false, log });
    // Bundle each worker's workflows once for the whole run instead of once per test file.
    const bundles: Record<string, string> = {};
    for (const [name, path] of Object.entries({ WORKFLOW_BUNDLE: workflowsPath, ...connectorWorkflowsPaths })) {
      bundles[name] = join(repo, 'dist', `${name.toLowerCase().replaceAll('_', '-')}.js`);
      await writeWorkflowBundle(path, bundles[name]);
    }

    const avaCli = join(repo, 'node_modules', 'ava', 'entrypoints', 'cli.mjs');
    const child = spawn(process.execPath, [avaCli, ...avaArgs], {
      cwd: repo,
      stdio: 'inherit',
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TEST_SERVER: testServer ?? '',
        CHROMIUM_PATH: chromium ?? '',
        PROMETHEUS_PATH: prometheus ?? '',
        ...bundles,
      },
    });
    ava = child;
    const code = await new Promise<number>((resolve) => {
      child.once('error', (err) => {
        log(`test: could not start ava: ${err.message}`);
        resolve(1);
      });
      child.once('exit', (c, signal) => resolve(c ?? 128 + signalNumber(signal ?? 'SIGTERM')));
    });
    if (signalled && code === 0) return 128 + signalNumber(signalled);
    return code;
  } finally {
    await server?.stop();
  }
}

/**
 * Ava's args with a concurrency unless they name one. Each file runs a hub against the database and dev server every
 * file shares; files are written to run three at a time on MariaDB, so a machine with more cores may run more of them.
 */
function withConcurrency(args: string[]): string[] {
  if (args.some((arg) => /^(--concurrency|-c)(=|$)/.test(arg))) return args;
  const given = process.env.TEST_CONCURRENCY || undefined;
  if (given !== undefined && !/^[1-9]\d*$/.test(given)) throw new Error(`TEST_CONCURRENCY must be a whole number of test files, not ${given}`);
  const concurrency = given ?? String(Math.max(2, availableParallelism()));
  log(`test: ${concurrency} test files at once`);
  return ['--concurrency', concurrency, ...args];
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : signal === 'SIGKILL' ? 9 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`test: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
