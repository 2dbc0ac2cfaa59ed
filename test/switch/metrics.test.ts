import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { BeforeQueryEvent } from 'typeorm/subscriber/event/QueryEvent';
import { registerSchemeMetrics } from '../../activities/hub/metrics/schemeMetrics';
import { repoRoot } from '../../activities/shared/platform/config';
import { schemeRegistry } from '../../api/http/observability';
import { answering, codesOf } from '../helpers/bulkPayees';
import { bulkItem, bulkTransferBody, transferBody } from '../helpers/fspiopBodies';
import { QuotedPayments } from '../helpers/quotedPayments';
import { startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { databaseOfItsOwn } from '../helpers/database';

// The scheme's figures count every transfer in the database: on the database the suite shares (MariaDB), another
// file's transfers decided meanwhile would count too, so this file has a database of its own.
let hub: SwitchHarness;
let database: Awaited<ReturnType<typeof databaseOfItsOwn>>;
test.before(async () => {
  database = await databaseOfItsOwn();
  hub = await startSwitch({ databaseUrl: database.url });
  registerSchemeMetrics(schemeRegistry, hub.services);
});
test.after.always(async () => {
  await hub?.close();
  await database?.drop();
});

type Samples = Array<{ name: string; labels: string; value: number }>;

/** The metrics a Prometheus scrape of the admin gateway finds: each sample's name, labels and value. */
async function scrape(): Promise<Samples> {
  const text = await (await fetch(`${hub.admin.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)/.exec(line)!;
      return { name: match[1], labels: match[2] ?? '', value: Number(match[3]) };
    });
}

/** The value of the sample `name` whose labels include every one of `labels` (`state="COMMITTED"`). */
const valueOf = (samples: Samples, name: string, ...labels: string[]) =>
  samples.find((sample) => sample.name === name && labels.every((label) => sample.labels.includes(label)))?.value;

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

test('the switch port publishes no metrics: /metrics there is an unknown URI, /health still answers probes', async (t) => {
  const metrics = await fetch(`${hub.url}/metrics`);
  t.is(metrics.status, 404);
  t.is(((await metrics.json()) as { errorInformation: { errorCode: string } }).errorInformation.errorCode, '3002');
  t.is((await fetch(`${hub.url}/health`)).status, 200);
});

test.serial('after a payment the scheme metrics show it: the transfer COMMITTED, the positions moved, the caps, the time it took', async (t) => {
  const payments = new QuotedPayments(hub);
  const payer = await hub.provision({ netDebitCap: 500 });
  const payee = payments.quotes(await hub.provision());
  const before = await scrape();
  const { state } = await payments.pay(payer, payee, '40');
  t.is(state, 'COMMITTED');
  const after = await scrape();
  const grew = (name: string, ...labels: string[]) => (valueOf(after, name, ...labels) ?? 0) - (valueOf(before, name, ...labels) ?? 0);
  t.is(grew('hub_transfers', 'state="COMMITTED"'), 1);
  t.is(grew('hub_transfer_completion_seconds_count', 'state="COMMITTED"'), 1);
  t.is(grew('hub_transfer_completion_seconds_bucket', 'state="COMMITTED"', 'le="+Inf"'), 1);
  t.true(grew('hub_transfer_completion_seconds_sum', 'state="COMMITTED"') > 0);
  t.is(grew('hub_transfers', 'state="ABORTED"'), 0);
  t.is(valueOf(after, 'hub_position', `participant="${payer.name}"`), 40);
  t.is(valueOf(after, 'hub_position', `participant="${payee.name}"`), -40);
  t.is(valueOf(after, 'hub_net_debit_cap', `participant="${payer.name}"`), 500);
  t.true(valueOf(after, 'hub_settlement_windows', 'state="OPEN"') !== undefined);
});

test.serial(
  "a bulk's items are counted as they are decided: one past the Net Debit Cap refused at prepare, ABORTED, the fulfilled ones COMMITTED",
  async (t) => {
    const payer = await hub.provision({ netDebitCap: 10 });
    const payee = await hub.provision();
    const items = [bulkItem('4'), bulkItem('4'), bulkItem('4')];
    const fulfilments = new Map(items.map((item) => [item.transfer.transferId, item.fulfilment]));
    answering(hub, payee, (transferId) => ({ fulfilment: fulfilments.get(transferId)! }));
    const before = await scrape();
    const body = bulkTransferBody(payer.name, payee.name, items);
    await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
    const put = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/bulkTransfers/${body.bulkTransferId}`, 30_000);
    t.deepEqual(codesOf(put), ['fulfilled', 'fulfilled', '4200']);
    const after = await scrape();
    const grew = (name: string, state: string) => (valueOf(after, name, `state="${state}"`) ?? 0) - (valueOf(before, name, `state="${state}"`) ?? 0);
    t.is(grew('hub_transfers', 'COMMITTED'), 2);
    t.is(grew('hub_transfers', 'ABORTED'), 1);
    t.is(grew('hub_transfer_completion_seconds_count', 'ABORTED'), 1);
  },
);

test('the deliveries the switch fails to make are counted per participant', async (t) => {
  const payer = await hub.provision();
  const gone = await hub.provision();
  await gone.close();
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: gone.name, body: transferBody(payer.name, gone.name, '5') });
  let failures: number | undefined;
  for (let attempt = 0; attempt < 100 && failures === undefined; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await hub.hub.messageLog!.flush();
    failures = valueOf(await scrape(), 'hub_delivery_failures_total', `participant="${gone.name}"`);
  }
  t.true(failures !== undefined && failures >= 1, String(failures));
});

// SQLite's query plans: MySQL's optimiser may rightly scan the small tables of a test database.
(process.env.DATABASE_URL?.startsWith('mysql') ? test.skip : test)(
  'a scrape reads no table that grows with the transfers: only rows per participant, or found by an index',
  async (t) => {
    const queries: Array<{ query: string; parameters?: unknown[] }> = [];
    const listener = { beforeQuery: (event: BeforeQueryEvent<unknown>) => void queries.push({ query: event.query, parameters: event.parameters }) };
    const { dataSource } = hub.services.db;
    dataSource.subscribers.push(listener);
    try {
      await schemeRegistry.metrics();
    } finally {
      dataSource.subscribers.splice(dataSource.subscribers.indexOf(listener), 1);
    }
    t.true(queries.length >= 5);
    // A settlement window a day at most: its tables stay small.
    const small = ['participant', 'participant_account', 'participant_limit', 'transfer_outcome', 'delivery_failure', 'settlement_window', 'settlement'];
    for (const { query, parameters } of queries.filter(({ query }) => /^\s*SELECT/i.test(query))) {
      const tables = new Map([...query.matchAll(/(?:FROM|JOIN) "(\w+)" "(\w+)"/g)].map(([, table, alias]) => [alias, table]));
      const plan: Array<{ detail: string }> = await dataSource.query(`EXPLAIN QUERY PLAN ${query}`, parameters);
      for (const { detail } of plan) {
        const scanned = /^SCAN (\w+)/.exec(detail)?.[1];
        if (scanned) t.true(small.includes(tables.get(scanned) ?? scanned), `${detail} in ${query}`);
      }
    }
  },
);
