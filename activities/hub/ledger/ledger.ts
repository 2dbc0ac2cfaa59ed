import { EntityManager, In } from 'typeorm';
import { chunks, insertRows } from '../db/batches';
import type { Database } from '../db/database';
import { JournalEntry, LedgerTransfer, ParticipantAccount, ParticipantLimit, SettlementModel } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import { HubError } from '../../shared/platform/hubError';
import { lapsed } from '../../shared/contracts/expiry';
import {
  alarmCrossed,
  exposure,
  isCommitMovement,
  movementRule,
  NET_DEBIT_CAP,
  paymentRefusal,
  settleGross,
  withdrawalRefusal,
  type Change,
  type GrossSettlement,
} from './rules';

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
  /**
   * When the reservation lapses (a transfer's expiration): a commit the ledger handles at or after it releases the
   * reservation instead (TigerBeetle's `pending_transfer_expired`), judged by the step's clock under the accounts'
   * locks, so no delay before the step (a paused worker, a lock wait) lets a commit slip past it.
   */
  expiresAt?: Date;
}

/**
 * The caller's own bookkeeping, written in the same transaction as the ledger step (a transfer's record
 * moving to RESERVED or COMMITTED), so the two can never disagree. Runs whenever the step's outcome
 * holds, also on a repeat, and must itself be idempotent.
 */
export type Alongside<Outcome = void> = (manager: EntityManager, outcome: Outcome) => Promise<void>;

export interface ReserveOptions<Outcome = void> {
  alongside?: Alongside<Outcome>;
}

/** How one movement of a batch fared: reserved (now, or by an earlier attempt of the step), or refused. */
export type Reservation = { transferId: string; reserved: LedgerTransfer } | { transferId: string; refused: HubError };

export type Outcome = 'COMMITTED' | 'ABORTED';

/** The kind of a payment between two participants (a transfer, a bulk's item): what settlement windows hold. */
export const PAYMENT_KIND = 'TRANSFER';

/** What to do with one reservation of a batch: commit it (post) or release it (void). */
export interface Resolution {
  transferId: string;
  outcome: Outcome;
}

/**
 * What settlement decides about the payments the ledger commits, handed to the ledger (settlement/ledgerTerms.ts):
 * the ledger records and applies these terms, it does not hold them.
 */
export interface SettlementTerms {
  /**
   * The open settlement window, read inside the commit's transaction after the accounts' locks, so the committed
   * payments are put in it (it may hold the window against a close until the commit ends).
   */
  openWindowIdIn(manager: EntityManager): Promise<number>;
  /** The model that settles a currency's payments now, among the active models, and whether it settles each gross as it commits. */
  paymentModelOf(models: SettlementModel[], currency: string): { model: SettlementModel; gross: boolean } | undefined;
}

/** A payer's reservation took its exposure up past its Net Debit Cap's alarm threshold (rules.alarmCrossed). */
export interface AlarmCrossing {
  participantId: number;
  currency: string;
  /** The exposure after the reservation. */
  position: string;
  netDebitCap: string;
}

/** An operator set a position's Net Debit Cap (Limits.adjust). */
export interface LimitAdjustment {
  participantId: number;
  currency: string;
  netDebitCap: string;
}

/**
 * Who acts on what the ledger decided (the participant's and the operator's notices), handed in by the hub's wiring
 * (notifications/ledgerNotices.ts). Each is called inside the step's own transaction, so what it writes commits or
 * rolls back with the step: told once per decision, never for a step that did not happen.
 */
export interface LedgerFollowers {
  alarmCrossed(manager: EntityManager, crossing: AlarmCrossing): Promise<void>;
  limitAdjusted(manager: EntityManager, adjustment: LimitAdjustment): Promise<void>;
}

