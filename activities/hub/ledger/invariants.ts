import type { EntityManager } from 'typeorm';
import { chunks } from '../db/batches';
import type { Database } from '../db/database';
import { JournalEntry, LedgerTransfer, Participant, ParticipantAccount, SettlementModel } from '../db/entities';
import { minorUnits, textOf } from './minorUnits';
import {
  addCommitted,
  type AccountHeld,
  type CommittedMovement,
  type GrossTerms,
  MOVEMENT_INVARIANTS,
  type MovementViolation,
  movementViolations,
  type OpenMovement,
  reservedSums,
} from './movementInvariants';

/**
 * The ledger's invariants, stated once (TigerBeetle's "checked often"): what GET /ledger/invariants reports and the
 * tests assert after every scenario.
 */
export const INVARIANTS = {
  amountsExact: 'every balance and journal amount is a decimal with at most 4 places',
  balancesMatchJournal: "every account's value and reservedValue are the sums of its journal rows",
  currenciesSumToZero: "in every currency the accounts' values sum to zero: each movement debits one account exactly what it credits another",
  ...MOVEMENT_INVARIANTS,
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
  | { invariant: 'currenciesSumToZero'; currency: string; sum: string }
  | (AccountNamed & Omit<MovementViolation, 'accountId'>);

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

/** An account as the checks read it: named, placed beside its participant's others, and its balances. */
export type LedgerAccount = AccountBalances & AccountHeld;

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
export async function checkLedger(db: Database, pageLength = JOURNAL_PAGE): Promise<LedgerReport> {
  return db.snapshot(async (manager) => {
    const accounts = await ledgerAccounts(manager);
    const journal = new JournalSums();
    let journalRows = 0;
    for await (const page of journalPages(manager, 0, pageLength)) {
      journal.add(page);
      journalRows += page.length;
    }
    const moved = await committedSums(manager, accounts, await grossTerms(manager), pageLength);
    const reserved = reservedSums(await openMovements(manager));
    const violations = [...ledgerViolations(accounts, journal.rows()), ...namedMovementViolations(accounts, moved, reserved)];
    return { ...verdictsOf(violations), accounts: accounts.length, journalRows };
  });
}

/** Each invariant, whether it holds, and the violations of any. */
export function verdictsOf(violations: Violation[]): Pick<LedgerReport, 'checkedAt' | 'holds' | 'invariants' | 'violations'> {
  const invariants = (Object.keys(INVARIANTS) as InvariantName[]).map((invariant) => ({
    invariant,
    statement: INVARIANTS[invariant],
    holds: !violations.some((violation) => violation.invariant === invariant),
  }));
  return { checkedAt: new Date().toISOString(), holds: violations.length === 0, invariants, violations };
}

/** The movement invariants' violations (movementViolations), each naming its account. */
export function namedMovementViolations(accounts: LedgerAccount[], moved: ReadonlyMap<number, bigint>, reserved: ReadonlyMap<number, bigint>): Violation[] {
  const byId = new Map(accounts.map((account) => [Number(account.id), account]));
  return movementViolations(accounts, moved, reserved).map(({ invariant, accountId, ...balances }) => {
    const { participant, ledgerAccountType, currency } = byId.get(accountId)!;
    return { invariant, accountId, participant, ledgerAccountType, currency, ...balances };
  });
}

/** Every account, read raw, past the entities' transformer. */
export function ledgerAccounts(manager: EntityManager): Promise<LedgerAccount[]> {
  return manager
    .createQueryBuilder(ParticipantAccount, 'account')
    .leftJoin(Participant, 'participant', 'participant.participantId = account.participantId')
    .select('account.id', 'id')
    .addSelect('account.participantId', 'participantId')
    .addSelect('participant.name', 'participant')
    .addSelect('account.ledgerAccountType', 'ledgerAccountType')
    .addSelect('account.currency', 'currency')
    .addSelect('account.value', 'value')
    .addSelect('account.reservedValue', 'reservedValue')
    .getRawMany<LedgerAccount>();
}

/** The columns a movement invariant reads of a movement, raw. */
function movementQuery(manager: EntityManager) {
  return manager
    .createQueryBuilder(LedgerTransfer, 't')
    .select('t.transferId', 'transferId')
    .addSelect('t.kind', 'kind')
    .addSelect('t.debitAccountId', 'debitAccountId')
    .addSelect('t.creditAccountId', 'creditAccountId')
    .addSelect('t.amount', 'amount')
    .addSelect('t.settlementModelId', 'settlementModelId');
}

/**
 * What every committed movement, by the transfers' own state, makes each account's value (addCommitted): what a full
 * check reads. The transfers are read a page at a time along their primary key, so the check holds one page, not the
 * ledger; the state is filtered here, not by the database, which would otherwise sort the committed transfers by key
 * for every page.
 */
export async function committedSums(
  manager: EntityManager,
  accounts: AccountHeld[],
  gross: ReadonlyMap<number, GrossTerms>,
  pageLength = JOURNAL_PAGE,
): Promise<Map<number, bigint>> {
  const moved = new Map<number, bigint>();
  for (let after = ''; ;) {
    const page = await movementQuery(manager)
      .addSelect('t.state', 'state')
      .where('t.transferId > :after', { after })
      .orderBy('t.transferId', 'ASC')
      .limit(pageLength)
      .getRawMany<CommittedMovement & { transferId: string; state: string }>();
    addCommitted(
      moved,
      page.filter((movement) => movement.state === 'COMMITTED'),
      accounts,
      gross,
    );
    if (page.length < pageLength) return moved;
    after = page[page.length - 1].transferId;
  }
}

/**
 * The committed movements whose commits these journal rows record (each by its debit account's COMMIT row), found by
 * their keys a chunk at a time: a join would let the database scan every committed transfer for the few rows since
 * a checkpoint.
 */
export async function committedMovementsOf(
  manager: EntityManager,
  rows: Array<{ transferId: string; accountId: number; phase: string }>,
): Promise<CommittedMovement[]> {
  const commits = new Map(rows.filter((row) => row.phase === 'COMMIT').map((row) => [`${row.transferId}/${Number(row.accountId)}`, row]));
  const ids = [...new Set([...commits.values()].map((row) => row.transferId))];
  const found: CommittedMovement[] = [];
  for (const chunk of chunks(ids)) {
    // By key alone: with the state in the query too, SQLite takes the index on the state and reads every committed
    // transfer for each chunk.
    const movements = await movementQuery(manager)
      .addSelect('t.state', 'state')
      .where('t.transferId IN (:...chunk)', { chunk })
      .getRawMany<CommittedMovement & { transferId: string; state: string }>();
    found.push(...movements.filter((movement) => movement.state === 'COMMITTED' && commits.has(`${movement.transferId}/${Number(movement.debitAccountId)}`)));
  }
  return found;
}

/** The reservations not yet decided, found by the index on the transfers' state. */
export function openMovements(manager: EntityManager): Promise<OpenMovement[]> {
  return manager
    .createQueryBuilder(LedgerTransfer, 't')
    .select('t.debitAccountId', 'debitAccountId')
    .addSelect('t.amount', 'amount')
    .where("t.state = 'RESERVED'")
    .getRawMany<OpenMovement>();
}

/** The gross models' terms, by model (their settlement account type and reset never change once a model exists). */
export async function grossTerms(manager: EntityManager): Promise<Map<number, GrossTerms>> {
  const models = await manager.findBy(SettlementModel, { settlementGranularity: 'GROSS' });
  return new Map(
    models.map(({ settlementModelId, settlementAccountType, autoPositionReset }) => [
      settlementModelId,
      { settlementModelId, settlementAccountType, autoPositionReset },
    ]),
  );
}

/** A journal page's length: a check holds one page of the journal at a time, however long the journal. */
export const JOURNAL_PAGE = 10_000;

/** A journal row as the checks read it. */
export interface JournalRow extends JournalAmounts {
  id: number;
  transferId: string;
  phase: string;
  createdDate: Date | string;
}

/** The journal rows with an ID above `after`, a page at a time in ID order: each page a range of the primary key. */
export async function* journalPages(manager: EntityManager, after: number, pageLength = JOURNAL_PAGE): AsyncGenerator<JournalRow[]> {
  for (let from = after; ;) {
    const page = await manager
      .createQueryBuilder(JournalEntry, 'j')
      .select('j.id', 'id')
      .addSelect('j.accountId', 'accountId')
      .addSelect('j.postedAmount', 'postedAmount')
      .addSelect('j.reservedAmount', 'reservedAmount')
      .addSelect('j.createdDate', 'createdDate')
      .addSelect('j.transferId', 'transferId')
      .addSelect('j.phase', 'phase')
      .where('j.id > :from', { from })
      .orderBy('j.id', 'ASC')
      .limit(pageLength)
      .getRawMany<JournalRow>();
    if (page.length > 0) yield page;
    if (page.length < pageLength) return;
    from = Number(page[page.length - 1].id);
  }
}

/**
 * Journal rows folded into one sum per account as they are read, so a check need not hold the journal: `rows()` gives
 * them back as one row per account for ledgerViolations, with every row whose amount is none kept whole, for it to name.
 */
export class JournalSums {
  private readonly sums = new Map<number, { value: bigint; reservedValue: bigint }>();
  private readonly unreadable: JournalAmounts[] = [];

  add(rows: Iterable<JournalAmounts>): this {
    for (const row of rows) {
      const [value, reservedValue] = [minorUnits(row.postedAmount), minorUnits(row.reservedAmount)];
      if (value === undefined || reservedValue === undefined) {
        this.unreadable.push(row);
        continue;
      }
      const sum = this.sums.get(Number(row.accountId)) ?? { value: 0n, reservedValue: 0n };
      sum.value += value;
      sum.reservedValue += reservedValue;
      this.sums.set(Number(row.accountId), sum);
    }
    return this;
  }

  rows(): JournalAmounts[] {
    const summed = [...this.sums].map(([accountId, sum]) => ({ accountId, postedAmount: textOf(sum.value), reservedAmount: textOf(sum.reservedValue) }));
    return [...summed, ...this.unreadable];
  }
}

/** Every account's balances and every journal row, read raw, past the entities' transformer. */
export async function ledgerSnapshot(manager: EntityManager): Promise<{ accounts: LedgerAccount[]; rows: JournalAmounts[] }> {
  const accounts = await ledgerAccounts(manager);
  const rows = await manager
    .createQueryBuilder(JournalEntry, 'row')
    .select('row.accountId', 'accountId')
    .addSelect('row.postedAmount', 'postedAmount')
    .addSelect('row.reservedAmount', 'reservedAmount')
    .getRawMany<JournalAmounts>();
  return { accounts, rows };
}

/**
 * The violations of the invariants that tie the balances to their journal. Sums are taken in BigInt minor units
 * (minorUnits.ts).
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
