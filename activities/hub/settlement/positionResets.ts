import { EntityManager, In } from 'typeorm';
import { Participant, ParticipantAccount } from '../db/entities';
import type { SettlementParticipantAccount } from '../db/settlementEntities';
import type { Movement } from '../ledger/ledger';
import { netSettlementReset } from '../ledger/rules';
import { HubError } from '../../shared/platform/hubError';

/** The ledger movement that resets a position by its net settlement amount, against the hub's multilateral account. */
export const movementIdOf = (settlementId: number, accountId: number) => `settlement-${settlementId}-${accountId}`;
const SETTLEMENT_KIND = 'SETTLEMENT_NET';

/** The reset of a settlement account's position (netSettlementReset), as the ledger reserves and commits it. */
export function resetOf(account: SettlementParticipantAccount, hub: ParticipantAccount): Movement {
  return {
    transferId: movementIdOf(account.settlementId, account.accountId),
    kind: SETTLEMENT_KIND,
    ...netSettlementReset(account.netAmount, account.accountId, hub.id),
    currency: account.currency,
    reason: `settlement ${account.settlementId}`,
  };
}

/** The hub's HUB_MULTILATERAL_SETTLEMENT account in each currency, which every reset moves against. */
export async function hubAccounts(manager: EntityManager, hubName: string, currencies: string[]): Promise<Map<string, ParticipantAccount>> {
  const hub = await manager.findOneBy(Participant, { name: hubName });
  const accounts = hub
    ? await manager.findBy(ParticipantAccount, {
        participantId: hub.participantId,
        currency: In(currencies),
        ledgerAccountType: 'HUB_MULTILATERAL_SETTLEMENT',
      })
    : [];
  const missing = currencies.filter((currency) => !accounts.some((account) => account.currency === currency));
  if (missing.length > 0) throw new HubError('validationError', `the hub has no HUB_MULTILATERAL_SETTLEMENT account in ${missing.join(', ')}`);
  return new Map(accounts.map((account) => [account.currency, account]));
}