/**
 * The double-entry ledger. A movement is reserved (the debit account's reservedValue rises), then
 * committed (values move, the reservation is consumed) or released (the reservation is voided): TigerBeetle's
 * pending → post | void. Every reservation answers to the money rules (rules.ts) that its accounts call for.
 * Each step writes its journal rows and account balances in one transaction, under row locks on the
 * accounts it reads, and is idempotent: repeating it after it took effect changes nothing. A step may
 * carry many movements (a bulk transfer's items): one transaction, the accounts locked once.
 */
export class Ledger {
  constructor(
    private readonly db: Database,
    private readonly terms: SettlementTerms,
    private readonly followers: LedgerFollowers,
  ) {}

  async reserve(movement: Movement, options: ReserveOptions = {}): Promise<LedgerTransfer> {
    const companions = await this.companionsOf([movement]);
    return this.db.transaction(async (manager) => {
      const [reservation] = await reserveIn(manager, [movement], companions, this.followers);
      if ('refused' in reservation) throw reservation.refused;
      await options.alongside?.(manager);
      return reservation.reserved;
    });
  }

  /**
   * Reserves the movements in their order, in one transaction: one a money rule refuses (or that conflicts with an
   * existing movement) is left out and the others go on. A movement an earlier attempt reserved is not reserved again.
   */
  async reserveEach(movements: Movement[], options: ReserveOptions<Reservation[]> = {}): Promise<Reservation[]> {
    const companions = await this.companionsOf(movements);
    return this.db.transaction(async (manager) => {
      const reservations = await reserveIn(manager, movements, companions, this.followers);
      await options.alongside?.(manager, reservations);
      return reservations;
    });
  }

  /**
   * Commits the reservation; one the step handles at or after its expiry is refused (3303) and nothing changes,
   * judged under the accounts' locks as resolveEach judges it, so no delay before the step lets it commit late.
   */
  commit(transferId: string, alongside?: Alongside): Promise<LedgerTransfer> {
    return this.resolve(transferId, 'COMMITTED', alongside);
  }

  release(transferId: string, alongside?: Alongside): Promise<LedgerTransfer> {
    return this.resolve(transferId, 'ABORTED', alongside);
  }

  /**
   * Commits or releases each reservation, in one transaction. One that is no longer RESERVED is left as it is
   * (a repeat, or the sweep released it meanwhile), one asked to commit after its expiration is released: the
   * movements come back in the state the ledger holds.
   */
  async resolveEach(resolutions: Resolution[], alongside?: Alongside<LedgerTransfer[]>): Promise<LedgerTransfer[]> {
    const found = await this.db.read((manager) =>
      transfersById(
        manager,
        resolutions.map((r) => r.transferId),
      ),
    );
    const settlements = await this.settlementsOf([...found.values()]);
    return this.db.transaction(async (manager) => {
      const resolved = await resolveIn(manager, this.terms, [...found.values()], resolutions, settlements);
      await alongside?.(manager, resolved);
      return resolved;
    });
  }

  /** Reserve and commit in one transaction, for movements with nothing to wait for (funds in). */
  async post(movement: Movement): Promise<LedgerTransfer> {
    return (await this.postEach([movement]))[0];
  }

  /**
   * Reserves and commits the movements in one transaction, with the caller's bookkeeping (`alongside`) in it too: all
   * of them or none (a refused one throws). One an earlier attempt posted is answered as it stands, not posted again.
   */
  async postEach(movements: Movement[], alongside?: Alongside<LedgerTransfer[]>): Promise<LedgerTransfer[]> {
    const companions = await this.companionsOf(movements);
    const settlements = await this.settlementsOf(movements);
    return this.db.transaction(async (manager) => {
      const reserved = (await reserveIn(manager, movements, companions, this.followers)).map((reservation) => {
        if ('refused' in reservation) throw reservation.refused;
        return reservation.reserved;
      });
      const pending = reserved.filter((transfer) => transfer.state === 'RESERVED');
      const commits = pending.map(({ transferId }) => ({ transferId, outcome: 'COMMITTED' as const }));
      const committed = new Map((await resolveIn(manager, this.terms, pending, commits, settlements)).map((transfer) => [transfer.transferId, transfer]));
      const posted = reserved.map((transfer) => committed.get(transfer.transferId) ?? transfer);
      await alongside?.(manager, posted);
      return posted;
    });
  }

