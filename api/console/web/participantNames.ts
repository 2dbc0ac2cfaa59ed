import { get } from './api.js';

/**
 * Who owns each account, by name, from GET /participants (each participant lists its accounts' IDs): the settlement
 * API names a participant and its accounts by number, the operator knows them by name.
 */
export async function accountOwners(): Promise<Map<number, string>> {
  const participants = await get<Array<{ name: string; accounts: Array<{ id: number }> }>>('/participants');
  return new Map(participants.flatMap((participant) => participant.accounts.map((account) => [account.id, participant.name] as const)));
}
