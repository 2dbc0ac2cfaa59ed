import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { ConsentRecord } from '../db/thirdpartyEntities';

/** Who a consent links, as the switch learnt it when the DFSP granted it to the PISP (POST /consents). */
export interface ConsentParties {
  consentId: string;
  consentRequestId?: string;
  dfsp: string;
  pisp: string;
}

/** The consents table: the switch's knowledge of every consent it routed and of those its Auth service holds. */
export class Consents {
  constructor(private readonly db: Database) {}

  find(consentId: string, manager?: EntityManager): Promise<ConsentRecord | null> {
    const find = (m: EntityManager) => m.findOneBy(ConsentRecord, { consentId });
    return manager ? find(manager) : this.db.read(find);
  }

  /**
   * A grant passing the switch (POST /consents from DFSP to PISP). A consent already known keeps what it has: a
   * repeated grant changes nothing, and the parties of a registered consent are never rewritten.
   */
  async granted(parties: ConsentParties): Promise<void> {
    await this.db.transaction(async (manager) => {
      if (await this.find(parties.consentId, manager)) return;
      await manager.insert(ConsentRecord, {
        consentId: parties.consentId,
        consentRequestId: parties.consentRequestId ?? null,
        dfsp: parties.dfsp,
        pisp: parties.pisp,
        state: 'ISSUED',
        signCount: 0,
        createdDate: new Date(),
      });
    });
  }

  /** Runs `work` on the consent's row inside one transaction, so concurrent verifications see each other's counter. */
  update<T>(consentId: string, work: (consent: ConsentRecord | null, manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (manager) => work(await this.find(consentId, manager), manager));
  }
}
