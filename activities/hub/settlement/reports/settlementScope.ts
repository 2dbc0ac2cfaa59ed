import { In, type EntityManager } from 'typeorm';
import { Participant } from '../../db/entities';
import { SettlementParticipantAccount, SettlementSettlementWindow, SettlementWindow, type Settlement } from '../../db/settlementEntities';
import { HubError } from '../../../shared/platform/hubError';
import { settlementOf } from '../settlementViews';

/** What every settlement report reads first: the settlement, its windows, its participants' accounts and their names. */
export interface SettlementScope {
  settlement: Settlement;
  windows: SettlementWindow[];
  accounts: SettlementParticipantAccount[];
  /** Each participant's name by its ID. */
  names: Map<number, string>;
}

/** The settlement `settlementId`'s scope, or a refusal (3100) naming an unknown settlement. */
export async function settlementScope(manager: EntityManager, settlementId: number): Promise<SettlementScope> {
  const settlement = await settlementOf(manager, settlementId);
  const links = await manager.findBy(SettlementSettlementWindow, { settlementId });
  const windows = await manager.find(SettlementWindow, {
    where: { settlementWindowId: In(links.map((link) => link.settlementWindowId)) },
    order: { settlementWindowId: 'ASC' },
  });
  const accounts = await manager.find(SettlementParticipantAccount, { where: { settlementId }, order: { currency: 'ASC', accountId: 'ASC' } });
  const participants = await manager.findBy(Participant, { participantId: In([...new Set(accounts.map((account) => account.participantId))]) });
  return { settlement, windows, accounts, names: new Map(participants.map((participant) => [participant.participantId, participant.name])) };
}

/** The participant's position accounts in the scope's settlement, by the participant's name; a refusal (3100) when it has none there. */
export function accountsOf(scope: SettlementScope, dfspId: string): { participantId: number; accounts: SettlementParticipantAccount[] } {
  const participantId = [...scope.names.entries()].find(([, name]) => name === dfspId)?.[0];
  const accounts = scope.accounts.filter((account) => account.participantId === participantId);
  if (participantId === undefined || accounts.length === 0) {
    throw new HubError('validationError', `Participant '${dfspId}' is not part of settlement '${scope.settlement.settlementId}'`);
  }
  return { participantId, accounts };
}

/** Who owns each position account of the settlement, by name: the sender or receiver of its payments. */
export function ownerNames(scope: SettlementScope): Map<number, string> {
  return new Map(scope.accounts.map((account) => [account.accountId, scope.names.get(account.participantId) ?? String(account.participantId)]));
}
