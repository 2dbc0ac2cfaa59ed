import { EntityManager, In } from 'typeorm';
import { chunks, insertRows } from '../db/batches';
import type { Database } from '../db/database';
import { JournalEntry, LedgerTransfer, ParticipantAccount } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import { HubError } from '../../platform/hubError';

/**
 * A movement of `amount` from the credit account to the debit account: the debit account's value rises,
 * the credit account's falls (Mojaloop's sign: a payer's POSITION rises by what it owes; a DFSP's
 * SETTLEMENT falls when it deposits funds).
 */
export interface Movement {
  transferId: string;
  kind: string;
  debitAccountId: number;
  creditAccountId: number;
  amount: string;
  currency: string;
  externalReference?: string;
  reason?: string;
}

/**
 * Checks run inside the reservation's transaction, after the accounts are locked: `debit` and `accounts` hold
 * the balances as the step has moved them so far, so each movement of a batch is checked after the ones before it.
 * A HubError refuses the movement.
 */
export type ReserveGuard = (context: {
  manager: EntityManager;
  debit: ParticipantAccount;
  amount: Decimal;
  accounts: ReadonlyMap<number, ParticipantAccount>;
}) => Promise<void>;

/**
 * The caller's own bookkeeping, written in the same transaction as the ledger step (a transfer's record
 * moving to RESERVED or COMMITTED), so the two can never disagree. Runs whenever the step's outcome
 * holds, also on a repeat, and must itself be idempotent.
 */
export type Alongside<Outcome = void> = (manager: EntityManager, outcome: Outcome) => Promise<void>;

export interface ReserveOptions<Outcome = void> {
  guard?: ReserveGuard;
  /** Accounts the guard reads, locked with the movements' own. */
  extraLocks?: number[];
  alongside?: Alongside<Outcome>;
}

/** How one movement of a batch fared: reserved (now, or by an earlier attempt of the step), or refused. */
export type Reservation = { transferId: string; reserved: LedgerTransfer } | { transferId: string; refused: HubError };

export type Outcome = 'COMMITTED' | 'ABORTED';

/** Why a commit asked at or after the reservation's expiration was refused (3303), in the words of both commit paths. */
export const expiredBeforeCommit = (transferId: string, expiration: Date) =>
  `transfer ${transferId} expired at ${expiration.toISOString()} before it could commit`;

/** What to do with one reservation of a batch. */
export interface Settlement {
  transferId: string;
  outcome: Outcome;
  /**
   * When the reservation expires. A commit at or after it releases the reservation instead (a pending transfer's
   * timeout, TigerBeetle's `pending_transfer_expired`), judged by the step's clock under the accounts' locks, so no
   * delay before the step (a paused worker, a lock wait) lets a commit slip past it.
   */
  expiration?: Date;
}

/**
 * The double-entry ledger. A movement is reserved (the debit account's reservedValue rises), then
 * committed (values move, the reservation is consumed) or released (the reservation is voided).
 * Each step writes its journal rows and account balances in one transaction, under row locks on the
 * accounts it reads, and is idempotent: repeating it after it took effect changes nothing. A step may
 * carry many movements (a bulk transfer's items): one transaction, the accounts locked once.
 */
export class Ledger {
  constructor(private readonly db: Database) {}

  reserve(movement: Movement, options: ReserveOptions = {}): Promise<LedgerTransfer> {
    return this.db.transaction(async (manager) => {
      const [reservation] = await reserveIn(manager, [movement], options);
      if ('refused' in reservation) throw reservation.refused;
      await options.alongside?.(manager);
      return reservation.reserved;
    });
  }

  /**
   * Reserves the movements in their order, in one transaction: one the guard refuses (or that conflicts with an
   * existing movement) is left out and the others go on. A movement an earlier attempt reserved is not reserved again.
   */
  reserveEach(movements: Movement[], options: ReserveOptions<Reservation[]> = {}): Promise<Reservation[]> {
    return this.db.transaction(async (manager) => {
      const reservations = await reserveIn(manager, movements, options);
      await options.alongside?.(manager, reservations);
      return reservations;
    });
  }

  /**
   * Commits the reservation; with `expiration`, one the step handles at or after it is refused (3303) and nothing
   * changes, judged under the accounts' locks as settleEach judges it, so no delay before the step lets it commit late.
   */
  commit(transferId: string, alongside?: Alongside, expiration?: Date): Promise<LedgerTransfer> {
    return this.settle(transferId, 'COMMITTED', alongside, expiration);
  }

  release(transferId: string, alongside?: Alongside): Promise<LedgerTransfer> {
    return this.settle(transferId, 'ABORTED', alongside);
  }

