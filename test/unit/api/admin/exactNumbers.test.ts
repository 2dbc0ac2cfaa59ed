import test from 'ava';
import fc from 'fast-check';
import { refuseInexactNumbers } from '../../../../api/admin/exactNumbers';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// The admin API takes amounts and limits as JSON numbers, as central-ledger's document has them, but JSON.parse reads
// each into a double. A number the double cannot hold exactly is refused (3100) rather than booked as a neighbour.

const refusal = (text: string) => {
  try {
    refuseInexactNumbers(text);
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
};

test('a limit with more digits than a double keeps is refused 3100, and told to come as a string', (t) => {
  const refused = refusal('{"currency":"USD","limit":{"type":"NET_DEBIT_CAP","value":10000.000000000000001}}');
  t.is(refused?.status, 400);
  t.is(refused?.errorInformation.errorCode, '3100');
  t.is(
    refused?.errorInformation.errorDescription,
    'Generic validation error - 10000.000000000000001 has more digits than a JSON number holds; send it as a string',
  );
  for (const text of [
    '{"value":1.00000000000000001}',
    '{"alarmPercentage":10.0000000000000000001}',
    '[9007199254740993]',
    '{"a":{"b":[0.1000000000000000055511151231257828]}}',
  ]) {
    t.truthy(refusal(text), text);
  }
});

test('numbers a double holds exactly are taken, however they are written', (t) => {
  for (const text of [
    '{"value":4000}',
    '{"value":4000.5,"alarmPercentage":10}',
    '{"value":-0.25}',
    '{"value":1e3}',
    '{"value":1.5E-1}',
    '[9007199254740992]',
    '{}',
    '[]',
  ]) {
    t.is(refusal(text), undefined, text);
  }
});

test('digits inside strings are not numbers: a numeric string keeps every digit and is read as written', (t) => {
  t.is(refusal('{"value":"10000.000000000000001","name":"dfsp 1.00000000000000001"}'), undefined);
  t.is(refusal('{"note":"escaped \\" 1.00000000000000001 \\\\","value":1}'), undefined);
});

test('every number JSON.stringify writes is one JSON.parse reads back exactly, and is taken', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = JSON.stringify({ value });
        if (refusal(text)) throw new Error(`${text} refused`);
      }),
    ),
  );
});
