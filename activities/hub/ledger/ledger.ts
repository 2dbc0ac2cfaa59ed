import { EntityManager, In } from 'typeorm';
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

/** Checks run inside the reservation's transaction, after the accounts are locked. */
export type ReserveGuard = (context: { manager: EntityManager; debit: ParticipantAccount; amount: Decimal }) => Promise<void>;

/**
 * The caller's own bookkeeping, written in the same transaction as the ledger step (a transfer's record
 * moving to RESERVED or COMMITTED), so the two can never disagree. Runs whenever the step's outcome
 * holds, also on a repeat, and must itself be idempotent.
 */
export type Alongside = (manager: EntityManager) => Promise<void>;

export interface ReserveOptions {
  guard?: ReserveGuard;
  /** Accounts the guard reads, locked with the movement's own. */
  extraLocks?: number[];
  alongside?: Alongside;
}

/**
 * The double-entry ledger. A movement is reserved (the debit account's reservedValue rises), then
 * committed (values move, the reservation is consumed) or released (the reservation is voided).
 * Each step writes its journal rows and account balances in one transaction, under row locks on the
 * accounts it reads, and is idempotent: repeating it after it took effect changes nothing.
 */
export class Ledger {
  constructor(private readonly db: Database) {}

  reserve(movement: Movement, options: ReserveOptions = {}): Promise<LedgerTransfer> {
    return this.db.transaction(async (manager) => {
      const reserved = await reserveIn(manager, movement, options);
      await options.alongside?.(manager);
      return reserved;
    });
  }

  commit(transferId: string, alongside?: Alongside): Promise<LedgerTransfer> {
    return this.settle(transferId, 'COMMITTED', alongside);
  }

  release(transferId: string, alongside?: Alongside): Promise<LedgerTransfer> {
    return this.settle(transferId, 'ABORTED', alongside);
  }

  /** Reserve and commit in one transaction, for movements with nothing to wait for (funds in). */
  post(movement: Movement, guard?: ReserveGuard): Promise<LedgerTransfer> {
    return this.db.transaction(async (manager) => {
      const reserved = await reserveIn(manager, movement, { guard });
      return reserved.state === 'RESERVED' ? settleIn(manager, reserved, 'COMMITTED') : reserved;
    });
  }

  private async settle(transferId: string, outcome: 'COMMITTED' | 'ABORTED', alongside?: Alongside): Promise<LedgerTransfer> {
    // Read outside the transaction which accounts to lock: no read may precede the lock inside it.
    const found = await this.db.read((manager) => manager.findOneBy(LedgerTransfer, { transferId }));
    if (!found) throw new HubError('transferIdNotFound', `No reservation for transfer ${transferId}`);
    return this.db.transaction(async (manager) => {
      const settled = await settleIn(manager, found, outcome);
      await alongside?.(manager);
      return settled;
    });
  }
}

/** Reserves a movement inside the caller's transaction; repeating it with the same details changes nothing. */
async function reserveIn(manager: EntityManager, movement: Movement, { guard, extraLocks = [] }: ReserveOptions): Promise<LedgerTransfer> {
  const accounts = await lockAccounts(manager, [movement.debitAccountId, movement.creditAccountId, ...extraLocks]);
  const existing = await manager.findOneBy(LedgerTransfer, { transferId: movement.transferId });
  if (existing) return sameMovementOrFail(existing, movement);
  const debit = accounts.get(movement.debitAccountId)!;
  const amount = new Decimal(movement.amount);
  if (guard) await guard({ manager, debit, amount });
  const now = new Date();
  const transfer = manager.create(LedgerTransfer, {
    ...movement,
    amount: formatAmount(amount),
    externalReference: movement.externalReference ?? null,
    reason: movement.reason ?? null,
    state: 'RESERVED',
    createdDate: now,
    completedDate: null,
  });
  await manager.insert(LedgerTransfer, transfer);
  await journal(manager, accounts, transfer.transferId, 'RESERVE', [{ account: debit, reserved: amount }], now);
  return transfer;
}

