import { EntityManager, In } from 'typeorm';
import { findAccountByType, findParticipant } from '../db/accounts';
import { LedgerTransfer, Participant, SettlementModel } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import { Settlement, SettlementParticipantAccount } from '../db/settlementEntities';
import type { Movement } from '../ledger/ledger';
import { accountStillAt, settlementStillAt, windowsFollow, type StepContext } from './accountSteps';
import { BankConfirmationRefused, checkConfirmation, type AccountToConfirm, type BankConfirmationLine } from './bankConfirmation';
import { settlementOf, settlementView, type SettlementView } from './settlementViews';

/** The movement that records what the bank moved for one settlement account. */
export const bankMovementIdOf = (settlementId: number, accountId: number) => `settlement-${settlementId}-bank-${accountId}`;
const FUNDS_KIND = 'SETTLEMENT_FUNDS';
const SETTLED_REASON = "Settled against the settlement bank's confirmation";

/** A settlement as its confirmation is checked and applied: its row, its accounts, and those accounts as the file names them. */
interface Confirmable {
  settlement: Settlement;
  model: SettlementModel;
  accounts: SettlementParticipantAccount[];
  toConfirm: AccountToConfirm[];
}

async function confirmableOf(manager: EntityManager, settlementId: number): Promise<Confirmable> {
  const settlement = await settlementOf(manager, settlementId);
  const model = await manager.findOneByOrFail(SettlementModel, { settlementModelId: settlement.settlementModelId });
  const accounts = await manager.find(SettlementParticipantAccount, { where: { settlementId }, order: { accountId: 'ASC' } });
  const participants = await manager.findBy(Participant, { participantId: In([...new Set(accounts.map((account) => account.participantId))]) });
  const names = new Map(participants.map((participant) => [participant.participantId, participant.name]));
  const toConfirm = accounts.map(({ participantId, accountId, currency, netAmount }) => ({
    participantId,
    participant: names.get(participantId) ?? String(participantId),
    accountId,
    currency,
    netAmount,
  }));
  return { settlement, model, accounts, toConfirm };
}

/**
 * Checks the bank's confirmation against the settlement as it stands: throws BankConfirmationRefused with every
 * problem, or answers the bank's reference for each account. The same confirmation again, once it has been applied,
 * is no problem (answered `applied`): a retried step or a second upload of the same file changes nothing.
 */
export async function checkBankConfirmation(
  context: StepContext,
  settlementId: number,
  lines: BankConfirmationLine[],
): Promise<{ confirmable: Confirmable; references: Map<number, string>; applied: boolean }> {
  const confirmable = await context.db.read((manager) => confirmableOf(manager, settlementId));
  const { settlement, accounts, toConfirm } = confirmable;
  const { problems, references } = checkConfirmation(settlement.state, toConfirm, lines);
  if (settlement.state === 'SETTLED' && problems.every((problem) => problem.problem === 'state')) {
    const recorded = await context.db.read((manager) =>
      manager.countBy(LedgerTransfer, { transferId: In(accounts.map((account) => bankMovementIdOf(settlementId, account.accountId))) }),
    );
    const moving = accounts.filter((account) => !new Decimal(account.netAmount).isZero());
    const sameReferences = accounts.every((account) => account.externalReference === references.get(account.accountId));
    if (recorded === moving.length && sameReferences) return { confirmable, references, applied: true };
  }
  if (problems.length > 0) throw new BankConfirmationRefused(settlementId, problems);
  return { confirmable, references, applied: false };
}

/**
 * Finalises a settlement against the bank's confirmation, in one ledger step: each account's funds are recorded on
 * its participant's settlement account (a net payer's pays out what it owed, a net receiver's is paid in, against the
 * hub's HUB_RECONCILIATION account, so the settlement accounts move by exactly the net amounts and the hub's balances
 * match the bank's), every account and the settlement turn SETTLED with the bank's reference, and the windows follow.
 * All in one transaction, each state a compare-and-set on what was read: all of it happens, or none. A wrong
 * confirmation moves nothing.
 */
export async function finaliseSettlement(context: StepContext, settlementId: number, lines: BankConfirmationLine[]): Promise<SettlementView> {
  const { confirmable, references, applied } = await checkBankConfirmation(context, settlementId, lines);
  if (!applied) {
    const { settlement, accounts } = confirmable;
    const movements = await context.db.read((manager) => fundsMovements(manager, context.hubName, confirmable, references));
    const settle = async (manager: EntityManager) => {
      const now = new Date();
      await settlementStillAt(manager, settlement, { state: 'SETTLED', reason: SETTLED_REASON, changedDate: now });
      for (const account of accounts) {
        await accountStillAt(manager, account, {
          state: 'SETTLED',
          reason: SETTLED_REASON,
          externalReference: references.get(account.accountId)!,
          changedDate: now,
        });
      }
      await windowsFollow(manager, settlementId, 'SETTLED', now);
    };
    // Every net amount zero (payments that cancel out): nothing for the bank to have moved, the states alone.
    if (movements.length === 0) await context.db.transaction(settle);
    else await context.ledger.postEach(movements, settle);
  }
  return settlementView(context.db, settlementId);
}

/** What the bank moved for each account of a net amount, as movements on the settlement accounts. */
async function fundsMovements(manager: EntityManager, hubName: string, confirmable: Confirmable, references: Map<number, string>): Promise<Movement[]> {
  const { settlement, model, accounts } = confirmable;
  const hub = await findParticipant(manager, hubName);
  const movements: Movement[] = [];
  for (const account of accounts) {
    const net = new Decimal(account.netAmount);
    if (net.isZero()) continue;
    const reconciliation = await findAccountByType(manager, hub.participantId, account.currency, 'HUB_RECONCILIATION');
    const funds = await findAccountByType(manager, account.participantId, account.currency, model.settlementAccountType);
    // Mojaloop's sign: a settlement account's value rises as its participant pays out, falls as it is paid in.
    const [debit, credit] = net.isPositive() ? [funds, reconciliation] : [reconciliation, funds];
    movements.push({
      transferId: bankMovementIdOf(settlement.settlementId, account.accountId),
      kind: FUNDS_KIND,
      debitAccountId: debit.id,
      creditAccountId: credit.id,
      amount: formatAmount(net.abs()),
      currency: account.currency,
      externalReference: references.get(account.accountId),
      reason: `settlement ${settlement.settlementId}`,
    });
  }
  return movements;
}
