import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { requestHash } from '../../../../../activities/shared/contracts/requestHash';
import { transferBody } from '../../../../helpers/fspiopBodies';

// The duplicate rule (Document 2, Errors rule 5): a POST repeated with the same ID is answered as the first was, one
// with the same ID and other parameters is 'Modified request'. What tells them apart is this hash of the parsed body.

const sha256Hex = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The same JSON value with every object's keys in reverse order, as another DFSP's serialiser might write it. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, reordered(member)]),
  );
}

test('a body sent again with its keys in another order, or other whitespace, hashes the same', (t) => {
  const body = transferBody('payerfsp', 'payeefsp', '100');
  const resent = JSON.parse(JSON.stringify(reordered(body), null, 2));
  t.is(requestHash(resent), requestHash(body));
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value));
        if (requestHash(reordered(parsed)) !== requestHash(parsed)) throw new Error(`key order changed the hash of ${JSON.stringify(parsed)}`);
      }),
    ),
  );
});

test('a body with any detail changed hashes otherwise, down to an array’s order', (t) => {
  const body = transferBody('payerfsp', 'payeefsp', '100');
  const hash = requestHash(body);
  t.not(requestHash({ ...body, amount: { ...body.amount, amount: '100.5' } }), hash, 'the amount');
  t.not(requestHash({ ...body, amount: { ...body.amount, currency: 'EUR' } }), hash, 'the currency');
  t.not(requestHash({ ...body, payeeFsp: 'otherfsp' }), hash, 'the payee');
  t.not(requestHash({ ...body, extensionList: { extension: [{ key: 'k', value: 'v' }] } }), hash, 'an element added');
  t.not(requestHash({ list: [1, 2] }), requestHash({ list: [2, 1] }));
  t.not(requestHash({ amount: '1' }), requestHash({ amount: 1 }), 'a string is not a number');
});

test('the hash is the hex SHA-256 of the canonical JSON (RFC 8785): keys sorted, no whitespace', (t) => {
  t.is(requestHash({ b: 1, a: [true, null], c: { z: 'é', y: 1.5 } }), sha256Hex('{"a":[true,null],"b":1,"c":{"y":1.5,"z":"é"}}'));
  t.regex(requestHash({ transferId: 'x' }), /^[0-9a-f]{64}$/);
});
