import crypto from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import { MessageRecord } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { MessageLog } from '../../activities/hub/trace/messageLog';
import { conversationOf, traceIdOf } from '../../api/contracts/messageLog';
import { testDatabaseUrl } from '../helpers/database';

test('a message belongs to the conversation its path names, or for a POST to a collection the ID its body names', (t) => {
  t.is(conversationOf('PUT', '/transfers/abc/error', undefined), 'transfers/abc');
  t.is(conversationOf('POST', '/transfers', { transferId: 'abc' }), 'transfers/abc');
  t.is(conversationOf('GET', '/parties/MSISDN/123/sub', undefined), 'parties/MSISDN/123/sub');
  t.is(conversationOf('PUT', '/thirdpartyRequests/transactions/t1', undefined), 'thirdpartyRequests/transactions/t1');
  t.is(conversationOf('POST', '/thirdpartyRequests/authorizations', { authorizationRequestId: 'a1' }), 'thirdpartyRequests/authorizations/a1');
  t.is(conversationOf('GET', '/authorizations/r1?authenticationType=OTP', undefined), 'authorizations/r1');
});

test("a participant's endpoint below a base path of its own still names the conversation; a path that names none is none", (t) => {
  t.is(conversationOf('PUT', '/mojaloop/inbound/quotes/q1', undefined), 'quotes/q1');
  t.is(conversationOf('GET', '/health', undefined), undefined);
  t.is(conversationOf('POST', '/transfers', 'not an object'), undefined);
  t.is(conversationOf('POST', '/transfers', { transferId: 42 }), undefined);
});

test('the trace ID of a W3C traceparent, lower-case; anything else, or the all-zero ID, is none', (t) => {
  t.is(traceIdOf('00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01'), '0af7651916cd43dd8448eb211c80319c');
  t.is(traceIdOf('00-00000000000000000000000000000000-b7ad6b7169203331-01'), undefined);
  t.is(traceIdOf('not a traceparent'), undefined);
  t.is(traceIdOf(undefined), undefined);
});

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
