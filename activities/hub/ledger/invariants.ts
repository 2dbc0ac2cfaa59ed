import type { Database } from '../db/database';
import { JournalEntry, ParticipantAccount } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';

export interface LedgerCheck {
  accounts: number;
  journalRows: number;
  /** Human-readable violations; empty when the ledger is sound. */
  violations: string[];
}

/**
 * The ledger's invariants, read in one transaction (one consistent snapshot):
 * every account's value and reservedValue equal the sums of its journal rows, and in every currency
 * the accounts' values sum to zero (each movement debits one account exactly what it credits another).
 */
export async function checkLedger(db: Database): Promise<LedgerCheck> {
  return db.transaction(async (manager) => {
    const accounts = await manager.find(ParticipantAccount);
    const rows = await manager.find(JournalEntry);
    const sums = new Map<number, { posted: Decimal; reserved: Decimal }>();
    for (const row of rows) {
      const sum = sums.get(row.accountId) ?? { posted: new Decimal(0), reserved: new Decimal(0) };
      sums.set(row.accountId, { posted: sum.posted.plus(row.postedAmount), reserved: sum.reserved.plus(row.reservedAmount) });
    }
    const violations: string[] = [];
    const byCurrency = new Map<string, Decimal>();
    for (const account of accounts) {
      const sum = sums.get(account.id) ?? { posted: new Decimal(0), reserved: new Decimal(0) };
      if (!sum.posted.equals(account.value)) {
        violations.push(`account ${account.id} value ${account.value} != journal ${formatAmount(sum.posted)}`);
      }
      if (!sum.reserved.equals(account.reservedValue)) {
        violations.push(`account ${account.id} reservedValue ${account.reservedValue} != journal ${formatAmount(sum.reserved)}`);
      }
      byCurrency.set(account.currency, (byCurrency.get(account.currency) ?? new Decimal(0)).plus(account.value));
    }
    for (const [currency, total] of byCurrency) {
      if (!total.isZero()) violations.push(`${currency} accounts sum to ${formatAmount(total)}, not zero`);
    }
    return { accounts: accounts.length, journalRows: rows.length, violations };
  });
}
