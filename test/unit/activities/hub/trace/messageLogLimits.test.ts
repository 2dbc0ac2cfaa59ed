import test from 'ava';
import fc from 'fast-check';
import { HEADERS_BYTES, headersJson, LogShares, REFUSED_BODY_CHARS, truncated } from '../../../../../activities/hub/trace/messageLogLimits';

const bytes = (text: string) => Buffer.byteLength(text);

test("a refused message's body is kept to its first characters, with a note of how many bytes it had; a short one whole", (t) => {
  t.is(truncated('{"transferState":"COMMITTED"}', REFUSED_BODY_CHARS), '{"transferState":"COMMITTED"}');
  const body = `{"value":"${'é'.repeat(600_000)}"}`;
  const kept = truncated(body, REFUSED_BODY_CHARS);
  t.true(kept.startsWith(body.slice(0, REFUSED_BODY_CHARS)));
  t.is(kept.slice(REFUSED_BODY_CHARS), `… [cut: ${bytes(body)} bytes in all]`);
  t.is(bytes(body), 1_200_012, 'the note counts bytes, as they were sent');
});

test('a cut never ends between the halves of a character written as a surrogate pair', (t) => {
  const kept = truncated(`a${'😀'.repeat(10)}`, 4);
  t.is(kept, `a😀… [cut: 41 bytes in all]`);
});

test('headers that fit are kept as they came', (t) => {
  const headers = { 'fspiop-source': 'payerfsp', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
  t.is(headersJson(headers, HEADERS_BYTES), JSON.stringify(headers));
});

test('a 64 KiB header is cut to fit the column, longest first, with a note of its size; the short ones stay whole', (t) => {
  // Quotes take two bytes each in JSON, and Latin-1 letters two in UTF-8: a header under 64 KiB can exceed the column.
  const headers = { 'fspiop-source': 'payerfsp', date: 'Tue, 01 Jul 2025 10:00:00 GMT', tracestate: `"${'é'.repeat(32_000)}"${'"'.repeat(32_000)}` };
  const json = headersJson(headers, HEADERS_BYTES);
  t.true(bytes(json) <= HEADERS_BYTES);
  t.true(bytes(json) > HEADERS_BYTES - 100, 'as much as fits is kept');
  const kept = JSON.parse(json) as Record<string, string>;
  t.is(kept['fspiop-source'], 'payerfsp');
  t.is(kept.date, headers.date);
  t.true(kept.tracestate.startsWith(`"${'é'.repeat(1_000)}`));
  t.true(kept.tracestate.endsWith(`… [cut: ${bytes(headers.tracestate)} bytes in all]`));
});

test('whatever the headers, their JSON fits the bytes it is given and keeps every name', (t) => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 3_000 }), { maxKeys: 8 }),
      fc.integer({ min: 1_500, max: 6_000 }),
      (headers, maxBytes) => {
        const json = headersJson(headers, maxBytes);
        t.true(bytes(json) <= maxBytes);
        t.deepEqual(Object.keys(JSON.parse(json) as object).sort(), Object.keys(headers).sort());
      },
    ),
  );
});

test("a participant's entries past its share of the minute are dropped, refused ones past theirs sooner; the first drop is told apart", (t) => {
  const shares = new LogShares({ perMinute: 3, refusedPerMinute: 1 });
  const minute = Date.parse('2025-07-01T10:00:00Z');
  t.is(shares.take('in payerfsp', true, minute), 'kept');
  t.is(shares.take('in payerfsp', true, minute + 1), 'firstDropped');
  t.is(shares.take('in payerfsp', true, minute + 2), 'dropped');
  t.is(shares.take('in payerfsp', false, minute + 3), 'kept', 'a message the switch took still has its place');
  t.is(shares.take('in payerfsp', false, minute + 4), 'kept');
  t.is(shares.take('in payerfsp', false, minute + 5), 'dropped');
  t.is(shares.take('in payeefsp', true, minute + 6), 'kept', "another participant's share is its own");
  t.is(shares.take('in payerfsp', true, minute + 60_000), 'kept', 'the next minute brings a new share');
  t.is(shares.take('in payerfsp', true, minute + 60_001), 'firstDropped');
});
