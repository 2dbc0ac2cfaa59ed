import type { Database } from '../../db/database';
import type { SettlementState } from '../../db/settlementEntities';
import { initiationTotals, payOrReceive, type CurrencyTotal } from './reportMoney';
import { settlementScope } from './settlementScope';

/** One participant account's line: its net amount over the settlement's windows, as the amount it pays or receives. */
export interface InitiationLine {
  participant: string;
  participantId: number;
  accountId: number;
  currency: string;
  netSettlementAmount: string;
  toPay: string;
  toReceive: string;
  transferCount: number;
  state: SettlementState;
}

export interface SettlementInitiation {
  settlementId: number;
  state: SettlementState;
  createdDate: string;
  settlementWindows: Array<{ id: number; state: string; createdDate: string; changedDate: string }>;
  lines: InitiationLine[];
  /** Per currency: what is paid equals what is received, so `net` is zero. */
  totals: CurrencyTotal[];
}

/**
 * The settlement initiation report (Mojaloop's reporting /settlementInitiation): what each participant account pays
 * or receives to settle the settlement's windows, for the settlement bank, with the totals that balance.
 */
export function settlementInitiation(db: Database, settlementId: number): Promise<SettlementInitiation> {
  return db.read(async (manager) => {
    const { settlement, windows, accounts, names } = await settlementScope(manager, settlementId);
    const lines = accounts.map((account) => ({
      participant: names.get(account.participantId) ?? String(account.participantId),
      participantId: account.participantId,
      accountId: account.accountId,
      currency: account.currency,
      netSettlementAmount: account.netAmount,
      ...payOrReceive(account.netAmount),
      transferCount: account.transferCount,
      state: account.state,
    }));
    return {
      settlementId,
      state: settlement.state,
      createdDate: settlement.createdDate.toISOString(),
      settlementWindows: windows.map((window) => ({
        id: window.settlementWindowId,
        state: window.state,
        createdDate: window.createdDate.toISOString(),
        changedDate: window.changedDate.toISOString(),
      })),
      lines,
      totals: initiationTotals(lines),
    };
  });
}
