import test from 'ava';
import { conversationOf, traceIdOf } from '../../../../../activities/shared/contracts/messageLog';

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
