import client from 'prom-client';
import { In } from 'typeorm';
import type { HubServices } from '../hubServices';
import { DeliveryFailures, TransferOutcome } from '../db/metricsEntities';
import { TransferRecord } from '../db/switchEntities';
import { Settlement, SettlementWindow } from '../db/settlementEntities';
import { NET_DEBIT_CAP } from '../ledger/rules';
import { COMPLETION_BUCKETS } from './schemeCounters';

const OPEN = ['RECEIVED', 'RESERVED'] as const;
const DECIDED = ['COMMITTED', 'ABORTED'] as const;

/**
 * The scheme as Prometheus sees it, read from the database when scraped (so every gateway process reports the same
 * figures, whichever served the payments; a dashboard takes one of them, max by its labels): transfers by state, the
 * time from a transfer's POST to its decision, each position against its Net Debit Cap, failed deliveries, settlement
 * windows and settlements by state. A scrape reads a few rows per participant, never a table that grows with the
 * transfers: the decided transfers and the failed deliveries are counted as they happen (schemeCounters.ts), the open
 * transfers found by an index. Grafana's dashboard (temporal/deploy/grafana/hub-dashboard.json) reads these.
 */
export const SCHEME_METRICS = [
  'hub_transfers',
  'hub_transfer_completion_seconds',
  'hub_position',
  'hub_net_debit_cap',
  'hub_delivery_failures_total',
  'hub_settlement_windows',
  'hub_settlements',
] as const;

type Name = (typeof SCHEME_METRICS)[number];
type Sample = { labels: Record<string, string>; value: number; metricName?: string };

export function registerSchemeMetrics(registry: client.Registry, services: Pick<HubServices, 'db' | 'limits'>): void {
  if (registry.getSingleMetric(SCHEME_METRICS[0])) return;
  const { db, limits } = services;
  const metric = (name: Name, type: 'gauge' | 'counter' | 'histogram', help: string, read: () => Promise<Sample[]>) =>
    registerRead(registry, { name, type, help, read });

  metric('hub_transfers', 'gauge', 'Transfers the switch has recorded, by state (COMMITTED and ABORTED only grow: their rate is transfers per second)', () =>
    transfersByState(db),
  );
  metric('hub_transfer_completion_seconds', 'histogram', "The time from a transfer's POST to its decision, by the state decided (COMMITTED or ABORTED)", () =>
    completionTimes(db),
  );

  metric('hub_position', 'gauge', "Each participant's position per currency, reservations included", async () =>
    (await limits.allPositions()).map(({ name, currency, value }) => ({ labels: { participant: name, currency }, value: Number(value) })),
  );
  metric('hub_net_debit_cap', 'gauge', "Each participant's Net Debit Cap per currency", async () =>
    (await limits.all({ type: NET_DEBIT_CAP })).map(({ name, currency, limit }) => ({ labels: { participant: name, currency }, value: Number(limit.value) })),
  );

  metric('hub_delivery_failures_total', 'counter', 'Deliveries the switch could not make, by the participant they were for', async () =>
    (await db.read((manager) => manager.find(DeliveryFailures))).map(({ participant, failures }) => ({ labels: { participant }, value: Number(failures) })),
  );

  metric('hub_settlement_windows', 'gauge', 'Settlement windows by state', () => countedByState(db, SettlementWindow));
  metric('hub_settlements', 'gauge', 'Settlements by state', () => countedByState(db, Settlement));
}

/** The open transfers found by their index, the decided ones from the counts kept as they were decided. */
async function transfersByState(db: HubServices['db']): Promise<Sample[]> {
  const counted = await db.read(async (manager) => [
    ...(await manager
      .createQueryBuilder(TransferRecord, 't')
      .select('t.transferState', 'state')
      .addSelect('COUNT(*)', 'count')
      .where({ transferState: In([...OPEN]) })
      .groupBy('t.transferState')
      .getRawMany<{ state: string; count: string | number }>()),
    ...(await manager
      .createQueryBuilder(TransferOutcome, 'o')
      .select('o.transferState', 'state')
      .addSelect('SUM(o.transfers)', 'count')
      .groupBy('o.transferState')
      .getRawMany<{ state: string; count: string | number }>()),
  ]);
  return [...OPEN, ...DECIDED].map((state) => ({ labels: { state }, value: Number(counted.find((row) => row.state === state)?.count ?? 0) }));
}

async function completionTimes(db: HubServices['db']): Promise<Sample[]> {
  const rows = await db.read((manager) =>
    manager
      .createQueryBuilder(TransferOutcome, 'o')
      .select('o.transferState', 'state')
      .addSelect('o.le', 'le')
      .addSelect('SUM(o.transfers)', 'transfers')
      .addSelect('SUM(o.seconds)', 'seconds')
      .groupBy('o.transferState')
      .addGroupBy('o.le')
      .getRawMany<{ state: string; le: string; transfers: string | number; seconds: string | number }>(),
  );
  return DECIDED.flatMap((state) =>
    histogramSamples(
      'hub_transfer_completion_seconds',
      state,
      rows.filter((row) => row.state === state),
    ),
  );
}

async function countedByState(db: HubServices['db'], entity: typeof SettlementWindow | typeof Settlement): Promise<Sample[]> {
  return (
    await db.read((manager) =>
      manager
        .createQueryBuilder(entity, 'e')
        .select('e.state', 'state')
        .addSelect('COUNT(*)', 'count')
        .groupBy('e.state')
        .getRawMany<{ state: string; count: string | number }>(),
    )
  ).map(({ state, count }) => ({ labels: { state }, value: Number(count) }));
}

/** A histogram's series for one state from its buckets' own counts: cumulative `_bucket`s up to +Inf, `_sum` and `_count`. */
function histogramSamples(name: string, state: string, rows: Array<{ le: string; transfers: string | number; seconds: string | number }>): Sample[] {
  let below = 0;
  const buckets = [...COMPLETION_BUCKETS, '+Inf'].map((le) => {
    below += Number(rows.find((row) => row.le === le)?.transfers ?? 0);
    return { metricName: `${name}_bucket`, labels: { state, le }, value: below };
  });
  const seconds = rows.reduce((sum, row) => sum + Number(row.seconds), 0);
  return [...buckets, { metricName: `${name}_sum`, labels: { state }, value: seconds }, { metricName: `${name}_count`, labels: { state }, value: below }];
}

/**
 * A metric whose samples are read afresh at each scrape. prom-client's own kinds keep values between scrapes (a
 * gauge's collect() resets then sets them, which two overlapping scrapes would mix, and a histogram can only be
 * observed); the registry takes anything with a name and a get() answering what a metric's get() answers.
 */
export function registerRead(
  registry: client.Registry,
  spec: { name: string; type: 'gauge' | 'counter' | 'histogram'; help: string; read: () => Promise<Sample[]> },
): void {
  const { name, type, help, read } = spec;
  const metric = {
    name,
    help,
    type,
    aggregator: 'first',
    reset: () => undefined,
    get: async () => ({ name, help, type, aggregator: 'first', values: await read() }),
  };
  registry.registerMetric(metric as unknown as client.Metric);
}
