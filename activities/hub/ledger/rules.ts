import { Decimal, type DecimalValue } from '../../shared/contracts/money';
import { formatAmount } from '../db/money';

/**
 * The money rules of Document 3 and central-ledger, as plain functions over balances, so that each boundary has a
 * unit test and no caller can hold a rule of its own: the ledger (ledger.ts) applies them under its locks.
 *
 * Balances have Mojaloop's sign. A POSITION's value is what its participant owes the scheme (a payer's rises as it
 * pays); a SETTLEMENT account's value falls as its participant deposits, so what it has deposited is its value negated.
 * A reservation (reservedValue) counts as if it had moved: a pending payment uses cover, a pending withdrawal spends it.
 */
export interface Balance {
  value: DecimalValue;
  reservedValue: DecimalValue;
}

/** The limit the hub holds on a position, and the only one Document 3 lets an operator set: its Net Debit Cap. */
export const NET_DEBIT_CAP = 'NET_DEBIT_CAP';

/** Why a rule refuses a movement: the FSPIOP error (Document 2's 4001 and 4200) and what the numbers were. */
export interface Refusal {
  error: 'payerInsufficientLiquidity' | 'payerLimitError';
  description: string;
}

/** What a position owes with its reservations and `amount` more: the figure the Net Debit Cap and the cover bound. */
export function exposure(position: Balance, amount: DecimalValue = 0): Decimal {
  return new Decimal(position.value).plus(position.reservedValue).plus(amount);
}

/** What a participant has deposited to cover its position (its settlement balance negated), less withdrawals in progress. */
export function liquidityCover(settlement: Balance): Decimal {
  return new Decimal(settlement.value).plus(settlement.reservedValue).negated();
}

/**
 * central-ledger's position check of a payer's reservation: its exposure with the amount must stay within its
 * liquidity cover (4001) and within its Net Debit Cap (4200); equal to either is allowed. A position without a cap
 * set may not pay at all, as central-ledger refuses a payer with no limit.
 */
export function paymentRefusal(rule: {
  position: Balance;
  settlement: Balance;
  netDebitCap: DecimalValue | undefined;
  amount: DecimalValue;
}): Refusal | undefined {
  const after = exposure(rule.position, rule.amount);
  const cover = liquidityCover(rule.settlement);
  if (after.greaterThan(cover)) {
    return { error: 'payerInsufficientLiquidity', description: `position ${formatAmount(after)} would exceed liquidity cover ${formatAmount(cover)}` };
  }
  if (rule.netDebitCap === undefined || after.greaterThan(rule.netDebitCap)) {
    const cap = rule.netDebitCap === undefined ? '(none set)' : formatAmount(rule.netDebitCap);
    return { error: 'payerLimitError', description: `position ${formatAmount(after)} would exceed the Net Debit Cap ${cap}` };
  }
  return undefined;
}

/**
 * The funds-out rule: a participant may withdraw what it deposited less withdrawals in progress and less what covers
 * its position now (a position in credit, below zero, covers nothing and frees nothing).
 */
export function withdrawalRefusal(rule: { position: Balance; settlement: Balance; amount: DecimalValue }): Refusal | undefined {
  const available = liquidityCover(rule.settlement).minus(Decimal.max(0, exposure(rule.position)));
  if (new Decimal(rule.amount).greaterThan(available)) {
    return { error: 'payerInsufficientLiquidity', description: `Funds out of ${formatAmount(rule.amount)} exceeds the available ${formatAmount(available)}` };
  }
  return undefined;
}

/** The money rule a movement answers to as it is reserved: a payer's (paymentRefusal), a withdrawal's, or none. */
export type MovementRule = 'payment' | 'withdrawal' | 'none';

/**
 * A movement the hub makes: its kind, the ledger account types it debits and credits, and the rule it answers to.
 * `inCommitOf` marks those the ledger posts itself as it commits a movement of that kind (a gross payment's
 * settlement), which no caller may ask for on their own.
 */
export interface MovementType {
  kind: string;
  debit: string;
  credit: string;
  rule: MovementRule;
  inCommitOf?: string;
}

/**
 * Every movement the hub makes, and no other: the ledger refuses one whose kind and accounts are not here, so money
 * can only move the ways these rows name, each checked by its rule. Funds in, an initial position and a settlement's
 * resets are the operator's and the settlement's own authority, checked by no balance.
 */
