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

  find(consentId: string): Promise<ConsentRecord | null> {
    return this.db.read((manager) => manager.findOneBy(ConsentRecord, { consentId }));
  }

  /**
   * A grant passing the switch (POST /consents from DFSP to PISP). Until the consent is registered with the Auth
   * service its DFSP may grant it again, to correct it; after, its parties are never rewritten.
   */
  async granted(parties: ConsentParties): Promise<void> {
    await this.update(parties.consentId, async (consent, manager) => {
      const row = { consentRequestId: parties.consentRequestId ?? null, dfsp: parties.dfsp, pisp: parties.pisp };
      // Two grants of a new consent at once: the second's insert is ignored, as a repeated grant changes nothing.
      if (!consent) await insertIgnoringDuplicate(manager, { consentId: parties.consentId, ...row, state: 'ISSUED', createdDate: new Date() });
      else if (!consent.registrationHash && consent.dfsp === parties.dfsp) await manager.update(ConsentRecord, { consentId: parties.consentId }, row);
    });
  }

  /**
   * Runs `work` on the consent's row inside one transaction that holds it: on MySQL the row is locked (SELECT … FOR
   * UPDATE), so two verifications cannot both pass with the same counter, nor one pass after a revocation; SQLite's
   * transactions are serial already.
   */
  update<T>(consentId: string, work: (consent: ConsentRecord | null, manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (manager) => {
      const lock = this.db.isMysql ? { lock: { mode: 'pessimistic_write' as const } } : {};
      return work(await manager.findOne(ConsentRecord, { where: { consentId }, ...lock }), manager);
    });
  }
}

export function insertIgnoringDuplicate(manager: EntityManager, row: Partial<ConsentRecord>): Promise<unknown> {
  return manager.createQueryBuilder().insert().into(ConsentRecord).values(row).orIgnore().execute();
}
