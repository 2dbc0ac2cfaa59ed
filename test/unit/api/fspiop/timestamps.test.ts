import test from 'ava';
import { FUTURE_TIMESTAMP, fromTheFuture, refuseFutureTimestamp } from '../../../../api/fspiop/timestamps';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// A payee's fulfil says when it completed the transfer. Mojaloop's hub refuses one from the future, allowing the
// participant's clock to run 200 ms ahead of its own (ml-api-adapter's callback time lag).

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

test('a completedTimestamp in the past, now, or within the clock skew allowed is not from the future; none at all is not either', (t) => {
  for (const timestamp of [inMs(-86_400_000), inMs(0), inMs(100), undefined]) t.false(fromTheFuture(timestamp), String(timestamp));
});

test('a completedTimestamp beyond the skew is from the future, whatever offset it is written in', (t) => {
  t.true(fromTheFuture(inMs(1_000)));
  const hourAhead = new Date(Date.now() + 3_600_000);
  const local = `${new Date(hourAhead.getTime() + 3_600_000).toISOString().slice(0, -1)}+01:00`;
  t.true(fromTheFuture(local), local);
  const now = `${new Date(Date.now() + 3_600_000).toISOString().slice(0, -1)}+01:00`;
  t.false(fromTheFuture(now), `${now} is now`);
});

test("a transfer's fulfil from the future is refused 400 with 3100, in central-ledger's words, which Mojaloop's tooling matches", (t) => {
  const refused = t.throws(() => refuseFutureTimestamp(inMs(60_000)), { instanceOf: HttpError });
  t.is(refused.status, 400);
  t.deepEqual(refused.errorInformation, { errorCode: '3100', errorDescription: `Generic validation error - ${FUTURE_TIMESTAMP}` });
  t.is(FUTURE_TIMESTAMP, 'completedTimestamp fails because future timestamp was provided');
  t.notThrows(() => refuseFutureTimestamp(inMs(-1_000)));
});
