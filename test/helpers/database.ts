import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * The database a test file runs against: MySQL/MariaDB when DATABASE_URL says so (shared by all test
 * files, so tests use unique participant names), otherwise a fresh SQLite file of its own.
 */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL || `sqlite:${path.join(os.tmpdir(), `hub-test-${process.pid}-${crypto.randomUUID()}.sqlite`)}`;
}

/** A participant name no other test uses (2..30 alphanumerics, as the admin API requires). */
export function uniqueName(prefix = 'dfsp'): string {
  return `${prefix}${crypto.randomBytes(5).toString('hex')}`;
}
