import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { PartyLookup } from '../db/switchEntities';

/** A party as the spec addresses it (Document 2, "Party addressing"). */
export interface PartyAddress {
  partyIdType: string;
  partyIdentifier: string;
  partySubIdOrType?: string;
}

export type RemoveOutcome = 'removed' | 'notFound' | 'notOwner';

/** Rows per statement in a batch registration: well inside SQLite's and MySQL's placeholder limits. */
const CHUNK = 500;

const KEY_COLUMNS = ['partyIdType', 'partyIdentifier', 'partySubIdOrType', 'currency'];

/** The table key of a party: absent sub-id and currency are '' so the unique index covers them. */
function keyOf(party: PartyAddress, currency?: string) {
  return {
    partyIdType: party.partyIdType,
    partyIdentifier: party.partyIdentifier,
    partySubIdOrType: party.partySubIdOrType ?? '',
    currency: currency ?? '',
  };
}

/**
 * The hub's built-in account-lookup oracle: which FSP holds a party, per currency. An entry without a
 * currency stands for every currency. A party with a sub-id is a different party from the one without
 * (Mojaloop's ALS filters the same way), so lookups match the sub-id exactly.
 */
export class AccountLookup {
  constructor(private readonly db: Database) {}

  /**
   * The FSP that holds the party (GET /participants). With a currency: the entry for that currency, else
   * the currency-less one; without: the currency-less entry, else the oldest.
   */
  async owner(party: PartyAddress, currency?: string): Promise<string | undefined> {
    const rows = await this.entries(party);
    const choice = currency
      ? (rows.find((row) => row.currency === currency) ?? rows.find((row) => row.currency === ''))
      : (rows.find((row) => row.currency === '') ?? rows[0]);
    return choice?.fspId;
  }

  /** Every FSP holding the party in some currency (GET /parties: the currency is not known yet). */
  async owners(party: PartyAddress): Promise<string[]> {
    return [...new Set((await this.entries(party)).map((row) => row.fspId))];
  }

  /**
   * Creates or moves the parties to `fspId` (POST /participants and POST /participants/{Type}/{ID}).
   * One upsert statement per chunk: on MySQL an INSERT IGNORE followed by an UPDATE deadlocks when two
   * registrations of one party race (both hold the shared lock of the duplicate, both want it exclusive).
   * Rows are written in key order so concurrent batches take their locks in the same order.
   */
  async register(parties: PartyAddress[], fspId: string, currency?: string): Promise<void> {
    const keys = parties.map((party) => keyOf(party, currency)).sort(compareKeys);
    const now = new Date();
    await this.db.transaction(async (manager) => {
      for (let start = 0; start < keys.length; start += CHUNK) {
        const chunk = keys.slice(start, start + CHUNK);
        await manager
          .createQueryBuilder()
          .insert()
          .into(PartyLookup)
          .values(chunk.map((key) => ({ ...key, fspId, createdDate: now })))
          .orUpdate(['fspId'], KEY_COLUMNS)
          .execute();
      }
    });
  }

  /**
   * Removes the party's entries held by `requester` (DELETE /participants/{Type}/{ID}): the ALS must check
   * that the requester is the party's current FSP (Document 2, Endpoints). With a currency only that
   * currency's entry goes; without, every entry the requester holds.
   */
  async remove(party: PartyAddress, requester: string, currency?: string): Promise<RemoveOutcome> {
    return this.db.transaction(async (manager) => {
      const rows = (await this.entries(party, manager)).filter((row) => currency === undefined || row.currency === currency);
      if (rows.length === 0) return 'notFound';
      const owned = rows.filter((row) => row.fspId === requester);
      if (owned.length === 0) return 'notOwner';
      await manager.delete(
        PartyLookup,
        owned.map((row) => row.id),
      );
      return 'removed';
    });
  }

  private entries(party: PartyAddress, manager?: EntityManager): Promise<PartyLookup[]> {
    const { partyIdType, partyIdentifier, partySubIdOrType } = keyOf(party);
    const find = (m: EntityManager) => m.find(PartyLookup, { where: { partyIdType, partyIdentifier, partySubIdOrType }, order: { id: 'ASC' } });
    return manager ? find(manager) : this.db.read(find);
  }
}

function compareKeys(a: ReturnType<typeof keyOf>, b: ReturnType<typeof keyOf>): number {
  for (const field of ['partyIdType', 'partyIdentifier', 'partySubIdOrType', 'currency'] as const) {
    if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1;
  }
  return 0;
}
