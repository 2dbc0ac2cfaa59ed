import test from 'ava';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { HUB_REJECTION, errorInformation } from '../../../../activities/shared/contracts/errors';
import { expirationAt } from '../../../../activities/shared/contracts/expiry';
import { answerWindow, asRefusal, DEFAULT_ANSWER_WAIT_MS, deliveryFailureOf, errorOf, refusalOf, rejectionOf } from '../../../../workflows/kit/failures';

// How a workflow tells a business rejection (a rule the hub applied: limit exceeded, participant unknown) from a
// failure of infrastructure, and what each becomes in the error callback a DFSP receives.

const limit = errorInformation('payerLimitError', 'Payer FSP payerfsp would exceed its Net Debit Cap');
/** A business rejection as an activity raises it (activities/index.ts) and as a workflow receives it. */
const rejected = (information = limit) =>
  new ActivityFailure(
    'activity failed',
    'reserve',
    '1',
    RetryState.NON_RETRYABLE_FAILURE,
    'worker',
    ApplicationFailure.create({ type: HUB_REJECTION, nonRetryable: true, details: [information] }),
  );
const broken = () =>
  new ActivityFailure('activity failed', 'deliver', '2', RetryState.MAXIMUM_ATTEMPTS_REACHED, 'worker', ApplicationFailure.create({ message: 'ECONNREFUSED' }));

test("an activity's business rejection keeps the ErrorInformation its rule gave; any other failure has none", (t) => {
  t.deepEqual(rejectionOf(rejected()), limit);
  t.deepEqual(rejectionOf(rejected().cause), limit, 'the rejection itself, as an update receives it');
  for (const failure of [broken(), ApplicationFailure.create({ type: 'Other', details: [limit] }), new Error('boom'), undefined, 'text']) {
    t.is(rejectionOf(failure), undefined, String(failure));
  }
});

test('a conversation that fails for good tells the requester 2001 unless a rule rejected it, in which case it passes the rule’s code on', (t) => {
  t.deepEqual(errorOf(rejected()), limit);
  t.deepEqual(errorOf(broken()), { errorCode: '2001', errorDescription: 'Internal server error - the switch could not complete the request' });
});

test('a message that cannot be delivered is 1001, naming the participant: the switch itself did not fail', (t) => {
  t.deepEqual(deliveryFailureOf(broken(), 'payeefsp'), {
    errorCode: '1001',
    errorDescription: 'Destination communication error - payeefsp could not be reached',
  });
  const noEndpoint = errorInformation('destinationCommunicationError', 'payeefsp has no FSPIOP_CALLBACK_URL_TRANSFER_POST endpoint');
  t.deepEqual(deliveryFailureOf(rejected(noEndpoint), 'payeefsp'), noEndpoint, 'a rejection met on the way is passed on as it is');
});

test("an update's refusal carries its ErrorInformation as an activity's rejection does, so the gateway reads both alike", (t) => {
  const refusal = refusalOf('the transfer is already committed');
  t.true(refusal.nonRetryable);
  t.deepEqual(rejectionOf(refusal), { errorCode: '3100', errorDescription: 'Generic validation error - the transfer is already committed' });
  t.deepEqual(rejectionOf(refusalOf(limit)), limit);
  t.deepEqual(rejectionOf(t.throws(() => asRefusal(rejected()))), limit, 'an activity’s rejection is refused as it came');
  const other = broken();
  t.is(
    t.throws(() => asRefusal(other)),
    other,
    'anything else is left to fail as it is',
  );
});

test('a request is answered within its expiration, or within the default wait where it names none', (t) => {
  t.is(answerWindow(undefined), DEFAULT_ANSWER_WAIT_MS);
  t.is(DEFAULT_ANSWER_WAIT_MS, 60_000);
  const window = answerWindow(expirationAt(Date.now() + 30_000));
  t.true(window > 29_000 && window <= 30_000, String(window));
  t.true(answerWindow(expirationAt(Date.now() - 1_000)) < 0, 'an expiration passed leaves no time');
});
