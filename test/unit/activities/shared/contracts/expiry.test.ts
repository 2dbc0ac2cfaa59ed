import test from 'ava';
import fc from 'fast-check';
import { type Expiration, expirationAt, instantOf, lapsed, msUntil, parseExpiration } from '../../../../../activities/shared/contracts/expiry';

// An expiration (FSPIOP's DateTime) is read once and decided by one rule: the prepare checks, the workflows' timers,
// the ledger's refusal of a late commit and the reservation sweep all ask these functions.

const read = (text: string): Expiration => {
  const expiration = parseExpiration(text);
  if (!expiration) throw new Error(`${text} should be read`);
  return expiration;
};

test('an expiration is the instant its DateTime names, whatever zone it is written in', (t) => {
  const utc = Date.UTC(2016, 4, 24, 12, 38, 8, 699);
  for (const text of ['2016-05-24T12:38:08.699Z', '2016-05-24T08:38:08.699-04:00', '2016-05-24T18:08:08.699+05:30', '2016-05-24T12:38:08.699+00:00']) {
    t.is(instantOf(read(text)), utc, text);
  }
  t.is(instantOf(read('2016-05-25T02:38:08.699+13:59')), utc + 60_000, 'an offset is hours and minutes');
  t.is(instantOf(read('2016-05-24T12:38:08Z')), utc - 699, 'the fraction may be left out');
  t.is<string | undefined, string>(
    parseExpiration('2016-05-24T12:38:08.699Z'),
    '2016-05-24T12:38:08.699Z',
    'it stays the text that came, to be passed on as it came',
  );
});

test('a 29 February is an expiration only in a leap year', (t) => {
  t.is(instantOf(read('2024-02-29T00:00:00.000Z')), Date.UTC(2024, 1, 29));
  t.is(instantOf(read('2000-02-29T00:00:00.000Z')), Date.UTC(2000, 1, 29), 'every 400th year is a leap year');
  t.is(parseExpiration('2023-02-29T00:00:00.000Z'), undefined);
  t.is(parseExpiration('2100-02-29T00:00:00.000Z'), undefined, 'a century is not, unless it is a 400th');
});

test('text that names no real instant is no expiration, even where Date.parse would read one', (t) => {
  for (const text of [
    '2024-02-30T00:00:00.000Z', // Date.parse rolls it over into March
    '2024-04-31T00:00:00.000Z',
    '2024-13-01T00:00:00.000Z',
    '2024-00-10T00:00:00.000Z',
    '2024-01-01T24:00:00.000Z', // Date.parse reads the next midnight
    '2024-01-01T12:60:00.000Z',
    '2024-01-01T12:00:60.000Z',
    '2024-01-01T12:00:00.000+24:00',
    '2024-01-01T12:00:00.000', // no zone: Date.parse reads it in the hub's own zone
    '2024-01-01', // Date.parse reads a UTC midnight
    '1', // Date.parse reads 2001
    'Tue, 01 Jan 2030 00:00:00 GMT',
    '2024-01-01t12:00:00.000z',
    ' 2024-01-01T12:00:00.000Z',
    '',
    'tomorrow',
  ]) {
    t.is(parseExpiration(text), undefined, text);
  }
});

test('a well-formed DateTime, in any zone the FSPIOP pattern allows, is read as the instant Date.parse reads it', (t) => {
  const dateTime = fc
    .date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
    .chain((date) => fc.tuple(fc.constant(date), fc.integer({ min: -(19 * 60 + 59), max: 19 * 60 + 59 })));
  fc.assert(
    fc.property(dateTime, ([date, offsetMinutes]) => {
      // The instant written in the zone `offsetMinutes` east of UTC: its wall clock is shifted by the offset.
      const wall = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
      const offset = `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0')}:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}`;
      const text = `${wall}${offset}`;
      if (!/^[1-9]/.test(text)) return;
      const expiration = parseExpiration(text);
      return expiration !== undefined && instantOf(expiration) === date.getTime() && instantOf(expiration) === Date.parse(text);
    }),
  );
  t.pass();
});

test('an expiration has lapsed from its very instant on: at it nothing may commit any more, a millisecond before it still may', (t) => {
  const expiration = read('2030-01-01T00:00:00.000+01:00');
  const at = Date.UTC(2029, 11, 31, 23);
  t.false(lapsed(expiration, at - 1));
  t.true(lapsed(expiration, at), 'at the expiration instant itself');
  t.true(lapsed(expiration, at + 1));
  t.true(lapsed(expiration, new Date(at)), 'asked with the clock of a ledger step');
  t.true(lapsed(new Date(at), at), 'the instant a reservation stored is judged alike');
  t.false(lapsed(new Date(at), new Date(at - 1)));
});

test('the time left runs down to zero at the expiration and below it after, so a timer ends exactly when the rule says lapsed', (t) => {
  const expiration = expirationAt(Date.UTC(2030, 0, 1));
  const now = Date.UTC(2029, 11, 31, 23, 59);
  t.is(msUntil(expiration, now), 60_000);
  t.is(msUntil(expiration, Date.UTC(2030, 0, 1)), 0);
  t.true(lapsed(expiration, now + msUntil(expiration, now)));
  t.is(msUntil(expiration, Date.UTC(2030, 0, 1, 0, 0, 1)), -1_000);
  t.is(msUntil(new Date(Date.UTC(2030, 0, 1)), now), 60_000, 'a stored instant alike');
});

test('an expiration the code makes itself is UTC text that reads back as the same instant', (t) => {
  const instant = Date.UTC(2031, 6, 4, 5, 6, 7, 89);
  const made = expirationAt(instant);
  t.is<string, string>(made, '2031-07-04T05:06:07.089Z');
  t.is(parseExpiration(made), made);
  t.is(instantOf(made), instant);
});
