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
    const { consentId, dfsp } = parties;
    const row = { consentRequestId: parties.consentRequestId ?? null, dfsp, pisp: parties.pisp };
    // Two statements and no locking read: on MySQL a SELECT … FOR UPDATE of a row not there yet takes a gap lock, and
    // two grants of different consents would then deadlock on their inserts.
    await this.db.transaction(async (manager) => {
      await insertIgnoringDuplicate(manager, { consentId, ...row, state: 'ISSUED', createdDate: new Date() });
      await manager
        .createQueryBuilder()
        .update(ConsentRecord)
        .set(row)
        .where('consentId = :consentId AND registrationHash IS NULL AND dfsp = :dfsp', { consentId, dfsp })
        .execute();
    });
  }

  /**
   * Makes sure the consent has a row (one its DFSP registers without the switch having seen the grant has none yet),
   * so that `update` locks a row and never a gap.
   */
  async ensure(consentId: string, dfsp: string): Promise<void> {
    await this.db.transaction((manager) => insertIgnoringDuplicate(manager, { consentId, dfsp, state: 'ISSUED', createdDate: new Date() }));
  }

  /**
   * Runs `work` on the consent's row inside one transaction that holds it: on MySQL the row is locked (SELECT … FOR
   * UPDATE), so two verifications cannot both pass with the same counter, nor one pass after a revocation; SQLite's
   * transactions are serial already. A row that is not there is not created here (see `ensure`).
   */
  update<T>(consentId: string, work: (consent: ConsentRecord | null, manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (manager) => {
      const lock = this.db.isMysql ? { lock: { mode: 'pessimistic_write' as const } } : {};
      return work(await manager.findOne(ConsentRecord, { where: { consentId }, ...lock }), manager);
    });
  }
}

function insertIgnoringDuplicate(manager: EntityManager, row: Partial<ConsentRecord>): Promise<unknown> {
  return manager.createQueryBuilder().insert().into(ConsentRecord).values(row).orIgnore().execute();
}
