import client from 'prom-client';
import { IsNull, MoreThanOrEqual, Not } from 'typeorm';
import type { Database } from '../db/database';
import { Participant, ParticipantAccount, ParticipantLimit, TransferRecord } from '../db/entities';
import { Settlement, SettlementWindow } from '../db/settlementEntities';
import { reportedValue } from '../ledger/limits';
import type { Traces } from '../trace/traces';

/** How far back the completion times and failed deliveries reach. */
const RECENT_MS = 5 * 60_000;
const QUANTILES = [0.5, 0.95, 0.99];

/**
 * The scheme as Prometheus sees it, read from the database when scraped (so every gateway process reports the same
 * figures, whichever served the payments): transfers by state, how long the last minutes' transfers took from the
 * payer's POST to their decision, each position against its Net Debit Cap, deliveries failing, settlement windows
 * and settlements by state. Grafana's dashboard (temporal/deploy/grafana/hub-dashboard.json) reads these.
 */
export const SCHEME_METRICS = [
  'hub_transfers',
  'hub_transfer_completion_seconds',
  'hub_position',
  'hub_net_debit_cap',
  'hub_delivery_failures',
  'hub_settlement_windows',
  'hub_settlements',
] as const;

export function registerSchemeMetrics(registry: client.Registry, db: Database, traces: Traces): void {
  if (registry.getSingleMetric(SCHEME_METRICS[0])) return;
  const gauge = (name: (typeof SCHEME_METRICS)[number], help: string, labelNames: string[], collect: (gauge: client.Gauge) => Promise<void>) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });

  gauge(
    'hub_transfers',
    'Transfers the switch has recorded, by state (COMMITTED and ABORTED only grow: their rate is transfers per second)',
    ['state'],
    async (g) => {
      const rows: Array<{ state: string; count: string | number }> = await db.read((manager) =>
        manager
          .createQueryBuilder(TransferRecord, 't')
          .select('t.transferState', 'state')
          .addSelect('COUNT(*)', 'count')
          .groupBy('t.transferState')
          .getRawMany(),
      );
      for (const row of rows) g.set({ state: row.state }, Number(row.count));
    },
  );

  gauge(
    'hub_transfer_completion_seconds',
    "Quantiles of the time from a transfer's POST to its decision (COMMITTED or ABORTED), over those decided in the last 5 minutes",
    ['quantile'],
    async (g) => {
      const since = new Date(Date.now() - RECENT_MS);
      const decided = await db.read((manager) =>
        manager.find(TransferRecord, {
          select: { createdDate: true, completedTimestamp: true },
          where: { createdDate: MoreThanOrEqual(since), completedTimestamp: Not(IsNull()) },
        }),
      );
      const seconds = decided.map((t) => (t.completedTimestamp!.getTime() - t.createdDate.getTime()) / 1000).sort((a, b) => a - b);
      if (seconds.length === 0) return;
      for (const quantile of QUANTILES) g.set({ quantile: String(quantile) }, seconds[Math.min(seconds.length - 1, Math.floor(quantile * seconds.length))]);
    },
  );

  const positions = () =>
    db.read(async (manager) => {
      const accounts = await manager.findBy(ParticipantAccount, { ledgerAccountType: 'POSITION' });
      const participants = await manager.find(Participant);
      const limits = await manager.findBy(ParticipantLimit, { type: 'NET_DEBIT_CAP' });
      return accounts.map((account) => ({
        participant: participants.find((p) => p.participantId === account.participantId)?.name ?? String(account.participantId),
        currency: account.currency,
        position: Number(reportedValue(account)),
        cap: limits.find((limit) => limit.accountId === account.id)?.value,
      }));
    });
  gauge('hub_position', "Each participant's position per currency, reservations included", ['participant', 'currency'], async (g) => {
    for (const { participant, currency, position } of await positions()) g.set({ participant, currency }, position);
  });
  gauge('hub_net_debit_cap', "Each participant's Net Debit Cap per currency", ['participant', 'currency'], async (g) => {
    for (const { participant, currency, cap } of await positions()) if (cap !== undefined) g.set({ participant, currency }, Number(cap));
  });

  gauge('hub_delivery_failures', 'Deliveries the switch could not make in the last 5 minutes, by the participant they were for', ['participant'], async (g) => {
    for (const failing of await traces.failingDeliveries(new Date(Date.now() - RECENT_MS))) g.set({ participant: failing.participant }, failing.failures);
  });

  const byState = (entity: typeof SettlementWindow | typeof Settlement) => async (g: client.Gauge) => {
    const rows: Array<{ state: string; count: string | number }> = await db.read((manager) =>
      manager.createQueryBuilder(entity, 'e').select('e.state', 'state').addSelect('COUNT(*)', 'count').groupBy('e.state').getRawMany(),
    );
    for (const row of rows) g.set({ state: row.state }, Number(row.count));
  };
  gauge('hub_settlement_windows', 'Settlement windows by state', ['state'], byState(SettlementWindow));
  gauge('hub_settlements', 'Settlements by state', ['state'], byState(Settlement));
}
