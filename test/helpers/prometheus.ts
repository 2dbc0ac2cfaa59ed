import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { freePort } from '../../temporal/ports';
import { debianBinary } from './debianPackage';
import { pollUntil } from './polling';

/** Where Debian's prometheus package puts the server. */
const DEBIAN_PROMETHEUS = '/usr/bin/prometheus';

/** The Prometheus server the dashboard's tests run: PROMETHEUS_PATH, else Debian's package, installed when missing. */
export function prometheusPath(log: (message: string) => void): string | undefined {
  return process.env.PROMETHEUS_PATH || debianBinary(DEBIAN_PROMETHEUS, 'prometheus', "the Grafana dashboard's tests", log);
}

/** An instant query's answer from Prometheus's HTTP API (/api/v1/query). */
export interface QueryAnswer {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

export interface Prometheus {
  url: string;
  query(expression: string): Promise<QueryAnswer>;
  stop(): Promise<void>;
}

/**
 * A Prometheus server of the test's own, on a free port with its storage in a temp directory, scraping `targets`'
 * /metrics every second with the bearer token `token`, as a deployment scrapes the gateways' admin port.
 */
export async function startPrometheus(options: { targets: string[]; token: string; log: (message: string) => void }): Promise<Prometheus> {
  const binary = prometheusPath(options.log);
  if (!binary) throw new Error('no Prometheus: npm test installs the Debian package prometheus when run as root, or set PROMETHEUS_PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  fs.writeFileSync(path.join(dir, 'token'), options.token);
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: [{ job_name: 'hub-gateway', authorization: { credentials_file: path.join(dir, 'token') }, static_configs: [{ targets: options.targets }] }],
  };
  // JSON is YAML.
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), JSON.stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const out = fs.openSync(path.join(dir, 'prometheus.log'), 'w');
  const server = spawn(
    binary,
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', out, out] },
  );
  const ready = await pollUntil(
    () =>
      fetch(`${url}/-/ready`).then(
        (answer) => answer.ok,
        () => false,
      ),
    (up) => up || server.exitCode !== null,
    30_000,
  );
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (!ready) {
    const logged = fs.readFileSync(path.join(dir, 'prometheus.log'), 'utf8').split('\n').slice(-10).join('\n  ');
    await stop();
    throw new Error(`Prometheus did not start:\n  ${logged}`);
  }
  return {
    url,
    query: async (expression) => (await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expression })}`)).json() as Promise<QueryAnswer>,
    stop,
  };
}
