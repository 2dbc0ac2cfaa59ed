import test from 'ava';
import fc from 'fast-check';
import { bodyText } from '../../../../../activities/shared/platform/fspiopHttp';

// A signature covers the body's bytes, and Mojaloop's validators verify it over the body they parse and write again:
// sdk-standard-components 19 with its members sorted (safe-stable-stringify), 17.x in the order received
// (JSON.stringify). A body the hub or a connector writes must be the same bytes to both, or one of them refuses it (3105).

/** Writes a parsed value again with every object's members in sorted order, as sdk-standard-components 19 does. */
function sortedAgain(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedAgain).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value).sort();
    return `{${members.map((key) => `${JSON.stringify(key)}:${sortedAgain((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

test('a body written by the hub is the bytes both of Mojaloop’s validators write again from it: sorted (19.x) and as received (17.x)', (t) => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    // Member names as FSPIOP's: never integer-like, which a JavaScript object puts first whatever the order it read.
    object: fc.dictionary(
      fc.string().map((name) => `m${name}`),
      tie('value'),
      { maxKeys: 5 },
    ),
  })).object;
  fc.assert(
    fc.property(json, (body) => {
      const text = bodyText(body);
      const parsed = JSON.parse(text);
      return sortedAgain(parsed) === text && JSON.stringify(parsed) === text;
    }),
  );
  const error = { errorInformation: { errorDescription: 'Party not found', errorCode: '3204' } };
  t.is(bodyText(error), '{"errorInformation":{"errorCode":"3204","errorDescription":"Party not found"}}');
});