/** Commits or releases a reservation inside the caller's transaction; repeating the same outcome changes nothing. */
async function settleIn(manager: EntityManager, found: LedgerTransfer, outcome: 'COMMITTED' | 'ABORTED'): Promise<LedgerTransfer> {
  const { transferId } = found;
  const accounts = await lockAccounts(manager, [found.debitAccountId, found.creditAccountId]);
  // Re-read under the lock: a concurrent commit or release may have finished meanwhile.
  const transfer = (await manager.findOneBy(LedgerTransfer, { transferId }))!;
  if (transfer.state === outcome) return transfer;
  if (transfer.state !== 'RESERVED') {
    throw new HubError('clientError', `Transfer ${transferId} is already ${transfer.state}, cannot make it ${outcome}`);
  }
  const amount = new Decimal(transfer.amount);
  const debit = accounts.get(transfer.debitAccountId)!;
  const credit = accounts.get(transfer.creditAccountId)!;
  const now = new Date();
  if (outcome === 'COMMITTED') {
    await journal(
      manager,
      accounts,
      transferId,
      'COMMIT',
      [
        { account: debit, posted: amount, reserved: amount.negated() },
        { account: credit, posted: amount.negated() },
      ],
      now,
    );
  } else {
    await journal(manager, accounts, transferId, 'RELEASE', [{ account: debit, reserved: amount.negated() }], now);
  }
  await manager.update(LedgerTransfer, { transferId }, { state: outcome, completedDate: now });
  return { ...transfer, state: outcome, completedDate: now };
}

/**
 * Takes the accounts' row locks before anything is read. The lock is a write (an UPDATE that changes
 * nothing), which works the same on both databases: InnoDB locks the matched rows in key order (no
 * deadlock between two movements over the same accounts), and SQLite takes its write lock up front,
 * waiting through the busy timeout rather than failing on a stale read snapshot.
 */
async function lockAccounts(manager: EntityManager, ids: number[]): Promise<Map<number, ParticipantAccount>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  await manager.query(`UPDATE participant_account SET id = id WHERE id IN (${unique.map(() => '?').join(', ')})`, unique);
  const rows = await manager.findBy(ParticipantAccount, { id: In(unique) });
  if (rows.length !== unique.length) throw new HubError('idNotFound', `Unknown ledger account among ${unique.join(', ')}`);
  return new Map(rows.map((row) => [row.id, row]));
}

interface Change {
  account: ParticipantAccount;
  posted?: Decimal;
  reserved?: Decimal;
}

async function journal(
  manager: EntityManager,
  accounts: Map<number, ParticipantAccount>,
  transferId: string,
  phase: string,
  changes: Change[],
  now: Date,
): Promise<void> {
  for (const { account, posted = new Decimal(0), reserved = new Decimal(0) } of changes) {
    await manager.insert(JournalEntry, {
      transferId,
      accountId: account.id,
      phase,
      postedAmount: formatAmount(posted),
      reservedAmount: formatAmount(reserved),
      createdDate: now,
    });
    const value = formatAmount(posted.plus(account.value));
    const reservedValue = formatAmount(reserved.plus(account.reservedValue));
    await manager.update(ParticipantAccount, { id: account.id }, { value, reservedValue, changedDate: now });
    accounts.set(account.id, { ...account, value, reservedValue, changedDate: now });
  }
}

function sameMovementOrFail(existing: LedgerTransfer, movement: Movement): LedgerTransfer {
  const same =
    existing.kind === movement.kind &&
    existing.debitAccountId === movement.debitAccountId &&
    existing.creditAccountId === movement.creditAccountId &&
    existing.currency === movement.currency &&
    new Decimal(existing.amount).equals(movement.amount);
  if (!same) throw new HubError('modifiedRequest', `Transfer ${movement.transferId} already exists with different details`);
  return existing;
}
