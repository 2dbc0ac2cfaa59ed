import crypto from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { ObservedFacts } from '../../../activities/shared/contracts/observedConversations';
import { ConsentId, Currency, PayeeFsp, State } from '../../../activities/shared/contracts/searchAttributes';
import type { thirdpartyTransaction } from '../../../workflows/hub/thirdpartyTransaction';
import { observedConversationQuery, observedMessageSignal, type ObserverOutcome } from '../../../workflows/kit/observer';
import { observedAs, observedMessage, startObserving } from '../../helpers/observedMessages';
import { pollUntil } from '../../helpers/polling';
import { DAY, HOUR, MINUTE, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The observer of a third-party transaction (Document 1, "Payment flow") on the time-skipping server: the messages the
// switch passes reach it as the gateway signals them, and move it step by step to COMPLETED, REJECTED or FAILED; one
// not over by the request's expiration (at most a day ahead) is marked EXPIRED. It calls no activity. Serial: each test
// moves the one server clock the file shares.
const PISP = 'pispa';
const DFSP = 'dfspa';
const PAYEE_FSP = 'payeefsp';
const AUTH_SERVICE = 'centralauth';
const TRANSACTIONS = 'thirdpartyRequests/transactions';
const AUTHORIZATIONS = 'thirdpartyRequests/authorizations';
const VERIFICATIONS = 'thirdpartyRequests/verifications';

const test = stubbedWorkflowTest('hub', new StubActivities({}));

/** The PISP's POST /thirdpartyRequests/transactions of 10 USD to the payee FSP, expiring `aheadMs` past the server's clock (or naming no expiration). */
async function requested(t: ExecutionContext<StubbedWorkflows>, aheadMs: number | null = HOUR) {
  const transactionRequestId = crypto.randomUUID();
  const expiration = aheadMs === null ? undefined : await t.context.expiration(aheadMs);
  const facts: ObservedFacts = { currency: 'USD', payeeFsp: PAYEE_FSP, ...(expiration ? { expiration } : {}) };
  const workflowId = workflowIds.thirdpartyTransaction(transactionRequestId);
  const handle = await startObserving(
    t.context,
    'thirdpartyTransaction',
    workflowId,
    observedMessage(TRANSACTIONS, 'request', transactionRequestId, PISP, DFSP, facts),
  );
  return { transactionRequestId, workflowId, handle: t.context.client.workflow.getHandle<typeof thirdpartyTransaction>(handle.workflowId) };
}

/** The payment flow's messages after the request, in the document's order, each with the step it leads to. */
function flow(transactionRequestId: string, consentId: string, responseType = 'ACCEPTED') {
  const [quoteId, authorizationRequestId, verificationRequestId] = [1, 2, 3].map(() => crypto.randomUUID());
  return [
    { step: 'RECEIVED', message: observedMessage(TRANSACTIONS, 'answer', transactionRequestId, DFSP, PISP, { state: 'RECEIVED' }) },
    { step: 'QUOTED', message: observedMessage('quotes', 'request', quoteId, DFSP, PAYEE_FSP) },
    { step: 'AUTHORIZING', message: observedMessage(AUTHORIZATIONS, 'request', authorizationRequestId, DFSP, PISP) },
    {
      step: responseType === 'REJECTED' ? 'USER_REJECTED' : 'AUTHORIZED',
      message: observedMessage(AUTHORIZATIONS, 'answer', authorizationRequestId, PISP, DFSP, { responseType }),
    },
    { step: 'VERIFYING', message: observedMessage(VERIFICATIONS, 'request', verificationRequestId, DFSP, AUTH_SERVICE, { consentId }) },
    { step: 'VERIFIED', message: observedMessage(VERIFICATIONS, 'answer', verificationRequestId, AUTH_SERVICE, DFSP, { state: 'VERIFIED' }) },
  ];
}

test.serial(
  "the payment flow's messages move the transaction step by step to the DFSP's PATCH COMPLETED, which ends it; an operator finds it by consent, currency, payee FSP and state",
  async (t) => {
    const { transactionRequestId, workflowId, handle } = await requested(t);
    t.is((await observedAs(t.context.client, workflowId, 'REQUESTED')).state, 'REQUESTED');
    const consentId = crypto.randomUUID();
    for (const { step, message } of flow(transactionRequestId, consentId)) {
      await handle.signal(observedMessageSignal, message);
      t.is((await observedAs(t.context.client, workflowId, step)).state, step, `${message.resource} ${message.message}`);
    }
    await handle.signal(observedMessageSignal, observedMessage(TRANSACTIONS, 'patch', transactionRequestId, DFSP, PISP, { state: 'COMPLETED' }));
    t.deepEqual(await handle.result(), { state: 'COMPLETED', messages: 8 });

    const attributes = (await handle.describe()).typedSearchAttributes;
    t.deepEqual(
      [ConsentId, Currency, PayeeFsp, State].map((key) => attributes.get(key)),
      [consentId, 'USD', PAYEE_FSP, 'COMPLETED'],
    );
  },
);

test.serial("the user's rejection of the authorization is observed, and the DFSP's PATCH REJECTED ends the transaction REJECTED", async (t) => {
  const { transactionRequestId, workflowId, handle } = await requested(t);
  for (const { message } of flow(transactionRequestId, crypto.randomUUID(), 'REJECTED').slice(0, 4)) await handle.signal(observedMessageSignal, message);
  t.is((await observedAs(t.context.client, workflowId, 'USER_REJECTED')).state, 'USER_REJECTED', 'not yet over: the DFSP tells the PISP');
  await handle.signal(observedMessageSignal, observedMessage(TRANSACTIONS, 'patch', transactionRequestId, DFSP, PISP, { state: 'REJECTED' }));
  t.deepEqual(await handle.result(), { state: 'REJECTED', messages: 6 });
});

test.serial("a failed verification does not end the transaction; the DFSP's error that follows ends it FAILED", async (t) => {
  const { transactionRequestId, workflowId, handle } = await requested(t);
  const [received, quoted, authorizing, authorized, verifying] = flow(transactionRequestId, crypto.randomUUID());
  for (const { message } of [received, quoted, authorizing, authorized, verifying]) await handle.signal(observedMessageSignal, message);
  await handle.signal(observedMessageSignal, observedMessage(VERIFICATIONS, 'error', verifying.message.id, AUTH_SERVICE, DFSP, { errorCode: '7105' }));
  t.is((await observedAs(t.context.client, workflowId, 'VERIFICATION_FAILED')).state, 'VERIFICATION_FAILED');
  await handle.signal(observedMessageSignal, observedMessage(TRANSACTIONS, 'error', transactionRequestId, DFSP, PISP, { errorCode: '7105' }));
  t.deepEqual(await handle.result(), { state: 'FAILED', messages: 8 });
});

test.serial('messages out of order never move the transaction back: a RECEIVED after the quote leaves it QUOTED', async (t) => {
  const { transactionRequestId, handle } = await requested(t);
  const [received, quoted] = flow(transactionRequestId, crypto.randomUUID());
  await handle.signal(observedMessageSignal, quoted.message);
  await handle.signal(observedMessageSignal, received.message);
  const seen = await pollUntil(
    () => handle.query(observedConversationQuery),
    ({ messages }) => messages.length === 3,
  );
  t.is(seen.messages.length, 3, 'both were seen');
  t.is(seen.state, 'QUOTED');
  await handle.terminate('the test is over');
});

test.serial("a PISP polling with GET: each resource's first GET is kept, the others only counted", async (t) => {
  const { transactionRequestId, handle } = await requested(t);
  for (let polled = 0; polled < 5; polled++) {
    await handle.signal(observedMessageSignal, observedMessage(TRANSACTIONS, 'get', transactionRequestId, PISP, DFSP));
  }
  const seen = await pollUntil(
    () => handle.query(observedConversationQuery),
    ({ repeatedGets }) => repeatedGets === 4,
  );
  t.is(seen.repeatedGets, 4);
  t.deepEqual(
    seen.messages.map(({ message }) => message),
    ['request', 'get'],
  );
  t.is(seen.state, 'REQUESTED', 'a GET moves nothing');
  await handle.terminate('the test is over');
});

/** Skips to a minute before `ms` after the start and checks the observer still waits, then awaits its end. */
async function endsAfter(
  t: ExecutionContext<StubbedWorkflows>,
  handle: { describe(): Promise<{ status: { name: string } }>; result(): Promise<ObserverOutcome> },
  ms: number,
) {
  await t.context.environment.sleep(ms - MINUTE);
  t.is((await handle.describe()).status.name, 'RUNNING', 'a minute before its deadline it still waits');
  return handle.result();
}

test.serial("a transaction not over by the request's expiration an hour ahead is marked EXPIRED then", async (t) => {
  const { transactionRequestId, handle } = await requested(t, HOUR);
  await handle.signal(observedMessageSignal, flow(transactionRequestId, crypto.randomUUID())[0].message);
  t.deepEqual(await endsAfter(t, handle, HOUR), { state: 'EXPIRED', messages: 2 });
  t.is((await handle.describe()).typedSearchAttributes.get(State), 'EXPIRED', "an operator counts them by State = 'EXPIRED'");
});

test.serial('a request naming no expiration is observed for an hour', async (t) => {
  const { handle } = await requested(t, null);
  t.deepEqual(await endsAfter(t, handle, HOUR), { state: 'EXPIRED', messages: 1 });
});

test.serial('a request whose expiration is years ahead is observed for a day at most', async (t) => {
  const { workflowId, handle } = await requested(t, 3_650 * DAY);
  const { deadline } = await t.context.client.workflow.getHandle(workflowId).query(observedConversationQuery);
  t.true(Date.parse(deadline) <= (await t.context.environment.currentTimeMs()) + DAY, 'its deadline is within a day');
  t.deepEqual(await endsAfter(t, handle, DAY), { state: 'EXPIRED', messages: 1 });
});
