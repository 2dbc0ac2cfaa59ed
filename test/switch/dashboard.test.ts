import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '../../activities/shared/platform/config';
import { testDatabaseUrl } from '../helpers/database';
import { hubProcessSettings, logTail, startProcess } from '../helpers/hubProcesses';
import { pollUntil } from '../helpers/polling';
import { startPrometheus, type Prometheus, type QueryAnswer } from '../helpers/prometheus';
import { QuotedPayments } from '../helpers/quotedPayments';
import { startSwitch, type SwitchHarness } from '../helpers/switchHarness';
import { temporalAddress } from '../helpers/worker';

// Grafana's dashboard against a real Prometheus scraping two gateway processes, as a deployment runs them (replicas
// on one database), one of them running two copies behind its ports (GATEWAY_PROCESSES=2, as compose.yaml does).

/** Prometheus holds a token of role metrics: it may read /metrics and nothing else. */
const TOKEN = 'prometheus-scrape-token-0123456789';
const logDir = path.join(os.tmpdir(), `dashboard-${process.pid}`);
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Gateway {
  process: ChildProcess;
  name: string;
  switchPort: number;
  adminPort: number;
}

let hub: SwitchHarness;
let gateways: Gateway[] = [];
let prometheus: Prometheus;

async function startGateway(databaseUrl: string, name: string, copies: number): Promise<Gateway> {
  const { env } = await hubProcessSettings({ databaseUrl, temporalAddress: temporalAddress(), host: '127.0.0.1' });
  const gateway = startProcess('api/main.js', name, { ...env, ADMIN_API_TOKENS: `prometheus:metrics:${TOKEN}`, GATEWAY_PROCESSES: String(copies) }, logDir);
  const started = { process: gateway, name, switchPort: Number(env.SWITCH_PORT), adminPort: Number(env.ADMIN_PORT) };
  const status = await pollUntil(
    () =>
      fetch(`http://127.0.0.1:${started.adminPort}/health`).then(
        (answer) => answer.status,
        () => 0,
      ),
    (answered) => answered === 200 || gateway.exitCode !== null,
    60_000,
  );
  if (status !== 200) throw new Error(`gateway ${name} did not start; ${logTail(logDir, name)}`);
  return started;
}

test.before(async () => {
  const databaseUrl = testDatabaseUrl();
  hub = await startSwitch({ databaseUrl });
  gateways = [await startGateway(databaseUrl, 'gateway-one', 1), await startGateway(databaseUrl, 'gateway-two-copies', 2)];
  prometheus = await startPrometheus({ targets: gateways.map(({ adminPort }) => `127.0.0.1:${adminPort}`), token: TOKEN, log });
});

test.after.always(async () => {
  await prometheus?.stop();
  for (const { process: gateway } of gateways) {
    if (gateway.exitCode !== null) continue;
    gateway.kill('SIGTERM');
    await once(gateway, 'exit');
  }
  await hub?.close();
});

const dashboard = JSON.parse(fs.readFileSync(path.join(repoRoot, 'temporal', 'deploy', 'grafana', 'hub-dashboard.json'), 'utf-8')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const exprOf = (title: string) => dashboard.panels.find((panel) => panel.title === title)!.targets[0].expr;

/** Each series of an instant query's answer: its labels and value. */
const seriesOf = (answer: QueryAnswer) => answer.data?.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) })) ?? [];

test('every query of the dashboard answers over two gateway processes, and each position against its cap appears once, right', async (t) => {
  const payments = new QuotedPayments(hub);
  const payer = await hub.provision({ netDebitCap: 500 });
  const payee = payments.quotes(await hub.provision());
  t.is((await payments.pay(payer, payee, '40')).state, 'COMMITTED');

  const ours = (answer: QueryAnswer) => seriesOf(answer).filter(({ metric }) => [payer.name, payee.name].includes(metric.participant));
  // Once both gateways have been scraped since the payment, each gives the figures again.
  const share = await pollUntil(
    async () => ({ answer: await prometheus.query(exprOf('Positions as a share of the Net Debit Cap')), up: await prometheus.query('sum(up)') }),
    ({ answer, up }) => seriesOf(up)[0]?.value === 2 && ours(answer).length >= 2 && ours(answer).every(({ value }) => value !== 0),
    30_000,
  );
  t.is(share.answer.status, 'success', share.answer.error);
  t.deepEqual(
    ours(share.answer)
      .map(({ metric, value }) => ({ participant: metric.participant, currency: metric.currency, value }))
      .sort((a, b) => a.value - b.value),
    [
      { participant: payee.name, currency: 'USD', value: -0.4 },
      { participant: payer.name, currency: 'USD', value: 8 },
    ],
  );
  const positions = ours(await prometheus.query(exprOf('Positions')));
  t.deepEqual(
    positions.map(({ value }) => value).sort((a, b) => a - b),
    [-40, 40],
  );

  const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, expr: target.expr })));
  t.true(expressions.length >= 10);
  for (const { panel, expr } of expressions) {
    const answer = await prometheus.query(expr);
    t.is(answer.status, 'success', `${panel}: ${expr}: ${answer.error}`);
  }
});

/** GET /health on a connection of its own, so that each may reach another copy; the answering copy's start time. */
function healthOf(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()).startTime));
    });
    request.on('error', reject);
  });
}

test("a gateway's copies are scraped as one: its counters are the sum of every copy's, whichever copy answers the scrape", async (t) => {
  const copies = gateways[1];
  // Until both copies have answered some: each connection goes to the next copy.
  const startTimes = new Set<string>();
  let sent = 0;
  while (sent < 20 || startTimes.size < 2) {
    startTimes.add(await healthOf(copies.switchPort));
    sent++;
    if (sent > 500) break;
  }
  t.is(startTimes.size, 2, logTail(logDir, copies.name));
  const answered = `sum(hub_http_request_seconds_count{instance="127.0.0.1:${copies.adminPort}", gateway="switch", route="/health"})`;
  const counted = await pollUntil(
    async () => seriesOf(await prometheus.query(answered))[0]?.value,
    (value) => value === sent,
    15_000,
  );
  t.is(counted, sent);
});
