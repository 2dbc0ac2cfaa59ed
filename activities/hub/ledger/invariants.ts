import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { JournalEntry, Participant, ParticipantAccount } from '../db/entities';

/**
 * The ledger's invariants, stated once (TigerBeetle's "checked often"): what GET /ledger/invariants reports and the
 * tests assert after every scenario.
 */
export const INVARIANTS = {
  amountsExact: 'every balance and journal amount is a decimal with at most 4 places',
  balancesMatchJournal: "every account's value and reservedValue are the sums of its journal rows",
  currenciesSumToZero: "in every currency the accounts' values sum to zero: each movement debits one account exactly what it credits another",
} as const;

export type InvariantName = keyof typeof INVARIANTS;

/** An account as a violation names it. */
export interface AccountNamed {
  accountId: number;
  participant: string;
  ledgerAccountType: string;
  currency: string;
}

/** Where the ledger breaks an invariant; amounts are decimal strings with 4 places, as the database holds them. */
export type Violation =
  | (AccountNamed & { invariant: 'amountsExact'; held: string; in: 'account' | 'journal' })
  | (AccountNamed & { invariant: 'balancesMatchJournal'; balance: 'value' | 'reservedValue'; held: string; journal: string })
  | { invariant: 'currenciesSumToZero'; currency: string; sum: string };

/** What a check of the ledger found: each invariant, whether it holds, and every violation of any of them. */
export interface LedgerReport {
  checkedAt: string;
  /** Every invariant holds. */
  holds: boolean;
  accounts: number;
  journalRows: number;
  invariants: Array<{ invariant: InvariantName; statement: string; holds: boolean }>;
  violations: Violation[];
}

/** An account's balances as the database holds them. */
export interface AccountBalances extends Omit<AccountNamed, 'accountId'> {
  id: number;
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
 * Checks the ledger's invariants on one consistent snapshot (one transaction). Read raw and summed in BigInt, the
 * check shares no code with the ledger it checks.
 */
export async function checkLedger(db: Database): Promise<LedgerReport> {
  return db.transaction(async (manager) => {
    const { accounts, rows } = await ledgerSnapshot(manager);
    const violations = ledgerViolations(accounts, rows);
    const invariants = (Object.keys(INVARIANTS) as InvariantName[]).map((invariant) => ({
      invariant,
      statement: INVARIANTS[invariant],
      holds: !violations.some((violation) => violation.invariant === invariant),
    }));
    return {
      checkedAt: new Date().toISOString(),
      holds: violations.length === 0,
      accounts: accounts.length,
      journalRows: rows.length,
      invariants,
      violations,
    };
  });
}

/** Every account's balances and every journal row, read raw, past the entities' transformer. */
export async function ledgerSnapshot(manager: EntityManager): Promise<{ accounts: AccountBalances[]; rows: JournalAmounts[] }> {
  const accounts = await manager
    .createQueryBuilder(ParticipantAccount, 'account')
    .leftJoin(Participant, 'participant', 'participant.participantId = account.participantId')
    .select('account.id', 'id')
    .addSelect('participant.name', 'participant')
    .addSelect('account.ledgerAccountType', 'ledgerAccountType')
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
export function ledgerViolations(accounts: AccountBalances[], rows: JournalAmounts[]): Violation[] {
  const violations: Violation[] = [];
  const byId = new Map(accounts.map((account) => [Number(account.id), account]));
  const named = (accountId: number): AccountNamed => {
    const { participant = '', ledgerAccountType = '', currency = '' } = byId.get(accountId) ?? {};
    return { accountId, participant, ledgerAccountType, currency };
  };
  // An amount that is none (amountsExact) counts as zero in the sums, and is compared with nothing.
  const unitsOf = (held: string, accountId: number, where: 'account' | 'journal') => {
    const units = minorUnits(held);
    if (units === undefined) violations.push({ invariant: 'amountsExact', ...named(accountId), held, in: where });
    return units;
  };
  const sums = new Map<number, { value: bigint; reservedValue: bigint }>();
  for (const row of rows) {
    const accountId = Number(row.accountId);
    const sum = sums.get(accountId) ?? { value: 0n, reservedValue: 0n };
    sum.value += unitsOf(row.postedAmount, accountId, 'journal') ?? 0n;
    sum.reservedValue += unitsOf(row.reservedAmount, accountId, 'journal') ?? 0n;
    sums.set(accountId, sum);
  }
  const byCurrency = new Map<string, bigint>();
  for (const account of accounts) {
    const accountId = Number(account.id);
    const journal = sums.get(accountId) ?? { value: 0n, reservedValue: 0n };
    for (const balance of ['value', 'reservedValue'] as const) {
      const held = unitsOf(account[balance], accountId, 'account');
      if (held !== undefined && held !== journal[balance]) {
        violations.push({ invariant: 'balancesMatchJournal', ...named(accountId), balance, held: textOf(held), journal: textOf(journal[balance]) });
      }
      if (balance === 'value') byCurrency.set(account.currency, (byCurrency.get(account.currency) ?? 0n) + (held ?? 0n));
    }
  }
  for (const [currency, sum] of byCurrency) {
    if (sum !== 0n) violations.push({ invariant: 'currenciesSumToZero', currency, sum: textOf(sum) });
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
