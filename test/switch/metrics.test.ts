import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { registerSchemeMetrics } from '../../activities/hub/metrics/schemeMetrics';
import { repoRoot } from '../../activities/platform/config';
import { metricsRegistry } from '../../api/http/observability';
import { QuotedPayments } from '../helpers/quotedPayments';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
  registerSchemeMetrics(metricsRegistry, hub.services.db, hub.services.traces);
});

/** The metrics a Prometheus scrape of the admin gateway finds: each sample's name, labels and value. */
async function scrape(): Promise<Array<{ name: string; labels: string; value: number }>> {
  const text = await (await fetch(`${hub.admin.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)/.exec(line)!;
      return { name: match[1], labels: match[2] ?? '', value: Number(match[3]) };
    });
}

test("every metric Grafana's dashboard queries is one the hub exports", async (t) => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(repoRoot, 'temporal', 'deploy', 'grafana', 'hub-dashboard.json'), 'utf-8')) as {
    panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
  };
  // Declared by `# TYPE`, whether or not it has a sample yet; a histogram's series are named after it.
  const text = await (await fetch(`${hub.admin.url}/metrics`)).text();
  const exported = new Set(
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [name, `${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
    ),
  );
  const queried = dashboard.panels.flatMap((panel) =>
    panel.targets.flatMap((target) => [...target.expr.matchAll(/\b(hub_[a-z_]+|process_[a-z_]+|nodejs_[a-z_]+)\b/g)].map((match) => match[1])),
  );
  t.true(queried.length >= 10);
  t.deepEqual(
    [...new Set(queried)].filter((name) => !exported.has(name)),
    [],
  );
});

test('after a payment the scheme metrics show it: the transfer COMMITTED, the positions moved, the caps, the time it took', async (t) => {
  const payments = new QuotedPayments(hub);
  const payer = await hub.provision({ netDebitCap: 500 });
  const payee = payments.quotes(await hub.provision());
  const { state } = await payments.pay(payer, payee, '40');
  t.is(state, 'COMMITTED');
  const samples = await scrape();
  const value = (name: string, labels: string) => samples.find((sample) => sample.name === name && sample.labels.includes(labels))?.value;
  t.true((value('hub_transfers', 'state="COMMITTED"') ?? 0) >= 1);
  t.is(value('hub_position', `participant="${payer.name}"`), 40);
  t.is(value('hub_position', `participant="${payee.name}"`), -40);
  t.is(value('hub_net_debit_cap', `participant="${payer.name}"`), 500);
  const p99 = value('hub_transfer_completion_seconds', 'quantile="0.99"');
  t.true(p99 !== undefined && p99 >= 0, String(p99));
  t.true(value('hub_settlement_windows', 'state="OPEN"') !== undefined);
});
