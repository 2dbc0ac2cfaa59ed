import { Between, FindOptionsWhere, LessThan, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import type { AuditEntry, AuditPage, AuditVerification } from '../../shared/contracts/audit';
import type { Database } from '../db/database';
import { AuditEntryRecord, AuditHead } from '../db/auditEntities';
import { brokenLink, ChainLink, entryHash, GENESIS_HASH } from './auditChain';

/**
 * What is appended to the trail: who, what, the outcome, from where. The gateway's recorder (api/admin/audit) fills in
 * an HTTP call's; an activity (a held change performed after its approval) gives what it knows. Text longer than its
 * column is cut, so a long user agent or path can never stop an entry from being written.
 */
export interface AuditRecord {
  at?: Date;
  actor?: string;
  roles?: readonly string[];
  credential?: string;
  action: string;
  method?: string;
  route?: string;
  target?: string;
  permission?: string;
  bodyDigest?: string;
  before?: unknown;
  after?: unknown;
  status?: number;
  errorCode?: string;
  approvalId?: string;
  detail?: string;
  address?: string;
  userAgent?: string;
  /**
   * Makes the append idempotent: an entry with this reference already in the trail is answered instead of a second
   * one. An activity gives one (Temporal may run it again after it appended), the gateway does not.
   */
  reference?: string;
}

export interface AuditSearch {
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
  /** The cursor: only entries older than this sequence. */
  before?: number;
  limit: number;
}

/** How many entries verification reads at a time: its memory stays bounded however long the trail. */
const VERIFY_PAGE = 500;

/**
 * The audit trail: append-only and hash-chained (auditChain.ts). Appends are serialised on the chain's head row, across
 * processes and replicas: on MySQL by locking it (SELECT … FOR UPDATE) in the append's transaction, on SQLite by the
 * write lock every transaction takes (Database.transaction). So each entry gets the next sequence and the hash of the
 * one before, and two appends can never both follow the same entry.
 */
export class AuditTrail {
  constructor(private readonly db: Database) {}

  async append(record: AuditRecord): Promise<AuditEntry> {
    const at = record.at ?? new Date();
    const stored = await this.db.transaction(async (manager) => {
      const query = manager.getRepository(AuditHead).createQueryBuilder('head').where('head.id = 1');
      const head = await (this.db.isMysql ? query.setLock('pessimistic_write') : query).getOneOrFail();
      // Looked for under the head's lock, so two runs of one activity cannot both find none.
      const appended = record.reference === undefined ? null : await manager.findOneBy(AuditEntryRecord, { reference: record.reference });
      if (appended) return appended;
      const fields = { ...columnsOf(record, at), sequence: head.sequence + 1, previousHash: head.hash };
      const entry = { ...fields, hash: entryHash(fields) };
      await manager.insert(AuditEntryRecord, entry);
      await manager.update(AuditHead, { id: 1 }, { sequence: entry.sequence, hash: entry.hash });
      return entry;
    });
    return entryView(stored);
  }

  /** Entries matching every filter given, newest first, `limit` at a time. */
  async search(search: AuditSearch): Promise<AuditPage> {
    const where: FindOptionsWhere<AuditEntryRecord> = {
      ...(search.actor !== undefined && { actor: search.actor }),
      ...(search.action !== undefined && { action: search.action }),
      ...(search.before !== undefined && { sequence: LessThan(search.before) }),
      ...within(search.from, search.to),
    };
    const found = await this.db.read((manager) => manager.find(AuditEntryRecord, { where, order: { sequence: 'DESC' }, take: search.limit + 1 }));
    const entries = found.slice(0, search.limit).map(entryView);
    return found.length > search.limit ? { entries, nextCursor: String(entries[entries.length - 1].sequence) } : { entries };
  }

  /**
   * Walks the chain from its first entry to the head as it was when verification began (entries appended meanwhile
   * are left to the next run), a page at a time, and answers with the first broken link.
   */
  async verify(): Promise<AuditVerification> {
    const head = await this.db.read((manager) => manager.findOneByOrFail(AuditHead, { id: 1 }));
    let previous: ChainLink = { sequence: 0, hash: GENESIS_HASH };
    let intact = 0;
    while (previous.sequence < head.sequence) {
      const from = previous.sequence + 1;
      const page = await this.db.read((manager) =>
        manager.find(AuditEntryRecord, { where: { sequence: Between(from, head.sequence) }, order: { sequence: 'ASC' }, take: VERIFY_PAGE }),
      );
      if (page.length === 0) {
        return broken(intact, from, `missing: the head records ${head.sequence} entries, the trail ends at ${previous.sequence} (deleted)`);
      }
      for (const entry of page) {
        const link = brokenLink(previous, entry);
        if (link) return broken(intact, link.sequence, link.reason);
        previous = entry;
        intact++;
      }
    }
    if (previous.hash !== head.hash) return broken(intact, head.sequence, "the head's hash is not the last entry's: that entry was rewritten");
    return { ok: true, entries: intact };
  }
}

const broken = (entries: number, sequence: number, reason: string): AuditVerification => ({ ok: false, entries, brokenAt: { sequence, reason } });

function within(from?: Date, to?: Date): FindOptionsWhere<AuditEntryRecord> {
  if (from && to) return { at: Between(from, to) };
  if (from) return { at: MoreThanOrEqual(from) };
  if (to) return { at: LessThanOrEqual(to) };
  return {};
}

/** At most `max` characters, never ending on half a surrogate pair (which a MySQL utf8mb4 column would refuse). */
function cut(value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** A record's columns, every one present (null where nothing is known) so the hash covers the same keys as the row read back. */
function columnsOf(record: AuditRecord, at: Date): Omit<AuditEntryRecord, 'sequence' | 'previousHash' | 'hash'> {
  return {
    at,
    actor: cut(record.actor, 128),
    roles: cut((record.roles ?? []).join(','), 128)!,
    credential: cut(record.credential, 16),
    action: cut(record.action, 128)!,
    method: cut(record.method, 8),
    route: cut(record.route, 256),
    target: cut(record.target, 1000),
    permission: cut(record.permission, 32),
    bodyDigest: cut(record.bodyDigest, 64),
    before: json(record.before),
    after: json(record.after),
    status: record.status ?? null,
    errorCode: cut(record.errorCode, 4),
    approvalId: cut(record.approvalId, 64),
    detail: cut(record.detail, 500),
    address: cut(record.address, 64),
    userAgent: cut(record.userAgent, 256),
    reference: cut(record.reference, 128),
  };
}

function entryView(entry: AuditEntryRecord): AuditEntry {
  return {
    ...entry,
    at: entry.at.toISOString(),
    roles: entry.roles === '' ? [] : entry.roles.split(','),
    before: entry.before === null ? null : JSON.parse(entry.before),
    after: entry.after === null ? null : JSON.parse(entry.after),
  };
}
