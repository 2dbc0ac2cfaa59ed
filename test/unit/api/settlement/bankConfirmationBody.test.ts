import test, { type ExecutionContext } from 'ava';
import { HttpError } from '../../../../activities/shared/platform/httpError';
import { csvLines, jsonLines } from '../../../../api/settlement/bankConfirmationBody';

// The bank's confirmation as the route reads it, before anything looks at the settlement: its shape, not its content.

const refusal = (t: ExecutionContext, work: () => unknown) => t.throws(work, { instanceOf: HttpError })!.errorInformation;

test("the bank's CSV is read by its header, in any order and case, with quoted fields, CRLF and a byte-order mark", (t) => {
  const csv = '\uFEFFReference,AMOUNT,participant,Currency,accountId\r\n"BANK, ""7""",-12.50,payeefsp,USD,5\r\nB-8,12.5,payerfsp,USD,\r\n\r\n';
  t.deepEqual(csvLines(csv), [
    { participant: 'payeefsp', accountId: 5, currency: 'USD', amount: '-12.50', reference: 'BANK, "7"' },
    { participant: 'payerfsp', currency: 'USD', amount: '12.5', reference: 'B-8' },
  ]);
});

test('a reference may hold a line break inside its quotes; a CSV that ends inside quotes is malformed (3101)', (t) => {
  t.is(csvLines('participant,currency,amount,reference\np,USD,1,"two\nlines"\n')[0].reference, 'two\nlines');
  t.is(refusal(t, () => csvLines('participant,currency,amount,reference\np,USD,1,"open\n')).errorCode, '3101');
});

test('a CSV without one of its columns is refused, naming them', (t) => {
  t.regex(refusal(t, () => csvLines('participant,amount\np,1\n')).errorDescription, /lacks currency, reference/);
  t.regex(refusal(t, () => csvLines('')).errorDescription, /lacks participant, currency, amount, reference/);
});

test('JSON lines: participants by name or numeric ID, amounts only as decimal strings, accountId an integer', (t) => {
  t.deepEqual(jsonLines({ lines: [{ participant: 2, accountId: '3', currency: 'USD', amount: '1.5', reference: 'r' }] }), [
    { participant: '2', accountId: 3, currency: 'USD', amount: '1.5', reference: 'r' },
  ]);
  t.is(refusal(t, () => jsonLines({})).errorCode, '3102');
  t.regex(
    refusal(t, () => jsonLines({ lines: [{ participant: 'p', currency: 'USD', amount: 1.5, reference: 'r' }] })).errorDescription,
    /amount must be a decimal string/,
  );
  t.regex(
    refusal(t, () => jsonLines({ lines: [{ participant: 'p', accountId: 'x', currency: 'USD', amount: '1', reference: 'r' }] })).errorDescription,
    /accountId must be an integer/,
  );
  t.regex(refusal(t, () => jsonLines({ lines: ['p,USD,1'] })).errorDescription, /lines\[0\] must be an object/);
  t.regex(
    refusal(t, () => jsonLines({ lines: [{ participant: 'p'.repeat(1025), currency: 'USD', amount: '1', reference: 'r' }] })).errorDescription,
    /participant must be a string of at most 1024/,
  );
});

test('a missing reference is left to the check, which names it with its participant', (t) => {
  t.is(jsonLines({ lines: [{ participant: 'p', currency: 'USD', amount: '1' }] })[0].reference, '');
});
