import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { JournalEntry, ParticipantAccount } from '../db/entities';

export interface LedgerCheck {
  accounts: number;
  journalRows: number;
  /** Human-readable violations; empty when the ledger is sound. */
  violations: string[];
}

/** An account's balances as the database holds them. */
export interface AccountBalances {
  id: number;
  currency: string;
  value: string;
  reservedValue: string;
}

/** A journal row's amounts as the database holds them. */
export interface JournalAmounts {
  accountId: number;
  postedAmount: string;
  reservedAmount: string;
}

/**
 * The ledger's invariants, read in one transaction (one consistent snapshot):
 * every account's value and reservedValue equal the sums of its journal rows, and in every currency
 * the accounts' values sum to zero (each movement debits one account exactly what it credits another).
 * Read raw and summed in BigInt, the check shares no code with the ledger it checks.
 */
export async function checkLedger(db: Database): Promise<LedgerCheck> {
  return db.transaction(async (manager) => {
    const { accounts, rows } = await ledgerSnapshot(manager);
    return { accounts: accounts.length, journalRows: rows.length, violations: ledgerViolations(accounts, rows) };
  });
}

/** Every account's balances and every journal row, read raw, past the entities' transformer. */
export async function ledgerSnapshot(manager: EntityManager): Promise<{ accounts: AccountBalances[]; rows: JournalAmounts[] }> {
  const accounts = await manager
    .createQueryBuilder(ParticipantAccount, 'account')
    .select('account.id', 'id')
    .addSelect('account.currency', 'currency')
    .addSelect('account.value', 'value')
    .addSelect('account.reservedValue', 'reservedValue')
    .getRawMany<AccountBalances>();
  const rows = await manager
    .createQueryBuilder(JournalEntry, 'row')
    .select('row.accountId', 'accountId')
    .addSelect('row.postedAmount', 'postedAmount')
    .addSelect('row.reservedAmount', 'reservedAmount')
    .getRawMany<JournalAmounts>();
  return { accounts, rows };
}

/**
 * The violations of a ledger's invariants. Sums are taken in BigInt minor units of 10^-4, not with the decimal
 * arithmetic the ledger itself uses, so a rounding there cannot hide behind the same rounding here.
 */
export function ledgerViolations(accounts: AccountBalances[], rows: JournalAmounts[]): string[] {
  const violations: string[] = [];
  const unitsOf = (text: string, where: string) => {
    const units = minorUnits(text);
    if (units === undefined) violations.push(`${where} holds ${text}, not an amount with at most 4 decimals`);
    return units ?? 0n;
  };
  const sums = new Map<number, { posted: bigint; reserved: bigint }>();
  for (const row of rows) {
    const sum = sums.get(row.accountId) ?? { posted: 0n, reserved: 0n };
    sum.posted += unitsOf(row.postedAmount, `a journal row of account ${row.accountId}`);
    sum.reserved += unitsOf(row.reservedAmount, `a journal row of account ${row.accountId}`);
    sums.set(row.accountId, sum);
  }
  const byCurrency = new Map<string, bigint>();
  for (const account of accounts) {
    const sum = sums.get(account.id) ?? { posted: 0n, reserved: 0n };
    const value = unitsOf(account.value, `account ${account.id}`);
    if (sum.posted !== value) violations.push(`account ${account.id} value ${account.value} != journal ${textOf(sum.posted)}`);
    if (sum.reserved !== unitsOf(account.reservedValue, `account ${account.id}`)) {
      violations.push(`account ${account.id} reservedValue ${account.reservedValue} != journal ${textOf(sum.reserved)}`);
    }
    byCurrency.set(account.currency, (byCurrency.get(account.currency) ?? 0n) + value);
  }
  for (const [currency, total] of byCurrency) {
    if (total !== 0n) violations.push(`${currency} accounts sum to ${textOf(total)}, not zero`);
  }
  return violations;
}

const UNITS_PER_ONE = 10_000n;

/** An amount's text ("-12.5", "100.0000") in minor units of 10^-4, or undefined if it is no such amount. */
function minorUnits(text: string): bigint | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text);
  if (!parts) return undefined;
  const [, sign, integer, fraction = ''] = parts;
  const units = BigInt(integer) * UNITS_PER_ONE + BigInt(fraction.padEnd(4, '0'));
  return sign ? -units : units;
}

function textOf(units: bigint): string {
  const magnitude = units < 0n ? -units : units;
  return `${units < 0n ? '-' : ''}${magnitude / UNITS_PER_ONE}.${(magnitude % UNITS_PER_ONE).toString().padStart(4, '0')}`;
}