  /**
   * How each payment among `found` (those still to commit) is settled as it commits, by its currency's settlement
   * model now (SettlementTerms.paymentModelOf): read before the step's transaction as companionsOf reads, and recorded on the
   * payment in that transaction, so the record is what the step did, whatever an operator changes afterwards.
   */
  private settlementsOf(found: Array<Movement | LedgerTransfer>): Promise<Map<string, PaymentSettlement>> {
    const payments = found.filter((transfer) => transfer.kind === PAYMENT_KIND && (!('state' in transfer) || transfer.state === 'RESERVED'));
    if (payments.length === 0) return Promise.resolve(new Map<string, PaymentSettlement>());
    return this.db.read(async (manager) => {
      const models = await manager.findBy(SettlementModel, { isActive: true });
      const accounts = new AccountsRead(manager);
      const settled = new Map<string, PaymentSettlement>();
      for (const payment of payments) {
        const terms = this.terms.paymentModelOf(models, payment.currency);
        settled.set(payment.transferId, {
          settlementModelId: terms?.model.settlementModelId ?? null,
          gross: terms?.gross ? await grossSettlementOf(accounts, payment, terms.model) : undefined,
        });
      }
      return settled;
    });
  }

  /**
   * The account each movement's rule reads beside its debit account (rulesOf), by debit account: read before the
   * step's transaction, since what an account is never changes and no read may precede the locks inside it.
   */
  private companionsOf(movements: Movement[]): Promise<Map<number, number>> {
    return this.db.read(async (manager) => {
      const accounts = await manager.findBy(ParticipantAccount, { id: In([...new Set(movements.flatMap((m) => [m.debitAccountId, m.creditAccountId]))]) });
      const byId = new Map(accounts.map((account) => [account.id, account]));
      const companions = new Map<number, number>();
      for (const movement of movements) {
        const [debit, credit] = [byId.get(movement.debitAccountId), byId.get(movement.creditAccountId)];
        const rule = debit && credit && movementRule(movement.kind, debit.ledgerAccountType, credit.ledgerAccountType);
        if (!rule || rule === 'none' || companions.has(debit.id)) continue;
        const companion = await manager.findOneBy(ParticipantAccount, {
          participantId: debit.participantId,
          currency: debit.currency,
          ledgerAccountType: COMPANION_OF[rule],
        });
        if (!companion) throw new Error(`account ${debit.id} has no ${COMPANION_OF[rule]} account beside it, which its rule reads`);
        companions.set(debit.id, companion.id);
      }
      return companions;
    });
  }

  private async resolve(transferId: string, outcome: Outcome, alongside?: Alongside): Promise<LedgerTransfer> {
    // Read outside the transaction which accounts to lock: no read may precede the lock inside it.
    const found = await this.db.read((manager) => manager.findOneBy(LedgerTransfer, { transferId }));
    if (!found) throw new HubError('transferIdNotFound', `No reservation for transfer ${transferId}`);
    const settlements = outcome === 'COMMITTED' ? await this.settlementsOf([found]) : undefined;
    return this.db.transaction(async (manager) => {
      const [resolved] = await resolveIn(manager, this.terms, [found], [{ transferId, outcome }], settlements);
      // Released at or after its expiry, by the step's own clock: thrown, so the transaction leaves the
      // reservation to its owner's abort.
      const { expiresAt, completedDate } = resolved;
      if (outcome === 'COMMITTED' && resolved.state === 'ABORTED' && expiresAt && completedDate && lapsed(expiresAt, completedDate)) {
        throw new HubError('transferExpired', `transfer ${transferId} expired at ${expiresAt.toISOString()} before it could commit`);
      }
      if (resolved.state !== outcome) {
        throw new HubError('clientError', `Transfer ${transferId} is already ${resolved.state}, cannot make it ${outcome}`);
      }
      await alongside?.(manager);
      return resolved;
    });
  }
}

