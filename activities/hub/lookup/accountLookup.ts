import { Not, type EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { PartyLookup } from '../db/switchEntities';

/** A party as the spec addresses it (Document 2, "Party addressing"). */
export interface PartyAddress {
  partyIdType: string;
  partyIdentifier: string;
  partySubIdOrType?: string;
}

export type RemoveOutcome = 'removed' | 'notFound' | 'notOwner';

/**
 * The third-party API's identifiers in the lookup (Document 1, "Account link entries in the participant lookup"): a
 * consent, registered by the Auth service that administers it so it can be found later, and an account link,
 * registered by the DFSP that issued it. Each has exactly one holder, as Mojaloop's consent oracle keeps them (a
 * consentId and an fspId, nothing else): a sub-id or currency given with one is ignored.
 */
export const THIRDPARTY_PARTY_ID_TYPES = ['CONSENT', 'THIRD_PARTY_LINK'] as const;

export function isThirdpartyPartyIdType(partyIdType: string): boolean {
  return (THIRDPARTY_PARTY_ID_TYPES as readonly string[]).includes(partyIdType);
}

/** Rows per statement in a batch registration: well inside SQLite's and MySQL's placeholder limits. */
const CHUNK = 500;

/** The currency an entry of the party is kept or sought under: none for the third-party types. */
const currencyFor = (party: PartyAddress, currency: string | undefined) => (isThirdpartyPartyIdType(party.partyIdType) ? undefined : currency);

/** The table key of a party: absent sub-id and currency are '' so the unique index covers them. */
function keyOf(party: PartyAddress, currency?: string) {
  return {
    partyIdType: party.partyIdType,
    partyIdentifier: party.partyIdentifier,
    partySubIdOrType: isThirdpartyPartyIdType(party.partyIdType) ? '' : (party.partySubIdOrType ?? ''),
    currency: currencyFor(party, currency) ?? '',
  };
}

/**
 * The hub's built-in account-lookup oracle: which FSP holds a party, per currency. An entry without a
 * currency stands for every currency. A party with a sub-id is a different party from the one without
 * (Mojaloop's ALS filters the same way), so lookups match the sub-id exactly. Consents and account links are
 * kept here too (THIRDPARTY_PARTY_ID_TYPES), for the gateway and for the hub's own Auth service alike.
 */
export class AccountLookup {
  constructor(private readonly db: Database) {}

  /**
   * The FSP that holds the party (GET /participants). With a currency: the entry for that currency, else
   * the currency-less one; without: the currency-less entry, else the oldest.
   */
  async owner(party: PartyAddress, currency?: string): Promise<string | undefined> {
    const rows = await this.entries(party);
    const wanted = currencyFor(party, currency);
    const choice = wanted
      ? (rows.find((row) => row.currency === wanted) ?? rows.find((row) => row.currency === ''))
      : (rows.find((row) => row.currency === '') ?? rows[0]);
    return choice?.fspId;
  }

  /** Every FSP holding the party in some currency (GET /parties: the currency is not known yet). */
  async owners(party: PartyAddress): Promise<string[]> {
    return [...new Set((await this.entries(party)).map((row) => row.fspId))];
  }

  /**
   * Registers the parties to `fspId` (POST /participants and POST /participants/{Type}/{ID}) and returns those of
   * `parties` it left alone: entries another FSP holds. A party belongs to one FSP per currency, and an entry without a
   * currency stands for every currency, so it conflicts with any other FSP's entry of the party and any other FSP's
   * entry conflicts with it. An entry is changed only by the FSP that holds it, as only it may delete it (Document 2,
   * Endpoints): as at Mojaloop's oracles, registering what another FSP holds is refused, never a takeover.
   * Registering one's own entry again changes nothing.
   *
   * On MySQL the party's rows are read with a locking read first: its next-key locks make a concurrent registration
   * of the same party wait (or lose a deadlock and be retried), so two FSPs cannot both see the party free.
   */
  async register(parties: PartyAddress[], fspId: string, currency?: string): Promise<PartyAddress[]> {
    const entries = parties.map((party) => ({ party, key: keyOf(party, currency) })).sort((a, b) => compareKeys(a.key, b.key));
    const now = new Date();
    return this.db.transaction(async (manager) => {
      const refused: PartyAddress[] = [];
      for (let start = 0; start < entries.length; start += CHUNK) {
        const chunk = entries.slice(start, start + CHUNK);
        const held = await this.heldEntries(
          manager,
          chunk.map(({ key }) => key),
        );
        // Which party a row belongs to is the database's to say (MySQL's collation ignores case and accents): only when
        // another FSP holds any of these parties is each party's own entries sought, by the database's comparison.
        const othersHoldSome = held.some((row) => row.fspId !== fspId);
        const free: typeof chunk = [];
        for (const entry of chunk) {
          const others = othersHoldSome ? await this.entriesOfOthers(manager, entry.key, fspId) : [];
          if (others.some((row) => currenciesOverlap(row.currency, entry.key.currency))) refused.push(entry.party);
          else free.push(entry);
        }
        if (free.length === 0) continue;
        await manager
          .createQueryBuilder()
          .insert()
          .into(PartyLookup)
          .values(free.map(({ key }) => ({ ...key, fspId, createdDate: now })))
          .orIgnore()
          .execute();
      }
      return refused;
    });
  }

  /** The entries of the key's party, in any currency, that FSPs other than `fspId` hold. */
  private entriesOfOthers(manager: EntityManager, key: ReturnType<typeof keyOf>, fspId: string): Promise<PartyLookup[]> {
    const { partyIdType, partyIdentifier, partySubIdOrType } = key;
    return manager.find(PartyLookup, { where: { partyIdType, partyIdentifier, partySubIdOrType, fspId: Not(fspId) } });
  }

  /** Every entry of the parties of `keys`, whatever its currency, locked against concurrent registration on MySQL. */
  private heldEntries(manager: EntityManager, keys: ReturnType<typeof keyOf>[]): Promise<PartyLookup[]> {
    const query = manager
      .createQueryBuilder(PartyLookup, 'entry')
      .where(keys.map(({ partyIdType, partyIdentifier, partySubIdOrType }) => ({ partyIdType, partyIdentifier, partySubIdOrType })));
    return (this.db.isMysql ? query.setLock('pessimistic_write') : query).getMany();
  }

  /**
   * Removes the party's entries held by `requester` (DELETE /participants/{Type}/{ID}): the ALS must check
   * that the requester is the party's current FSP (Document 2, Endpoints). With a currency only that
   * currency's entry goes; without, every entry the requester holds.
   */
  async remove(party: PartyAddress, requester: string, currency?: string): Promise<RemoveOutcome> {
    const only = currencyFor(party, currency);
    return this.db.transaction(async (manager) => {
      const rows = (await this.entries(party, manager)).filter((row) => only === undefined || row.currency === only);
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

/** An entry without a currency ('') stands for every currency. */
const currenciesOverlap = (a: string, b: string) => a === '' || b === '' || a === b;

function compareKeys(a: ReturnType<typeof keyOf>, b: ReturnType<typeof keyOf>): number {
  for (const field of ['partyIdType', 'partyIdentifier', 'partySubIdOrType', 'currency'] as const) {
    if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1;
  }
  return 0;
}