  /**
   * Commits or releases each reservation, in one transaction. One that is no longer RESERVED is left as it is
   * (a repeat, or the sweep released it meanwhile), one asked to commit after its expiration is released: the
   * movements come back in the state the ledger holds.
   */
  async settleEach(settlements: Settlement[], alongside?: Alongside<LedgerTransfer[]>): Promise<LedgerTransfer[]> {
    const found = await this.db.read((manager) =>
      transfersById(
        manager,
        settlements.map((s) => s.transferId),
      ),
    );
    return this.db.transaction(async (manager) => {
      const settled = await settleIn(manager, [...found.values()], settlements);
      await alongside?.(manager, settled);
      return settled;
    });
  }

  /** Reserve and commit in one transaction, for movements with nothing to wait for (funds in). */
  post(movement: Movement, guard?: ReserveGuard): Promise<LedgerTransfer> {
    return this.db.transaction(async (manager) => {
      const [reservation] = await reserveIn(manager, [movement], { guard });
      if ('refused' in reservation) throw reservation.refused;
      if (reservation.reserved.state !== 'RESERVED') return reservation.reserved;
      return (await settleIn(manager, [reservation.reserved], [{ transferId: movement.transferId, outcome: 'COMMITTED' }]))[0];
    });
  }

  private async settle(transferId: string, outcome: Outcome, alongside?: Alongside, expiration?: Date): Promise<LedgerTransfer> {
    // Read outside the transaction which accounts to lock: no read may precede the lock inside it.
    const found = await this.db.read((manager) => manager.findOneBy(LedgerTransfer, { transferId }));
    if (!found) throw new HubError('transferIdNotFound', `No reservation for transfer ${transferId}`);
    return this.db.transaction(async (manager) => {
      const [settled] = await settleIn(manager, [found], [{ transferId, outcome, expiration }]);
      // Released at or after its expiration, by the step's own clock: thrown, so the transaction leaves the
      // reservation to its owner's abort.
      if (outcome === 'COMMITTED' && settled.state === 'ABORTED' && expiration && settled.completedDate && expiration <= settled.completedDate) {
        throw new HubError('transferExpired', expiredBeforeCommit(transferId, expiration));
      }
      if (settled.state !== outcome) {
        throw new HubError('clientError', `Transfer ${transferId} is already ${settled.state}, cannot make it ${outcome}`);
      }
      await alongside?.(manager);
      return settled;
    });
  }
}

/** Reserves movements in order inside the caller's transaction; repeating one with the same details changes nothing. */
async function reserveIn(
  manager: EntityManager,
  movements: Movement[],
  { guard, extraLocks = [] }: Pick<ReserveOptions, 'guard' | 'extraLocks'>,
): Promise<Reservation[]> {
  const accounts = await lockAccounts(manager, [...movements.flatMap((m) => [m.debitAccountId, m.creditAccountId]), ...extraLocks]);
  const existing = await transfersById(
    manager,
    movements.map((m) => m.transferId),
  );
  const postings = new Postings(accounts);
  const created: LedgerTransfer[] = [];
  const reservations: Reservation[] = [];
  for (const movement of movements) {
    const { transferId } = movement;
    const earlier = existing.get(transferId);
    if (earlier) {
      reservations.push(sameMovement(earlier, movement) ? { transferId, reserved: earlier } : { transferId, refused: modified(transferId) });
      continue;
    }
    const amount = new Decimal(movement.amount);
    try {
      await guard?.({ manager, debit: accounts.get(movement.debitAccountId)!, amount, accounts });
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      reservations.push({ transferId, refused: error });
      continue;
    }
    const transfer = manager.create(LedgerTransfer, {
      ...movement,
      amount: formatAmount(amount),
      externalReference: movement.externalReference ?? null,
      reason: movement.reason ?? null,
      state: 'RESERVED',
      createdDate: postings.now,
      completedDate: null,
    });
    created.push(transfer);
    existing.set(transferId, transfer);
    postings.add(transferId, 'RESERVE', [{ accountId: movement.debitAccountId, reserved: amount }]);
    reservations.push({ transferId, reserved: transfer });
  }
  await insertRows(manager, LedgerTransfer, created);
  await postings.write(manager);
  return reservations;
}

/**
 * Commits or releases reservations inside the caller's transaction; one no longer RESERVED is returned as it is.
 * `found` names the accounts to lock, read before the transaction (MySQL's snapshot starts at the first read).
 */