/** The account a rule reads beside the debit account, of the same participant and currency. */
const COMPANION_OF = { payment: 'SETTLEMENT', withdrawal: 'POSITION' } as const;

/**
 * The refusal of a movement by its rule, judged on the balances as the step has moved them so far (`accounts`, locked),
 * so each movement of a batch is checked after the ones before it. `caps` keeps each payer's Net Debit Cap for the
 * step: a bulk's 1,000 items read it once.
 */
async function refusalOf(
  manager: EntityManager,
  movement: Movement,
  accounts: ReadonlyMap<number, ParticipantAccount>,
  companions: ReadonlyMap<number, number>,
  caps: Map<number, ParticipantLimit | null>,
): Promise<HubError | undefined> {
  const [debit, credit] = [accounts.get(movement.debitAccountId)!, accounts.get(movement.creditAccountId)!];
  const rule = movementRule(movement.kind, debit.ledgerAccountType, credit.ledgerAccountType);
  if (!rule) {
    return new HubError(
      'internalServerError',
      `the hub makes no ${movement.kind} movement from a ${debit.ledgerAccountType} account to a ${credit.ledgerAccountType} account`,
    );
  }
  if (rule === 'none') return undefined;
  const companion = accounts.get(companions.get(debit.id)!)!;
  let refusal;
  if (rule === 'withdrawal') {
    refusal = withdrawalRefusal({ position: companion, settlement: debit, amount: movement.amount });
  } else {
    if (!caps.has(debit.id)) caps.set(debit.id, await manager.findOneBy(ParticipantLimit, { accountId: debit.id, type: NET_DEBIT_CAP }));
    refusal = paymentRefusal({ position: debit, settlement: companion, netDebitCap: caps.get(debit.id)?.value, amount: movement.amount });
  }
  return refusal && new HubError(refusal.error, refusal.description);
}

/**
 * Reserves movements in order inside the caller's transaction, each checked by its money rule; repeating one with the
 * same details changes nothing. The rules' companion accounts are locked with the movements' own.
 */
async function reserveIn(
  manager: EntityManager,
  movements: Movement[],
  companions: ReadonlyMap<number, number>,
  followers: LedgerFollowers,
): Promise<Reservation[]> {
  const accounts = await lockAccounts(manager, [...movements.flatMap((m) => [m.debitAccountId, m.creditAccountId]), ...companions.values()]);
  const existing = await transfersById(
    manager,
    movements.map((m) => m.transferId),
  );
  const postings = new Postings(accounts);
  const caps = new Map<number, ParticipantLimit | null>();
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
    const refused = await refusalOf(manager, movement, accounts, companions, caps);
    if (refused) {
      reservations.push({ transferId, refused });
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
      expiresAt: movement.expiresAt ?? null,
    });
    created.push(transfer);
    existing.set(transferId, transfer);
    const before = accounts.get(movement.debitAccountId)!;
    postings.add(transferId, 'RESERVE', [{ accountId: movement.debitAccountId, reserved: amount }]);
    reservations.push({ transferId, reserved: transfer });
    const cap = caps.get(movement.debitAccountId);
    if (cap) {
      const after = exposure(accounts.get(movement.debitAccountId)!);
      if (alarmCrossed(exposure(before), after, cap.value, cap.alarmPercentage)) {
        await followers.alarmCrossed(manager, {
          participantId: before.participantId,
          currency: before.currency,
          position: formatAmount(after),
          netDebitCap: cap.value,
        });
      }
    }
  }
  await insertRows(manager, LedgerTransfer, created);
  await postings.write(manager);
  return reservations;
}

/**
 * Commits or releases reservations inside the caller's transaction; one no longer RESERVED is returned as it is.
 * `found` names the accounts to lock, read before the transaction (MySQL's snapshot starts at the first read).
 */
