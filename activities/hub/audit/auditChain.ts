import crypto from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuditEntryRecord } from '../db/auditEntities';

/** The hash the first entry's `previousHash` carries: there is no entry before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry's columns as stored, without its own hash: what the hash covers. */
export type ChainedFields = Omit<AuditEntryRecord, 'hash'>;

export const sha256 = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');

/**
 * An entry's hash: SHA-256 of the canonical JSON (RFC 8785) of every column but the hash, the previous entry's hash
 * among them. Canonical, so the same row read back by either database driver hashes the same; the time as ISO 8601 to
 * the millisecond, the precision the column keeps.
 */
export function entryHash(fields: ChainedFields): string {
  const { at, ...rest } = fields;
  return sha256(canonicalize({ ...rest, at: at.toISOString() })!);
}

/** The end of the chain verified so far: the sequence and hash of its last entry (0 and GENESIS_HASH before any). */
export interface ChainLink {
  sequence: number;
  hash: string;
}

/**
 * Why `entry`, read next after `previous`, does not continue the chain, if it does not: an entry is missing before it
 * (a gap in the sequence), it does not name the previous entry's hash (the previous one was rewritten, hash and all), or
 * its columns do not give its hash (it was edited).
 */
export function brokenLink(previous: ChainLink, entry: AuditEntryRecord): { sequence: number; reason: string } | undefined {
  if (entry.sequence !== previous.sequence + 1) {
    const missing = entry.sequence - 1 === previous.sequence + 1 ? `${previous.sequence + 1} is` : `${previous.sequence + 1} to ${entry.sequence - 1} are`;
    return { sequence: previous.sequence + 1, reason: `missing: entry ${missing} not in the trail (deleted)` };
  }
  if (entry.previousHash !== previous.hash) {
    return { sequence: entry.sequence, reason: `its previousHash is not the hash of entry ${previous.sequence}: that entry was rewritten` };
  }
  const { hash, ...fields } = entry;
  if (entryHash(fields) !== hash) return { sequence: entry.sequence, reason: 'its content does not give its hash: it was edited' };
  return undefined;
}