async function settleIn(manager: EntityManager, found: LedgerTransfer[], settlements: Settlement[]): Promise<LedgerTransfer[]> {
  const accounts = await lockAccounts(
    manager,
    found.flatMap((t) => [t.debitAccountId, t.creditAccountId]),
  );
  // Re-read under the lock: a concurrent commit or release may have finished meanwhile.
  const current = await transfersById(
    manager,
    settlements.map((s) => s.transferId),
  );
  const postings = new Postings(accounts);
  const moved: Record<Outcome, string[]> = { COMMITTED: [], ABORTED: [] };
  const settled: LedgerTransfer[] = [];
  for (const { transferId, outcome: asked, expiration } of settlements) {
    const outcome = asked === 'COMMITTED' && expiration && expiration.getTime() <= postings.now.getTime() ? 'ABORTED' : asked;
    const transfer = current.get(transferId);
    if (!transfer) throw new HubError('transferIdNotFound', `No reservation for transfer ${transferId}`);
    if (transfer.state !== 'RESERVED') {
      settled.push(transfer);
      continue;
    }
    const amount = new Decimal(transfer.amount);
    if (outcome === 'COMMITTED') {
      postings.add(transferId, 'COMMIT', [
        { accountId: transfer.debitAccountId, posted: amount, reserved: amount.negated() },
        { accountId: transfer.creditAccountId, posted: amount.negated() },
      ]);
    } else {
      postings.add(transferId, 'RELEASE', [{ accountId: transfer.debitAccountId, reserved: amount.negated() }]);
    }
    const done = { ...transfer, state: outcome, completedDate: postings.now };
    current.set(transferId, done);
    moved[outcome].push(transferId);
    settled.push(done);
  }
  for (const outcome of ['COMMITTED', 'ABORTED'] as const) {
    for (const chunk of chunks(moved[outcome])) {
      await manager.update(LedgerTransfer, { transferId: In(chunk), state: 'RESERVED' }, { state: outcome, completedDate: postings.now });
    }
  }
  await postings.write(manager);
  return settled;
}

/**
 * Takes the accounts' row locks before anything is read. The lock is a write (an UPDATE that changes
 * nothing), which works the same on both databases: InnoDB locks the matched rows in key order (no
 * deadlock between two movements over the same accounts), and SQLite takes its write lock up front,
 * waiting through the busy timeout rather than failing on a stale read snapshot.
 */
async function lockAccounts(manager: EntityManager, ids: number[]): Promise<Map<number, ParticipantAccount>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0) return new Map();
  await manager.query(`UPDATE participant_account SET id = id WHERE id IN (${unique.map(() => '?').join(', ')})`, unique);
  const rows = await manager.findBy(ParticipantAccount, { id: In(unique) });
  if (rows.length !== unique.length) throw new HubError('idNotFound', `Unknown ledger account among ${unique.join(', ')}`);
  return new Map(rows.map((row) => [row.id, row]));
}

interface Change {
  accountId: number;
  posted?: Decimal;
  reserved?: Decimal;
}

/**
 * A step's journal rows and the balances they move. Balances move in memory as rows are added, so a guard
 * sees every earlier movement of the step; `write` inserts the rows and updates each account once.
 */
class Postings {
  readonly now = new Date();
  private readonly rows: Array<Omit<JournalEntry, 'id'>> = [];
  private readonly changed = new Set<number>();

  constructor(private readonly accounts: Map<number, ParticipantAccount>) {}

  add(transferId: string, phase: string, changes: Change[]): void {
    for (const { accountId, posted = new Decimal(0), reserved = new Decimal(0) } of changes) {
      const account = this.accounts.get(accountId)!;
      this.rows.push({
        transferId,
        accountId,
        phase,
        postedAmount: formatAmount(posted),
        reservedAmount: formatAmount(reserved),
        createdDate: this.now,
      });
      this.accounts.set(accountId, {
        ...account,
        value: formatAmount(posted.plus(account.value)),
        reservedValue: formatAmount(reserved.plus(account.reservedValue)),
        changedDate: this.now,
      });
      this.changed.add(accountId);
    }
  }

  async write(manager: EntityManager): Promise<void> {
    // The journal's unique key (transfer, account, phase) is the last guard against applying a change twice.
    await insertRows(manager, JournalEntry, this.rows);
    for (const id of this.changed) {
      const { value, reservedValue, changedDate } = this.accounts.get(id)!;
      await manager.update(ParticipantAccount, { id }, { value, reservedValue, changedDate });
    }
  }
}

/** The movements with these IDs, a chunk of IDs per query. */
export async function transfersById(manager: EntityManager, ids: string[]): Promise<Map<string, LedgerTransfer>> {
  const found = new Map<string, LedgerTransfer>();
  for (const chunk of chunks([...new Set(ids)])) {
    for (const transfer of await manager.findBy(LedgerTransfer, { transferId: In(chunk) })) found.set(transfer.transferId, transfer);
  }
  return found;
}

function sameMovement(existing: LedgerTransfer, movement: Movement): boolean {
  return (
    existing.kind === movement.kind &&
    existing.debitAccountId === movement.debitAccountId &&
    existing.creditAccountId === movement.creditAccountId &&
    existing.currency === movement.currency &&
    new Decimal(existing.amount).equals(movement.amount)
  );
}

function modified(transferId: string): HubError {
  return new HubError('modifiedRequest', `Transfer ${transferId} already exists with different details`);
}