export const MOVEMENT_TYPES: readonly MovementType[] = [
  // A transfer or a bulk's item: the payer's position to the payee's, within the payer's cover and Net Debit Cap.
  { kind: 'TRANSFER', debit: 'POSITION', credit: 'POSITION', rule: 'payment' },
  // Funds in lower the DFSP's settlement account against the hub's reconciliation account; funds out raise it.
  { kind: 'FUNDS_IN', debit: 'HUB_RECONCILIATION', credit: 'SETTLEMENT', rule: 'none' },
  { kind: 'FUNDS_OUT', debit: 'SETTLEMENT', credit: 'HUB_RECONCILIATION', rule: 'withdrawal' },
  // An opening position above zero (owed) or below it (in credit), against the hub's multilateral account.
  { kind: 'INITIAL_POSITION', debit: 'POSITION', credit: 'HUB_MULTILATERAL_SETTLEMENT', rule: 'none' },
  { kind: 'INITIAL_POSITION', debit: 'HUB_MULTILATERAL_SETTLEMENT', credit: 'POSITION', rule: 'none' },
  // A net settlement's reset of a net payer's position (it falls), and of a net receiver's (it rises).
  { kind: 'SETTLEMENT_NET', debit: 'HUB_MULTILATERAL_SETTLEMENT', credit: 'POSITION', rule: 'none' },
  { kind: 'SETTLEMENT_NET', debit: 'POSITION', credit: 'HUB_MULTILATERAL_SETTLEMENT', rule: 'none' },
  // What the settlement bank moved to finalise a net settlement, as its confirmation says (settlement/finalisation.ts):
  // a net payer's settlement account pays out, within its deposits as any withdrawal, and a net receiver's is paid in,
  // against the hub's reconciliation account.
  { kind: 'SETTLEMENT_FUNDS', debit: 'SETTLEMENT', credit: 'HUB_RECONCILIATION', rule: 'withdrawal' },
  { kind: 'SETTLEMENT_FUNDS', debit: 'HUB_RECONCILIATION', credit: 'SETTLEMENT', rule: 'none' },
  // A gross payment settled as it commits: the payer's settlement account to the payee's, and the payment back out
  // of both positions (autoPositionReset: the payee's position is debited, the payer's credited).
  { kind: 'GROSS_SETTLEMENT', debit: 'SETTLEMENT', credit: 'SETTLEMENT', rule: 'none', inCommitOf: 'TRANSFER' },
  { kind: 'POSITION_RESET', debit: 'POSITION', credit: 'POSITION', rule: 'none', inCommitOf: 'TRANSFER' },
];

/**
 * The rule a movement a caller asks for answers to, or undefined when the hub makes no such movement (the ledger
 * refuses it).
 */
export function movementRule(kind: string, debit: string, credit: string): MovementRule | undefined {
  return MOVEMENT_TYPES.find((type) => type.kind === kind && type.debit === debit && type.credit === credit && !type.inCommitOf)?.rule;
}

/** Whether the ledger posts this movement as it commits a movement of kind `of` (a gross payment's settlement). */
export function isCommitMovement(kind: string, of: string, debit: string, credit: string): boolean {
  return MOVEMENT_TYPES.some((type) => type.kind === kind && type.debit === debit && type.credit === credit && type.inCommitOf === of);
}

/** A committed payment between two POSITION accounts, as a settlement counts it. */
export interface Payment {
  debitAccountId: number;
  creditAccountId: number;
  amount: DecimalValue;
}

/** What one position account owes the others over a settlement's windows (above zero) or is owed (below), and over how many payments. */
export interface NetPosition {
  netAmount: Decimal;
  transferCount: number;
}

/**
 * Multilateral net settlement amounts (central-settlement's netAmount): each payer owes what it paid, each payee is
 * owed what it received, so a net payer's amount is positive, a net receiver's negative, and together they are zero.
 * Adds to `into`, so that a settlement's payments can be read and counted a page at a time.
 */
export function addToNetPositions(payments: Iterable<Payment>, into: Map<number, NetPosition> = new Map()): Map<number, NetPosition> {
  const add = (accountId: number, amount: Decimal) => {
    const held = into.get(accountId) ?? { netAmount: new Decimal(0), transferCount: 0 };
    into.set(accountId, { netAmount: held.netAmount.plus(amount), transferCount: held.transferCount + 1 });
  };
  for (const payment of payments) {
    const amount = new Decimal(payment.amount);
    add(payment.debitAccountId, amount);
    add(payment.creditAccountId, amount.negated());
  }
  return into;
}

