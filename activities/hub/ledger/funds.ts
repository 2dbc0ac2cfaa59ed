import type { Database } from '../db/database';
import { In } from 'typeorm';
import { LedgerTransfer, Participant, ParticipantAccount } from '../db/entities';
import { Decimal, formatAmount, unrepresentableAmount } from '../db/money';
import { HubError } from '../../shared/platform/hubError';
import type { Ledger, Movement } from './ledger';
import { findAccount, findAccountByType, findParticipant } from '../db/accounts';

export interface FundsMovementRequest {
  transferId: string;
  externalReference: string;
  reason: string;
  amount: string;
  currency?: string;
}

/**
 * How long a funds-out reservation may wait for its commit or abort: central-ledger's INTERNAL_TRANSFER_VALIDITY_SECONDS
 * (432000, five days). After it the ledger refuses the commit (3303) and the reservation sweep releases it, so a
 * withdrawal nobody finished cannot hold the DFSP's settlement balance for ever.
 */
export const FUNDS_OUT_VALIDITY_MS = 432_000_000;

/**
 * Funds in and out of a DFSP's SETTLEMENT account, each offset by the hub's HUB_RECONCILIATION account
 * in the same currency. A deposit lowers the settlement account (Mojaloop's sign: the hub owes the DFSP);
 * a withdrawal is reserved first, then committed or aborted, so the money cannot be spent twice meanwhile, or
 * recorded in one step (reserved and committed in one transaction) when the money has already left.
 */
export class Funds {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly hubName: string,
  ) {}

  async recordFundsIn(name: string, accountId: number, request: FundsMovementRequest): Promise<LedgerTransfer> {
    const { settlement, reconciliation } = await this.accounts(name, accountId, request.currency);
    return this.ledger.post({
      transferId: request.transferId,
      kind: 'FUNDS_IN',
      debitAccountId: reconciliation.id,
      creditAccountId: settlement.id,
      amount: positive(request.amount),
      currency: settlement.currency,
      externalReference: request.externalReference,
      reason: request.reason,
    });
  }

  /**
   * Reserves a withdrawal: the ledger allows at most the deposited funds not already reserved and not covering the
   * DFSP's position (rules.withdrawalRefusal), which it locks too so a concurrent transfer cannot spend the same cover.
   */
  async recordFundsOutPrepareReserve(name: string, accountId: number, request: FundsMovementRequest): Promise<LedgerTransfer> {
    const withdrawal = await this.withdrawal(name, accountId, request);
    return this.ledger.reserve({ ...withdrawal, expiresAt: new Date(Date.now() + FUNDS_OUT_VALIDITY_MS) });
  }

  /**
   * A withdrawal reserved and committed in one ledger transaction, under the same rule as a reservation: no reservation
   * ever stands, so no second call can be lost and leave one. A repeat (same transferId and details) changes nothing.
   */
  async recordFundsOut(name: string, accountId: number, request: FundsMovementRequest): Promise<LedgerTransfer> {
    const movement = await this.ledger.post(await this.withdrawal(name, accountId, request));
    // One recorded earlier as a reservation under the same transferId may have been aborted, or have expired.
    if (movement.state !== 'COMMITTED') throw new HubError('clientError', `Funds out ${request.transferId} is already ${movement.state}`);
    return movement;
  }

  async recordFundsOutCommit(name: string, accountId: number, transferId: string): Promise<LedgerTransfer> {
    await this.reservationOf(name, accountId, transferId);
    return this.ledger.commit(transferId);
  }

  async recordFundsOutAbort(name: string, accountId: number, transferId: string): Promise<LedgerTransfer> {
    await this.reservationOf(name, accountId, transferId);
    return this.ledger.release(transferId);
  }

  /**
   * A funds-in or funds-out movement as its DFSP may see it through FSPIOP GET /transfers/{ID}: in
   * central-ledger these are transfers between the hub and the DFSP. Undefined unless `name` is that DFSP.
   */
  movementFor(transferId: string, name: string): Promise<LedgerTransfer | undefined> {
    return this.db.read(async (manager) => {
      const movement = await manager.findOneBy(LedgerTransfer, { transferId, kind: In(['FUNDS_IN', 'FUNDS_OUT']) });
      if (!movement) return undefined;
      const participant = await manager.findOneBy(Participant, { name });
      if (!participant) return undefined;
      const own = await manager.existsBy(ParticipantAccount, {
        id: In([movement.debitAccountId, movement.creditAccountId]),
        participantId: participant.participantId,
      });
      return own ? movement : undefined;
    });
  }

  private async withdrawal(name: string, accountId: number, request: FundsMovementRequest): Promise<Movement> {
    const { settlement, reconciliation } = await this.accounts(name, accountId, request.currency);
    return {
      transferId: request.transferId,
      kind: 'FUNDS_OUT',
      debitAccountId: settlement.id,
      creditAccountId: reconciliation.id,
      amount: positive(request.amount),
      currency: settlement.currency,
      externalReference: request.externalReference,
      reason: request.reason,
    };
  }

  private accounts(name: string, accountId: number, currency?: string): Promise<{ settlement: ParticipantAccount; reconciliation: ParticipantAccount }> {
    return this.db.read(async (manager) => {
      const settlement = await findAccount(manager, name, accountId);
      if (settlement.ledgerAccountType !== 'SETTLEMENT') {
        throw new HubError('clientError', `Account ${accountId} is a ${settlement.ledgerAccountType} account; funds move through SETTLEMENT accounts`);
      }
      if (!settlement.isActive) throw new HubError('clientError', `Account ${accountId} is inactive`);
      if (currency && currency !== settlement.currency) {
        throw new HubError('validationError', `Currency ${currency} does not match the account's ${settlement.currency}`);
      }
      const hub = await findParticipant(manager, this.hubName);
      const reconciliation = await findAccountByType(manager, hub.participantId, settlement.currency, 'HUB_RECONCILIATION');
      return { settlement, reconciliation };
    });
  }

  private reservationOf(name: string, accountId: number, transferId: string): Promise<LedgerTransfer> {
    return this.db.read(async (manager) => {
      const account = await findAccount(manager, name, accountId);
      const transfer = await manager.findOneBy(LedgerTransfer, { transferId });
      if (!transfer || transfer.kind !== 'FUNDS_OUT' || transfer.debitAccountId !== account.id) {
        throw new HubError('transferIdNotFound', `No funds-out reservation ${transferId} on account ${accountId}`);
      }
      return transfer;
    });
  }
}

function positive(amount: string): string {
  const value = new Decimal(amount);
  if (!value.isPositive() || value.isZero()) throw new HubError('validationError', 'amount must be greater than zero');
  const problem = unrepresentableAmount(value);
  if (problem) throw new HubError('validationError', `amount ${problem}`);
  return formatAmount(value);
}
