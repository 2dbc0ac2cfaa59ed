import crypto from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import type { DeleteResult, EntityManager } from 'typeorm';
import type { Database } from '../../activities/hub/db/database';
import { MessageRecord } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { MessageLog } from '../../activities/hub/trace/messageLog';
import { testDatabaseUrl } from '../helpers/database';

const silent = pino({ level: 'silent' });

async function openDb(t: { teardown(fn: () => Promise<void>): void }): Promise<Database> {
  const services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: 'Hub' });
  t.teardown(() => services.db.close());
  return services.db;
}

const entry = (conversation: string, at: Date) => ({
  direction: 'in' as const,
  conversation,
  method: 'POST',
  target: '/transfers',
  headers: {},
  at,
  durationMs: 1,
});
const left = (db: Database, conversation: string) => db.read((manager) => manager.findBy(MessageRecord, { conversation }));

// Long before anything another test logs, on a database they may share (MariaDB); what is left is asserted, not how
// many a call deleted, since another test's hub may delete some of the same first.

test('entries past the retention are deleted, newer ones kept', async (t) => {
  const db = await openDb(t);
  const log = new MessageLog(db, silent);
  const conversation = `transfers/${crypto.randomUUID()}`;
  for (const year of [1990, 1991, 1992]) log.record(entry(conversation, new Date(`${year}-06-01T00:00:00Z`)));
  log.record(entry(conversation, new Date()));
  await log.flush();
  await log.prune(new Date('1995-01-01T00:00:00Z'));
  const kept = await left(db, conversation);
  t.is(kept.length, 1);
  t.true(kept[0].createdDate.getTime() > Date.parse('2000-01-01'));
});

test('retention deletes everything past it until it has caught up, a batch to a statement, however large the backlog', async (t) => {
  const db = await openDb(t);
  const conversation = `transfers/${crypto.randomUUID()}`;
  const writer = new MessageLog(db, silent);
  for (let i = 0; i < 250; i++) writer.record(entry(conversation, new Date(Date.parse('1980-01-01T00:00:00Z') + i * 60_000)));
  writer.record(entry(conversation, new Date()));
  await writer.flush();
  // What each of the retention's write transactions deleted: SQLite's write lock is held for one at a time.
  const deletedByStatement: number[] = [];
  const watched = Object.assign(Object.create(db) as Database, {
    transaction: (work: (manager: EntityManager) => Promise<unknown>) =>
      db.transaction(async (manager) => {
        const result = await work(manager);
        deletedByStatement.push((result as DeleteResult).affected ?? 0);
        return result;
      }),
  });
  await new MessageLog(watched, silent, { pruneBatch: 10 }).prune(new Date('1985-01-01T00:00:00Z'));
  const kept = await left(db, conversation);
  t.is(kept.length, 1, 'all 250 old entries are gone, the new one stays');
  t.true(kept[0].createdDate.getTime() > Date.parse('2000-01-01'));
  t.true(deletedByStatement.includes(10));
  t.true(
    deletedByStatement.every((count) => count <= 10),
    deletedByStatement.join(' '),
  );
});
