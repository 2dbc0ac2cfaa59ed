import type { Database } from '../db/database';
import { LedgerAccountType, SettlementModel } from '../db/entities';
import { HubError } from '../../shared/platform/hubError';

export type SettlementModelRequest = Omit<SettlementModel, 'settlementModelId' | 'isActive' | 'createdDate' | 'currency'> & {
  currency?: string;
};

/** How participants settle (gross or net, bilateral or multilateral, immediate or deferred), per currency. */
export class SettlementModels {
  constructor(private readonly db: Database) {}

  list(): Promise<SettlementModel[]> {
    return this.db.read((manager) => manager.find(SettlementModel, { order: { settlementModelId: 'ASC' } }));
  }

  get(name: string): Promise<SettlementModel> {
    return this.db.read(async (manager) => {
      const model = await manager.findOneBy(SettlementModel, { name });
      if (!model) throw new HubError('idNotFound', `Settlement model ${name} not found`);
      return model;
    });
  }

  /** Creates an active model; its ledger account type is registered if the hub does not know it yet. */
  async create(request: SettlementModelRequest): Promise<void> {
    await this.db.transaction(async (manager) => {
      if (await manager.existsBy(SettlementModel, { name: request.name })) {
        throw new HubError('clientError', `Settlement model ${request.name} already exists`);
      }
      for (const name of [request.ledgerAccountType, request.settlementAccountType]) {
        if (!(await manager.existsBy(LedgerAccountType, { name }))) {
          await manager.insert(LedgerAccountType, {
            name,
            description: `Created for settlement model ${request.name}`,
            isActive: true,
            isSettleable: true,
            createdDate: new Date(),
          });
        }
      }
      await manager.insert(SettlementModel, { ...request, currency: request.currency ?? null, isActive: true, createdDate: new Date() });
    });
  }

  async setActive(name: string, isActive: boolean): Promise<SettlementModel> {
    await this.db.transaction(async (manager) => {
      const result = await manager.update(SettlementModel, { name }, { isActive });
      if (!result.affected) throw new HubError('idNotFound', `Settlement model ${name} not found`);
    });
    return this.get(name);
  }
}
