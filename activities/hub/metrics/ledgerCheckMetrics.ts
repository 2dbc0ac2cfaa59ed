import type client from 'prom-client';
import { INVARIANTS, type InvariantName } from '../ledger/invariants';
import type { LedgerChecks } from '../ledger/ledgerChecks';
import { registerRead } from './schemeMetrics';

/**
 * The ledger check as Prometheus sees it, read from the latest check kept in the database when scraped (the check runs
 * in a worker, the scrape reaches a gateway): the violations it found per invariant (an alert fires above zero), when
 * it ran and how long it took. None before the first check.
 */
export function registerLedgerCheckMetrics(registry: client.Registry, { ledgerChecks }: { ledgerChecks: LedgerChecks }): void {
  if (registry.getSingleMetric('hub_ledger_invariant_violations')) return;
  const latest = () => ledgerChecks.latest();
  registerRead(registry, {
    name: 'hub_ledger_invariant_violations',
    type: 'gauge',
    help: "The violations of each of the ledger's invariants the latest ledger check found (0: it holds)",
    read: async () => {
      const check = await latest();
      if (!check) return [];
      return (Object.keys(INVARIANTS) as InvariantName[]).map((invariant) => ({
        labels: { invariant },
        value: check.violations.filter((violation) => violation.invariant === invariant).length,
      }));
    },
  });
  registerRead(registry, {
    name: 'hub_ledger_check_timestamp_seconds',
    type: 'gauge',
    help: 'When the latest ledger check ran (seconds since the epoch): an alert fires when it is too old',
    read: async () => {
      const check = await latest();
      return check ? [{ labels: {}, value: Date.parse(check.checkedAt) / 1000 }] : [];
    },
  });
  registerRead(registry, {
    name: 'hub_ledger_check_duration_seconds',
    type: 'gauge',
    help: 'How long the latest ledger check took',
    read: async () => {
      const check = await latest();
      return check ? [{ labels: { full: String(check.full) }, value: check.durationMs / 1000 }] : [];
    },
  });
}
