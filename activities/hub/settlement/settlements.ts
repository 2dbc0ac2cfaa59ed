import type { Database } from '../db/database';
import type { Ledger } from '../ledger/ledger';
import { abortSettlement, changeAccounts, type ParticipantChangeRequest, type StepContext } from './accountSteps';
import type { BankConfirmationLine } from './bankConfirmation';
import { checkBankConfirmation, finaliseSettlement } from './finalisation';
import { createSettlement, type SettlementRequest } from './netting';
import { findSettlements, settlementReport, settlementView, type ReportLine, type SettlementQuery, type SettlementView } from './settlementViews';

/**
 * Settlements of closed windows under a deferred net model (central-settlement's), and their ledger effect. Each
 * participant's net amount is what it paid less what it received over the windows (netting); as its accounts move
 * through PS_TRANSFERS_RESERVED and PS_TRANSFERS_COMMITTED the ledger reserves, then commits, a movement that takes
 * that amount out of its position against the hub's HUB_MULTILATERAL_SETTLEMENT account (accountSteps, positionResets:
 * a net receiver's position rises, a net payer's falls, both to where they stood before the windows), so the Net Debit
 * Cap frees up again. Every step is idempotent: a retried one finds its accounts moved and moves nothing twice.
 */
export class Settlements {
  private readonly context: StepContext;

  constructor(db: Database, ledger: Ledger, hubName: string) {
    this.context = { db, ledger, hubName };
  }

  async create(request: SettlementRequest): Promise<SettlementView> {
    const settlementId = await createSettlement(this.context.db, this.context.hubName, request);
    return { ...(await this.get(settlementId)), settlementModel: request.settlementModel };
  }

  get(settlementId: number): Promise<SettlementView> {
    return settlementView(this.context.db, settlementId);
  }

  find(query: SettlementQuery): Promise<SettlementView[]> {
    return findSettlements(this.context.db, query);
  }

  report(settlementId: number): Promise<{ settlement: SettlementView; lines: ReportLine[] }> {
    return settlementReport(this.context.db, settlementId);
  }

  change(settlementId: number, participants: ParticipantChangeRequest[]): Promise<SettlementView> {
    return changeAccounts(this.context, settlementId, participants);
  }

  /** Refuses (BankConfirmationRefused) a bank confirmation that does not match the settlement as it stands. */
  async checkBankConfirmation(settlementId: number, lines: BankConfirmationLine[]): Promise<void> {
    await checkBankConfirmation(this.context, settlementId, lines);
  }

  /** Settles the settlement against the bank's confirmation, in one step (finalisation.ts). */
  finalise(settlementId: number, lines: BankConfirmationLine[]): Promise<SettlementView> {
    return finaliseSettlement(this.context, settlementId, lines);
  }

  abort(settlementId: number, reason: string, externalReference?: string): Promise<{ id: number; state: 'ABORTED'; reason: string }> {
    return abortSettlement(this.context, settlementId, reason, externalReference);
  }
}
