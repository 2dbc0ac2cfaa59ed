import { LedgerAccountType, Participant } from './entities';
import type { EntityManager } from 'typeorm';

/** The ledger account types central-ledger ships with; settlement models may add more. */
export const standardLedgerAccountTypes = [
  { name: 'POSITION', description: 'Typical accounts from which a DFSP provisions transfers', isSettleable: true },
  { name: 'SETTLEMENT', description: 'Reflects the individual DFSP settlement account', isSettleable: false },
  { name: 'HUB_RECONCILIATION', description: 'The hub account that offsets funds in and out of settlement accounts', isSettleable: false },
  { name: 'HUB_MULTILATERAL_SETTLEMENT', description: 'The hub account for multilateral net settlement', isSettleable: false },
  { name: 'INTERCHANGE_FEE', description: 'Accrues interchange fees', isSettleable: true },
  { name: 'INTERCHANGE_FEE_SETTLEMENT', description: 'Settles interchange fees', isSettleable: false },
];

/**
 * From first start the hub exists as a participant, so operators can create its HUB_* accounts. Runs in the
 * caller's transaction; INSERT OR IGNORE, as several processes may start against a new database at once.
 */
export async function seedHub(manager: EntityManager, hubParticipantName: string): Promise<void> {
  const now = new Date();
  const types = standardLedgerAccountTypes.map((type) => ({ ...type, isActive: true, createdDate: now }));
  await manager.createQueryBuilder().insert().into(LedgerAccountType).values(types).orIgnore().execute();
  await manager
    .createQueryBuilder()
    .insert()
    .into(Participant)
    .values({ name: hubParticipantName, isActive: true, createdDate: now, createdBy: 'seed' })
    .orIgnore()
    .execute();
}
