// `npm run bench:audit`: what the audit trail costs an admin call. Two admin APIs over one database, one with the trail
// (every change recorded, hash-chained, with the state it touched read before and after) and one without, are called
// in turn with the same changes: one caller at a time (the added latency), then CONCURRENCY callers at once (the appends
// queue on the chain's head). Then GET /audit/verify over the trail that made. A fresh SQLite database, or
// DATABASE_URL (MySQL/MariaDB); printed, never asserted.
//
//   npm run bench:audit [-- --calls 400 --concurrency 8]

import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openHubServices, type HubServices } from '../../activities/hub/hubServices';
import { loadConfig } from '../../activities/shared/platform/config';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { Series } from './statistics';

const TOKEN = crypto.randomBytes(16).toString('hex');
const say = (message: string) => process.stdout.write(`${message}\n`);

/** One kind of admin change, made to participant `name` the `i`th time (each time a different value). */
interface Change {
  title: string;
  call(name: string, i: number): [method: string, path: string, body: unknown];
}

const CHANGES: Change[] = [
  {
    title: 'PUT /participants/{name}/limits',
    call: (name, i) => ['PUT', `/participants/${name}/limits`, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 1000 + i, alarmPercentage: 10 } }],
  },
  { title: 'PUT /participants/{name} (isActive)', call: (name, i) => ['PUT', `/participants/${name}`, { isActive: i % 2 === 0 }] },
  {
    title: 'POST /participants/{name}/endpoints',
    call: (name, i) => ['POST', `/participants/${name}/endpoints`, { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: `http://dfsp${i}.example/transfers` }],
  },
];

async function call(admin: AdminHarness, [method, urlPath, body]: [string, string, unknown]): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${admin.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${method} ${urlPath} answered ${response.status}`);
  return performance.now() - started;
}

const figures = (series: Series) => `median ${series.percentile(50).toFixed(2)} ms, p95 ${series.percentile(95).toFixed(2)} ms`;

/** Each change `calls` times on each API, one at a time, alternating between them so that both see the same database. */
async function oneAtATime(
  apis: Record<'with' | 'without', AdminHarness>,
  names: Record<'with' | 'without', string>,
  calls: number,
  report: boolean,
): Promise<void> {
  for (const change of CHANGES) {
    const took = { with: new Series(), without: new Series() };
    for (let i = 0; i < calls; i++) {
      for (const side of i % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
        took[side].add(await call(apis[side], change.call(names[side], i)));
      }
    }
    const added = took.with.percentile(50) - took.without.percentile(50);
    if (report) say(`${change.title}: with the trail ${figures(took.with)}; without ${figures(took.without)}; the trail adds ${added.toFixed(2)} ms (median)`);
  }
}

/** `concurrency` callers making limit changes for `calls` each: calls a second through each API. */
async function atOnce(admin: AdminHarness, names: string[], calls: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    names.map(async (name) => {
      for (let i = 0; i < calls; i++) await call(admin, CHANGES[0].call(name, i));
    }),
  );
  return (names.length * calls) / ((performance.now() - started) / 1000);
}

async function participants(services: HubServices, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, () => uniqueName('bench'));
  for (const name of names) {
    await services.participants.create(name, 'USD');
    await services.limits.initialPositionAndLimits(name, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: '1000' }, initialPosition: '0' });
  }
  return names;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' }, concurrency: { type: 'string', default: '8' } } });
  const calls = Number(values.calls);
  const concurrency = Number(values.concurrency);
  const databaseUrl = process.env.DATABASE_URL || `sqlite:${path.join(os.tmpdir(), `hub-bench-audit-${crypto.randomUUID()}.sqlite`)}`;
  const services = await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME });
  const access = loadConfig({ ADMIN_API_TOKENS: `bench:admin:${TOKEN}` }).adminAccess;
  const apis = {
    with: await startAdmin(services, { access }),
    without: await startAdmin({ ...services, audit: undefined } as unknown as HubServices, { access }),
  };
  try {
    say(
      `database: ${databaseUrl.replace(/\/\/[^@]*@/, '//…@')}; ${calls} calls of each change on each API, one at a time, then ${concurrency} callers at once`,
    );
    const [withName, withoutName] = await participants(services, 2);
    // Unmeasured first: the JIT, the database's caches and its files warm to both alike.
    await oneAtATime(apis, { with: withName, without: withoutName }, 50, false);
    await oneAtATime(apis, { with: withName, without: withoutName }, calls, true);
    const callers = Math.max(1, Math.floor(calls / 4));
    const throughput = { with: [] as number[], without: [] as number[] };
    for (const side of ['without', 'with', 'without', 'with'] as const) {
      throughput[side].push(await atOnce(apis[side], await participants(services, concurrency), callers));
    }
    const rates = (side: 'with' | 'without') => throughput[side].map((rate) => rate.toFixed(0)).join(' and ');
    say(`${concurrency} callers at once, ${callers} limit changes each, twice: with the trail ${rates('with')} calls/s, without ${rates('without')} calls/s`);
    const started = performance.now();
    const verdict = await services.audit.verify();
    say(`GET /audit/verify over ${verdict.entries} entries: ${(performance.now() - started).toFixed(0)} ms (ok: ${verdict.ok})`);
  } finally {
    await apis.with.close();
    await apis.without.close();
    await services.db.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
