import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/**
 * The database a test file runs against: MySQL/MariaDB when DATABASE_URL says so (shared by all test
 * files, so tests use unique participant names), otherwise a fresh SQLite file of its own.
 */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL || freshSqliteUrl();
}

const freshSqliteUrl = () => `sqlite:${path.join(os.tmpdir(), `hub-test-${process.pid}-${crypto.randomUUID()}.sqlite`)}`;

/** A participant name no other test uses (2..30 alphanumerics, as the admin API requires). */
export function uniqueName(prefix = 'dfsp'): string {
  return `${prefix}${crypto.randomBytes(5).toString('hex')}`;
}

/**
 * A database no other test file writes to, for a file whose checks read the whole scheme (counts of every transfer):
 * on MySQL/MariaDB a fresh one beside DATABASE_URL's, named after it (`hub_test_3f…`, which a grant on `hub\_test%`
 * covers), dropped by `drop`; otherwise a fresh SQLite file.
 */
export async function databaseOfItsOwn(): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = process.env.DATABASE_URL;
  if (!shared?.startsWith('mysql')) return { url: freshSqliteUrl(), drop: async () => undefined };
  const url = new URL(shared);
  const name = `${url.pathname.slice(1)}_${crypto.randomBytes(4).toString('hex')}`;
  const server = async (statement: string) => {
    const connection = await mysql.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };
  try {
    await server(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } catch (err) {
    throw new Error(
      `a database of its own (${name}) needs the right to create it: GRANT ALL ON \`${url.pathname.slice(1).replaceAll('_', '\\_')}%\`.* (${String(err)})`,
    );
  }
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => server(`DROP DATABASE IF EXISTS \`${name}\``) };
}
