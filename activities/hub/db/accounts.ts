import type { EntityManager } from 'typeorm';
import { Participant, ParticipantAccount } from './entities';
import { HubError } from '../../shared/platform/hubError';

// A participant and its accounts by name, ID and type, each one missing a 3200-series error: read by the participants'
// administration and by the ledger's funds and limits alike, so they live with the store both stand on.

export async function findParticipant(manager: EntityManager, name: string): Promise<Participant> {
  const participant = await manager.findOneBy(Participant, { name });
  if (!participant) throw new HubError('idNotFound', 'The requested resource could not be found');
  return participant;
}

export async function findAccount(manager: EntityManager, name: string, accountId: number): Promise<ParticipantAccount> {
  const participant = await findParticipant(manager, name);
  const account = await manager.findOneBy(ParticipantAccount, { id: accountId, participantId: participant.participantId });
  if (!account) throw new HubError('idNotFound', `Account ${accountId} of participant ${name} not found`);
  return account;
}

/** The participant's account of one type in a currency, or a 3200-series error naming what is missing. */
export async function findAccountByType(
  manager: EntityManager,
  participantId: number,
  currency: string,
  ledgerAccountType: string,
): Promise<ParticipantAccount> {
  const account = await manager.findOneBy(ParticipantAccount, { participantId, currency, ledgerAccountType });
  if (!account) throw new HubError('idNotFound', `No ${ledgerAccountType} account in ${currency}`);
  return account;
}