async function resolveIn(
  manager: EntityManager,
  terms: SettlementTerms,
  found: LedgerTransfer[],
  resolutions: Resolution[],
  settlements: ReadonlyMap<string, PaymentSettlement> = new Map(),
): Promise<LedgerTransfer[]> {
  const accounts = await lockAccounts(manager, [
    ...found.flatMap((t) => [t.debitAccountId, t.creditAccountId]),
    ...[...settlements.values()].flatMap(({ gross }) => (gross ? [gross.payerSettlement, gross.payeeSettlement] : [])),
  ]);
  // Re-read under the lock: a concurrent commit or release may have finished meanwhile.
  const current = await transfersById(
    manager,
    resolutions.map((r) => r.transferId),
  );
  const postings = new Postings(accounts);
  const moved: Record<Outcome, string[]> = { COMMITTED: [], ABORTED: [] };
  const resolved: LedgerTransfer[] = [];
  for (const { transferId, outcome: asked } of resolutions) {
    const transfer = current.get(transferId);
    if (!transfer) throw new HubError('transferIdNotFound', `No reservation for transfer ${transferId}`);
    if (transfer.state !== 'RESERVED') {
      resolved.push(transfer);
      continue;
    }
    const late = transfer.expiresAt !== null && lapsed(transfer.expiresAt, postings.now);
    const outcome = asked === 'COMMITTED' && late ? 'ABORTED' : asked;
    const amount = new Decimal(transfer.amount);
    if (outcome === 'COMMITTED') {
      postings.add(transferId, 'COMMIT', [
        { accountId: transfer.debitAccountId, posted: amount, reserved: amount.negated() },
        { accountId: transfer.creditAccountId, posted: amount.negated() },
      ]);
      const gross = settlements.get(transferId)?.gross;
      for (const { phase, changes } of gross ? settleGross(transfer, amount, gross) : []) postings.add(transferId, phase, changes);
    } else {
      postings.add(transferId, 'RELEASE', [{ accountId: transfer.debitAccountId, reserved: amount.negated() }]);
    }
    const done = { ...transfer, state: outcome, completedDate: postings.now };
    current.set(transferId, done);
    moved[outcome].push(transferId);
    resolved.push(done);
  }
  const stamps = await stampsOf(
    manager,
    terms,
    moved.COMMITTED.map((transferId) => current.get(transferId)!),
    settlements,
  );
  for (const [outcome, ids] of Object.entries(moved) as Array<[Outcome, string[]]>) {
    // One UPDATE per stamp (payments share one per model), none per movement.
    const groups = new Map<Stamp | undefined, string[]>();
    for (const transferId of ids) {
      const stamp = stamps.get(transferId);
      if (!groups.has(stamp)) groups.set(stamp, []);
      groups.get(stamp)!.push(transferId);
    }
    for (const [stamp, stamped] of groups) {
      for (const chunk of chunks(stamped)) {
        await manager.update(LedgerTransfer, { transferId: In(chunk), state: 'RESERVED' }, { state: outcome, completedDate: postings.now, ...stamp });
      }
    }
  }
  for (const transfer of resolved) Object.assign(transfer, stamps.get(transfer.transferId));
  await postings.write(manager);
  return resolved;
}

/** What a committed payment is marked with as it commits. */
type Stamp = Pick<LedgerTransfer, 'settlementWindowId' | 'settlementModelId'>;

/**
 * Each committed payment's stamp, one object per model: the settlement window open now, which it belongs to, and the
 * settlement model that settled it in this step (gross) or leaves it to its window's net settlement, null where no
 * model settles its currency. The ledger's other movements carry none.
 */