/** Which account a movement debits, which it credits, and by how much. */
export interface Legs {
  debitAccountId: number;
  creditAccountId: number;
  amount: string;
}

/**
 * The reset of a position by its net settlement amount (addToNetPositions), against the hub's multilateral account:
 * it takes the amount back out of the position, so a net payer's falls (the hub's account is debited) and a net
 * receiver's rises (the position is debited), each to where it stood before the settlement's windows.
 */
export function netSettlementReset(netAmount: DecimalValue, positionAccountId: number, hubAccountId: number): Legs {
  const net = new Decimal(netAmount);
  const [debitAccountId, creditAccountId] = net.isPositive() ? [hubAccountId, positionAccountId] : [positionAccountId, hubAccountId];
  return { debitAccountId, creditAccountId, amount: formatAmount(net.abs()) };
}

/**
 * A participant's opening position, against the hub's multilateral account so positions still sum to zero: one above
 * zero is owed to the scheme (the position is debited, it rises), one below zero is in credit (the position is
 * credited); a zero opening moves nothing (undefined).
 */
export function openingPosition(initialPosition: DecimalValue, positionAccountId: number, hubAccountId: number): Legs | undefined {
  const opening = new Decimal(initialPosition);
  if (opening.isZero()) return undefined;
  const [debitAccountId, creditAccountId] = opening.isPositive() ? [positionAccountId, hubAccountId] : [hubAccountId, positionAccountId];
  return { debitAccountId, creditAccountId, amount: formatAmount(opening.abs()) };
}

/** How a movement changes one account: its posted value and its reservation (each zero where not given). */
export interface Change {
  accountId: number;
  posted?: Decimal;
  reserved?: Decimal;
}

/** The accounts a gross model settles a payment between as it commits, and whether it resets both positions. */
export interface GrossSettlement {
  payerSettlement: number;
  payeeSettlement: number;
  /** The model's autoPositionReset: the payment is taken out of both positions again. */
  resetPositions: boolean;
}

/**
 * Gross settlement in a payment's commit, as central-settlement's gross handler records it: the amount moves from the
 * payer's settlement account to the payee's (the payer's cover shrinks, the payee's grows) and, with autoPositionReset,
 * back out of both positions (MOVEMENT_TYPES' GROSS_SETTLEMENT and POSITION_RESET), so a gross payer's position never
 * stands in the way of its next payment. Each phase's changes sum to zero.
 */
export function settleGross(
  payment: { debitAccountId: number; creditAccountId: number },
  amount: DecimalValue,
  settled: GrossSettlement,
): Array<{ phase: 'GROSS_SETTLEMENT' | 'POSITION_RESET'; changes: Change[] }> {
  const moved = new Decimal(amount);
  const settlement = {
    phase: 'GROSS_SETTLEMENT' as const,
    changes: [
      { accountId: settled.payerSettlement, posted: moved },
      { accountId: settled.payeeSettlement, posted: moved.negated() },
    ],
  };
  if (!settled.resetPositions) return [settlement];
  const reset = {
    phase: 'POSITION_RESET' as const,
    changes: [
      { accountId: payment.debitAccountId, posted: moved.negated() },
      { accountId: payment.creditAccountId, posted: moved },
    ],
  };
  return [settlement, reset];
}

/**
 * The position at which a Net Debit Cap's alarm sounds: `alarmPercentage` per cent of the cap short of it (with the
 * default of 10, at 90% of the cap), where little headroom is left.
 */
export function alarmThreshold(netDebitCap: DecimalValue, alarmPercentage: DecimalValue): Decimal {
  return new Decimal(netDebitCap).times(new Decimal(100).minus(alarmPercentage)).dividedBy(100);
}

/**
 * Whether an exposure crossed the alarm threshold going up: below it before, at or above it after. Staying above is
 * no new crossing; falling below and rising again is one.
 */
export function alarmCrossed(before: DecimalValue, after: DecimalValue, netDebitCap: DecimalValue, alarmPercentage: DecimalValue): boolean {
  const threshold = alarmThreshold(netDebitCap, alarmPercentage);
  return new Decimal(before).lessThan(threshold) && new Decimal(after).greaterThanOrEqualTo(threshold);
}
