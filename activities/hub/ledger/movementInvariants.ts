import { addTo, minorUnits, textOf } from './minorUnits';

/**
 * The invariants that tie the accounts to the movements (ledger_transfer) rather than to their own journal: what the
 * transfers say each balance must be. A balance and its journal rows changed together still disagree with them.
 */
export const MOVEMENT_INVARIANTS = {
  positionsMatchTransfers:
    "every POSITION account's value (and the hub's multilateral account's) is the sum of its committed movements: payments, opening positions and net settlements' resets, less the payments a gross model with autoPositionReset settled as they committed",
  reservationsMatchOpenTransfers: "every account's reservedValue is the sum of the movements reserved on it and not yet decided: transfers' and funds outs'",
  settlementAccountsMatchFunds:
    "every SETTLEMENT account's value (and the hub's reconciliation account's) is the sum of its funds in and out and of the gross settlements of the payments its participant made and received",
} as const;

export type MovementInvariant = keyof typeof MOVEMENT_INVARIANTS;

/** A committed movement as the check reads it, raw. */
export interface CommittedMovement {
  kind: string;
  debitAccountId: number;
  creditAccountId: number;
  amount: string;
  /** The settlement model a payment committed under (null where none, and on every other kind). */
  settlementModelId: number | null;
}

/** A reservation not yet decided: its debit account holds it. */
export interface OpenMovement {
  debitAccountId: number;
  amount: string;
}

/** A gross settlement model's terms: which accounts it settles payments between as they commit, and whether it resets the positions. */
export interface GrossTerms {
  settlementModelId: number;
  settlementAccountType: string;
  autoPositionReset: boolean;
}

/** An account as these invariants read it: where it sits (to find the accounts beside it), and what it holds. */
export interface AccountHeld {
  id: number;
  participantId: number;
  currency: string;
  ledgerAccountType: string;
  value: string;
  reservedValue: string;
}

/** An account whose balance is not what its movements make it; amounts are decimal strings with 4 places. */
export interface MovementViolation {
  invariant: MovementInvariant;
  accountId: number;
  balance: 'value' | 'reservedValue';
  held: string;
  expected: string;
}

/** The accounts whose value the positions' invariant states; every other account's is a settlement account's. */
const POSITION_TYPES: readonly string[] = ['POSITION', 'HUB_MULTILATERAL_SETTLEMENT'];

/**
 * Adds to `into` what committed movements make each account's value: the debit account rises by the amount, the credit
 * account falls; a payment under a gross model moves as much from the payer's settlement account (of the model's type)
 * to the payee's, and with autoPositionReset out of both positions again (rules.settleGross, stated afresh here).
 * Adds, so a checkpoint's sums can be carried on with the movements since.
 */
export function addCommitted(
  into: Map<number, bigint>,
  movements: Iterable<CommittedMovement>,
  accounts: AccountHeld[],
  gross: ReadonlyMap<number, GrossTerms>,
): Map<number, bigint> {
  const byId = new Map(accounts.map((account) => [Number(account.id), account]));
  const byPlace = new Map(accounts.map((account) => [`${account.participantId}/${account.currency}/${account.ledgerAccountType}`, Number(account.id)]));
  const beside = (accountId: number, type: string) => {
    const account = byId.get(accountId);
    return account && byPlace.get(`${account.participantId}/${account.currency}/${type}`);
  };
  for (const movement of movements) {
    const [debit, credit] = [Number(movement.debitAccountId), Number(movement.creditAccountId)];
    const units = minorUnits(movement.amount) ?? 0n;
    addTo(into, debit, units);
    addTo(into, credit, -units);
    const terms = movement.settlementModelId === null ? undefined : gross.get(Number(movement.settlementModelId));
    if (!terms) continue;
    const [payer, payee] = [beside(debit, terms.settlementAccountType), beside(credit, terms.settlementAccountType)];
    // An account missing beside a payment leaves its sum short, so the balance it moved is reported.
    if (payer !== undefined) addTo(into, payer, units);
    if (payee !== undefined) addTo(into, payee, -units);
    if (terms.autoPositionReset) {
      addTo(into, debit, -units);
      addTo(into, credit, units);
    }
  }
  return into;
}

/** Each account's reservations: the amounts of the movements reserved on it and not yet decided. */
export function reservedSums(open: Iterable<OpenMovement>): Map<number, bigint> {
  const sums = new Map<number, bigint>();
  for (const movement of open) addTo(sums, Number(movement.debitAccountId), minorUnits(movement.amount) ?? 0n);
  return sums;
}

/**
 * The accounts whose balances are not what their movements make them: each value against its committed movements
 * (`moved`, addCommitted), each reservedValue against its open ones (`reserved`, reservedSums). A balance that is no
 * amount is the amountsExact invariant's to report, not these.
 */
export function movementViolations(accounts: AccountHeld[], moved: ReadonlyMap<number, bigint>, reserved: ReadonlyMap<number, bigint>): MovementViolation[] {
  const violations: MovementViolation[] = [];
  for (const account of accounts) {
    const accountId = Number(account.id);
    const valueInvariant = POSITION_TYPES.includes(account.ledgerAccountType) ? 'positionsMatchTransfers' : 'settlementAccountsMatchFunds';
    const checks = [
      { invariant: valueInvariant, balance: 'value', expected: moved.get(accountId) ?? 0n },
      { invariant: 'reservationsMatchOpenTransfers', balance: 'reservedValue', expected: reserved.get(accountId) ?? 0n },
    ] as const;
    for (const { invariant, balance, expected } of checks) {
      const held = minorUnits(account[balance]);
      if (held !== undefined && held !== expected) violations.push({ invariant, accountId, balance, held: textOf(held), expected: textOf(expected) });
    }
  }
  return violations;
}