async function stampsOf(
  manager: EntityManager,
  terms: SettlementTerms,
  committed: LedgerTransfer[],
  settlements: ReadonlyMap<string, PaymentSettlement>,
): Promise<Map<string, Stamp>> {
  const payments = committed.filter((transfer) => transfer.kind === PAYMENT_KIND);
  if (payments.length === 0) return new Map();
  const settlementWindowId = await terms.openWindowIdIn(manager);
  const byModel = new Map<number | null, Stamp>();
  const stamps = new Map<string, Stamp>();
  for (const { transferId } of payments) {
    const settlementModelId = settlements.get(transferId)?.settlementModelId ?? null;
    if (!byModel.has(settlementModelId)) byModel.set(settlementModelId, { settlementWindowId, settlementModelId });
    stamps.set(transferId, byModel.get(settlementModelId)!);
  }
  return stamps;
}

/** How a payment is settled as it commits (Ledger.settlementsOf). */
interface PaymentSettlement {
  /** Its currency's settlement model as it commits, recorded on it; null where no model settles the currency. */
  settlementModelId: number | null;
  /** Where that model is gross: the accounts that settle it in the commit's own step. */
  gross?: GrossSettlement;
}

/**
 * The accounts a gross model settles a payment between as it commits: the payer's and the payee's accounts of the
 * model's settlement account type. Both movements must be the hub's (rules.ts's MOVEMENT_TYPES): a model that names
 * another account type stops the commit with an error, retried until an operator corrects the model, rather than
 * moving money a way the hub does not know.
 */
async function grossSettlementOf(
  accounts: AccountsRead,
  payment: Pick<LedgerTransfer, 'transferId' | 'kind' | 'debitAccountId' | 'creditAccountId'>,
  model: SettlementModel,
): Promise<GrossSettlement | undefined> {
  const [payerPosition, payeePosition] = [await accounts.byId(payment.debitAccountId), await accounts.byId(payment.creditAccountId)];
  // A payment the hub does not make is refused as it is reserved (refusalOf): nothing of it is settled.
  if (!movementRule(payment.kind, payerPosition.ledgerAccountType, payeePosition.ledgerAccountType)) return undefined;
  const [payer, payee] = [await accounts.beside(payerPosition, model.settlementAccountType), await accounts.beside(payeePosition, model.settlementAccountType)];
  const known =
    isCommitMovement('GROSS_SETTLEMENT', PAYMENT_KIND, payer.ledgerAccountType, payee.ledgerAccountType) &&
    (!model.autoPositionReset || isCommitMovement('POSITION_RESET', PAYMENT_KIND, payeePosition.ledgerAccountType, payerPosition.ledgerAccountType));
  if (!known) {
    throw new Error(
      `settlement model ${model.name} would settle payment ${payment.transferId} between ${model.settlementAccountType} accounts, which the hub does not do`,
    );
  }
  return { payerSettlement: payer.id, payeeSettlement: payee.id, resetPositions: model.autoPositionReset };
}

/** Accounts read once per step: by ID, and the account of a type beside one (its participant's, in its currency). */
class AccountsRead {
  private readonly read = new Map<string, Promise<ParticipantAccount | null>>();

  constructor(private readonly manager: EntityManager) {}

  async byId(id: number): Promise<ParticipantAccount> {
    const account = await this.once(`${id}`, { id });
    if (!account) throw new Error(`no ledger account ${id}`);
    return account;
  }

  async beside(account: ParticipantAccount, ledgerAccountType: string): Promise<ParticipantAccount> {
    const { participantId, currency } = account;
    const found = await this.once(`${participantId}/${currency}/${ledgerAccountType}`, { participantId, currency, ledgerAccountType });
    if (!found) throw new Error(`account ${account.id} has no ${ledgerAccountType} account beside it, which gross settlement moves`);
    return found;
  }

  private once(key: string, where: Partial<ParticipantAccount>): Promise<ParticipantAccount | null> {
    if (!this.read.has(key)) this.read.set(key, this.manager.findOneBy(ParticipantAccount, where));
    return this.read.get(key)!;
  }
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

/**
 * A step's journal rows and the balances they move. Balances move in memory as rows are added, so a rule
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
