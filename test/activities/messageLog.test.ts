import crypto from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import { MessageRecord } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { MessageLog } from '../../activities/hub/trace/messageLog';
import { testDatabaseUrl } from '../helpers/database';

test('entries past the retention are deleted, newer ones kept', async (t) => {
  const services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: 'Hub' });
  t.teardown(() => services.db.close());
  const log = new MessageLog(services.db, pino({ level: 'silent' }));
  const conversation = `transfers/${crypto.randomUUID()}`;
  const entry = (at: Date) => ({ direction: 'in' as const, conversation, method: 'POST', target: '/transfers', headers: {}, at, durationMs: 1 });
  // Long before anything another test logs, on a database they share.
  for (const year of [1990, 1991, 1992]) log.record(entry(new Date(`${year}-06-01T00:00:00Z`)));
  log.record(entry(new Date()));
  await log.flush();
  t.is(await log.prune(new Date('1995-01-01T00:00:00Z')), 3);
  const left = await services.db.read((manager) => manager.findBy(MessageRecord, { conversation }));
  t.is(left.length, 1);
  t.true(left[0].createdDate.getTime() > Date.parse('2000-01-01'));
});
