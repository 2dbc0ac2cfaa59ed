import type { SettlementState } from '../db/settlementEntities';

/**
 * central-settlement's state machine, as plain functions. A settlement moves one step at a time, and only when every
 * one of its participants' accounts has taken that step: the settlement's state, not the account's, decides which
 * step an account may take next.
 */

/** The state each account may move to while the settlement is in a state; none once it is SETTLED or ABORTED. */
const NEXT_FOR_ACCOUNTS: Partial<Record<SettlementState, SettlementState>> = {
  PENDING_SETTLEMENT: 'PS_TRANSFERS_RECORDED',
  PS_TRANSFERS_RECORDED: 'PS_TRANSFERS_RESERVED',
  PS_TRANSFERS_RESERVED: 'PS_TRANSFERS_COMMITTED',
  PS_TRANSFERS_COMMITTED: 'SETTLED',
  SETTLING: 'SETTLED',
};

/**
 * What an account asked to be `requested` does: `transition` to the next state, `restate` (already there: only its
 * reason and reference are recorded again), or `refused` (a step skipped, back, or out of turn).
 */
export function accountChange(settlement: SettlementState, current: SettlementState, requested: SettlementState): 'transition' | 'restate' | 'refused' {
  if (requested === current) return 'restate';
  return NEXT_FOR_ACCOUNTS[settlement] === requested && current !== 'ABORTED' ? 'transition' : 'refused';
}

/** The settlement's state once its accounts are in `accounts`: it moves on when none is left behind, one step at most. */
export function settlementStateAfter(settlement: SettlementState, accounts: SettlementState[]): SettlementState {
  const someAre = (state: SettlementState) => accounts.includes(state);
  switch (settlement) {
    case 'PENDING_SETTLEMENT':
      return someAre('PENDING_SETTLEMENT') ? settlement : 'PS_TRANSFERS_RECORDED';
    case 'PS_TRANSFERS_RECORDED':
      return someAre('PS_TRANSFERS_RECORDED') ? settlement : 'PS_TRANSFERS_RESERVED';
    case 'PS_TRANSFERS_RESERVED':
      return someAre('PS_TRANSFERS_RESERVED') ? settlement : 'PS_TRANSFERS_COMMITTED';
    case 'PS_TRANSFERS_COMMITTED':
    case 'SETTLING':
      if (!someAre('PS_TRANSFERS_COMMITTED')) return 'SETTLED';
      return someAre('SETTLED') ? 'SETTLING' : settlement;
    default:
      return settlement;
  }
}

/**
 * Why a settlement cannot be aborted, or undefined: once any of its transfers is committed, money has moved at the
 * settlement bank and an abort would undo positions without undoing it.
 */
export function abortProblem(settlementId: number, settlement: SettlementState, accounts: SettlementState[]): string | undefined {
  if (settlement === 'PS_TRANSFERS_COMMITTED' || settlement === 'SETTLING' || settlement === 'SETTLED') {
    return `State change is not allowed for settlement '${settlementId}' in state '${settlement}'`;
  }
  if (accounts.includes('PS_TRANSFERS_COMMITTED')) {
    return `At least one settlement transfer is committed for settlement '${settlementId}'. Aborting is not allowed.`;
  }
  return undefined;
}
