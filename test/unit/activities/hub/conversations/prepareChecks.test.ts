import test from 'ava';
import { checkRequest } from '../../../../../activities/hub/conversations/prepareChecks';
import { hubRefusalOf } from '../../../../../activities/shared/platform/hubError';
import { type Expiration, instantOf, parseExpiration } from '../../../../../activities/shared/contracts/expiry';

// central-ledger's prepare check of a transfer's (or a bulk's) expiration: the request is refused 3100 unless its
// expiration lies ahead of the switch's clock; one lapsing at the very instant it is checked could never commit.

const expiration = parseExpiration('2030-01-01T09:00:00.000+09:00') as Expiration;
const request = { payerFsp: 'payerfsp', payeeFsp: 'payeefsp', expiration };

test('a transfer whose expiration lies ahead passes, even by a millisecond', (t) => {
  t.is(
    hubRefusalOf(() => checkRequest(request, instantOf(expiration) - 1)),
    undefined,
  );
});

test('a transfer whose expiration is now or past is refused 3100, naming the expiration as it came', (t) => {
  for (const now of [instantOf(expiration), instantOf(expiration) + 1, Date.UTC(2030, 0, 2)]) {
    t.deepEqual(
      hubRefusalOf(() => checkRequest(request, now)),
      {
        errorCode: '3100',
        errorDescription: 'Generic validation error - expiration 2030-01-01T09:00:00.000+09:00 is not in the future',
      },
    );
  }
});

test('the expiration is judged by the instant it names, not by its wall clock: 09:00 at +09:00 is midnight UTC', (t) => {
  t.is(
    hubRefusalOf(() => checkRequest(request, Date.UTC(2029, 11, 31, 23, 59, 59, 999))),
    undefined,
  );
  t.is(hubRefusalOf(() => checkRequest(request, Date.UTC(2030, 0, 1)))?.errorCode, '3100');
});
