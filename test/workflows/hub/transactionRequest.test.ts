import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { PayeeFsp, PayerFsp } from '../../../activities/shared/contracts/searchAttributes';
import type {
  AuthorizationQuery,
  AuthorizationsIDPutResponse,
  TransactionRequestsIDPutResponse,
  TransactionRequestsPostRequest,
} from '../../../activities/shared/contracts/bodies';
import {
  authorizationSignal,
  repeatedTransactionRequestSignal,
  transactionRequestAnswerSignal,
  transactionRequestQuery,
  type transactionRequest,
} from '../../../workflows/hub/transactionRequest';
import { transactionRequestBody } from '../../helpers/fspiopBodies';
import { failedWorkflowTasks } from '../../helpers/histories';
import { errorCodesTo, fspiopHeaders, hubMessages, receivedCallback, receivedRequest, deliveredByHub } from '../../helpers/hubMessages';
import { meanwhile, rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, HOUR, DAY } from '../../helpers/stubbedWorkflows';

// The hub's transaction request workflow (Document 2, /transactionRequests and /authorizations) on the time-skipping
// server, with stub record and delivery activities: the payee FSP's request goes to the payer FSP, whose answers come
// back; the authorization rounds pass through it; 3301 if no answer comes by the expiration. Serial: each test moves
// the one server clock the file shares.
/** The payee FSP (a merchant's) asks the payer FSP to approve a payment. */
const PAYEE = 'merchantfsp';
const PAYER = 'payerfsp';

const stubs = new StubActivities({
  registerTransactionRequest: async ({ destination }: { destination?: string }) => ({ payerFsp: destination ?? PAYER, repeat: false, idleMs: DAY }),
  answerTransactionRequest: async () => undefined,
  answerFollowUp: async () => undefined,
  ...deliveredByHub,
});
const test = stubbedWorkflowTest('hub', stubs);

/** The payee FSP's request of 10 USD, expiring `aheadMs` past the server's clock (or naming no expiration), started as the gateway starts it. */
async function requested(t: { context: StubbedWorkflows }, aheadMs: number | null = HOUR) {
  const { expiration: _none, ...withoutExpiration } = transactionRequestBody(PAYEE, PAYER, '10');
  const body: TransactionRequestsPostRequest = aheadMs === null ? withoutExpiration : { ...withoutExpiration, expiration: await t.context.expiration(aheadMs) };
  const input = receivedRequest(body, PAYEE, PAYER);
  const handle = await t.context.client.workflow.start<typeof transactionRequest>('transactionRequest', {
    workflowId: workflowIds.transactionRequest(body.transactionRequestId),
    taskQueue: t.context.taskQueue,
    args: [input],
    typedSearchAttributes: [
      { key: PayerFsp, value: PAYER },
      { key: PayeeFsp, value: PAYEE },
    ],
  });
  return { body, input, handle };
}

const forwarded = () => stubs.next('deliver', (d) => d.to === PAYER && d.method === 'POST');

/** The payer FSP's PUT /transactionRequests/{ID}. */
const answer = (transactionRequestState: TransactionRequestsIDPutResponse['transactionRequestState'], from = PAYER) => ({
  kind: 'answer' as const,
  callback: receivedCallback<TransactionRequestsIDPutResponse>({ transactionId: '8e4c3a7e-0b1d-4c52-9e8b-6a7d0f4a1c11', transactionRequestState }, from, PAYEE),
});

const query: AuthorizationQuery = { authenticationType: 'OTP', retriesLeft: '2', amount: '10', currency: 'USD' };
const queryString = 'authenticationType=OTP&retriesLeft=2&amount=10&currency=USD';

test.serial(
  'the request goes to the payer FSP byte for byte, whose RECEIVED goes back to the payee FSP; the conversation then stays open until a day passes with nothing said',
  async (t) => {
    const { body, input, handle } = await requested(t);
    const post = await forwarded();
    t.like(post, { path: '/transactionRequests', rawBody: input.rawBody, headers: input.headers });
    t.deepEqual(stubs.inputs('registerTransactionRequest'), [{ body, payeeFsp: PAYEE, destination: PAYER, requestHash: input.requestHash }]);

    const received = answer('RECEIVED');
    await handle.signal(transactionRequestAnswerSignal, received);
    await stubs.next('deliver', (d) => d.to === PAYEE);
    t.like(hubMessages(stubs)[1], {
      to: PAYEE,
      method: 'PUT',
      path: `/transactionRequests/${body.transactionRequestId}`,
      fromHub: false,
      rawBody: received.callback.rawBody,
    });
    t.like(stubs.inputs('answerTransactionRequest'), [{ transactionRequestId: body.transactionRequestId, state: 'RECEIVED', body: received.callback.rawBody }]);
    t.like(await handle.query(transactionRequestQuery), { state: 'RECEIVED', payeeFsp: PAYEE, payerFsp: PAYER });

    await t.context.environment.sleep(DAY - 60_000);
    t.is((await handle.describe()).status.name, 'RUNNING', 'RECEIVED is not final: the authorization may follow');
    t.deepEqual(await handle.result(), { state: 'RECEIVED', payeeFsp: PAYEE, payerFsp: PAYER, authorizations: [] });
  },
);

test.serial("an authorization round passes through the conversation both ways, and the payer FSP's final answer closes it", async (t) => {
  const { body, handle } = await requested(t);
  await forwarded();
  await handle.signal(transactionRequestAnswerSignal, answer('RECEIVED'));

  const get = fspiopHeaders(PAYER, PAYEE);
  await handle.signal(authorizationSignal, { kind: 'authorizationGet', headers: get, query, queryString, version: '1.1' });
  t.like(await stubs.next('deliver', (d) => d.method === 'GET'), {
    to: PAYEE,
    path: `/authorizations/${body.transactionRequestId}?${queryString}`,
    headers: get,
  });
  const entered = receivedCallback<AuthorizationsIDPutResponse>(
    { authenticationInfo: { authentication: 'OTP', authenticationValue: '1234' }, responseType: 'ENTERED' },
    PAYEE,
    PAYER,
  );
  await handle.signal(authorizationSignal, { kind: 'authorizationAnswer', callback: entered, version: '1.1' });
  t.like(await stubs.next('deliver', (d) => d.method === 'PUT' && d.to === PAYER), {
    path: `/authorizations/${body.transactionRequestId}`,
    rawBody: entered.rawBody,
  });

  await handle.signal(transactionRequestAnswerSignal, answer('ACCEPTED'));
  t.deepEqual(await handle.result(), {
    state: 'ACCEPTED',
    payeeFsp: PAYEE,
    payerFsp: PAYER,
    authorizations: [{ request: query, responseType: 'ENTERED' }],
  });
  t.like(stubs.inputs('answerTransactionRequest'), [{ state: 'RECEIVED' }, { state: 'ACCEPTED' }]);
});

test.serial('a request nobody answers by its expiration an hour ahead gets 3301 from the hub, and is recorded EXPIRED', async (t) => {
  const { body, handle } = await requested(t);
  await forwarded();
  await t.context.environment.sleep(HOUR - 60_000);
  t.deepEqual(errorCodesTo(stubs, PAYEE), [], 'a minute before the expiration the request still waits');
  t.like(await handle.result(), { state: 'EXPIRED' });
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3301']);
  t.like(hubMessages(stubs)[1], { fromHub: true, path: `/transactionRequests/${body.transactionRequestId}/error` });
  t.like(stubs.inputs('answerTransactionRequest'), [{ state: 'EXPIRED' }]);
});

test.serial(
  "a payer FSP's answer that reaches the hub while it handles the expiry is told 3301 too and never reaches the payee FSP, who hears 3301 once; no workflow task fails",
  async (t) => {
    const { handle } = await requested(t);
    await forwarded();
    // The answer is signalled while the expiry is recorded, in the very workflow task that carries out the expiry.
    stubs.script({
      answerTransactionRequest: meanwhile(
        () => handle.signal(transactionRequestAnswerSignal, answer('RECEIVED')),
        () => undefined,
      ),
    });
    t.like(await handle.result(), { state: 'EXPIRED' });
    t.deepEqual(await failedWorkflowTasks(t.context.client, handle.workflowId), []);
    t.like(stubs.inputs('answerTransactionRequest'), [{ state: 'EXPIRED' }]);
    t.is(stubs.inputs('answerTransactionRequest').length, 1, 'recorded once');
    t.deepEqual(errorCodesTo(stubs, PAYEE), ['3301']);
    t.is(hubMessages(stubs).filter((m) => m.to === PAYEE).length, 1, 'the payee FSP hears the 3301 and nothing else');
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3301'], 'the late answer is told the request expired');
  },
);

test.serial('a request naming no expiration gets 3301 once the default minute of waiting for the first answer has passed', async (t) => {
  const { handle } = await requested(t, null);
  await forwarded();
  await t.context.environment.sleep(50_000);
  t.deepEqual(errorCodesTo(stubs, PAYEE), []);
  await t.context.environment.sleep(11_000);
  await stubs.next('deliverFromHub', (d) => d.to === PAYEE);
  t.like(await handle.result(), { state: 'EXPIRED' });
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3301']);
});

test.serial("the payer FSP's REJECTED ends the conversation at once and reaches the payee FSP unchanged", async (t) => {
  const { handle } = await requested(t);
  await forwarded();
  const rejected = answer('REJECTED');
  await handle.signal(transactionRequestAnswerSignal, rejected);
  t.like(await handle.result(), { state: 'REJECTED' });
  t.like(hubMessages(stubs)[1], { to: PAYEE, rawBody: rejected.callback.rawBody });
});

test.serial('a payer FSP that cannot be reached after every retry: the payee FSP gets 1001 at once, not at the expiration', async (t) => {
  stubs.script({
    deliver: async () => {
      throw new Error('connect ECONNREFUSED');
    },
  });
  const { handle } = await requested(t);
  t.like(await handle.result(), { state: 'ERROR' });
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['1001']);
});

test.serial('a request the switch refuses to register (no payer FSP named) is answered with the error and never forwarded', async (t) => {
  stubs.script({
    registerTransactionRequest: async () => {
      throw rejection('validationError', 'FSPIOP-Destination or payer.fspId must name the payer FSP');
    },
  });
  const { handle } = await requested(t);
  t.like(await handle.result(), { state: 'ERROR' });
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3100']);
  t.deepEqual(stubs.inputs('deliver'), []);
});

test.serial("only the payer FSP may answer: a stranger's answer is refused with 3100 and never reaches the payee FSP", async (t) => {
  const { handle } = await requested(t);
  await forwarded();
  await handle.signal(transactionRequestAnswerSignal, answer('REJECTED', 'mallory'));
  await stubs.next('deliverFromHub', (d) => d.to === 'mallory');
  t.deepEqual(errorCodesTo(stubs, 'mallory'), ['3100']);
  t.like(await handle.query(transactionRequestQuery), { state: 'REQUESTED' });
  await handle.signal(transactionRequestAnswerSignal, answer('REJECTED'));
  t.like(await handle.result(), { state: 'REJECTED' });
  t.is(hubMessages(stubs).filter((m) => m.to === PAYEE).length, 1);
});

test.serial('a duplicate request in progress: the same one is ignored, a changed one gets 3106', async (t) => {
  const { body, input, handle } = await requested(t);
  await forwarded();
  await handle.signal(repeatedTransactionRequestSignal, { requestHash: input.requestHash, headers: input.headers });
  const changed = receivedRequest({ ...body, amount: { amount: '11', currency: 'USD' } }, PAYEE, PAYER);
  await handle.signal(repeatedTransactionRequestSignal, { requestHash: changed.requestHash, headers: changed.headers });
  await stubs.next('deliverFromHub', (d) => d.to === PAYEE);
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3106']);
  await handle.signal(transactionRequestAnswerSignal, answer('REJECTED'));
  t.like(await handle.result(), { state: 'REJECTED' });
  t.is(stubs.inputs('deliver').filter((d) => d.method === 'POST').length, 1, 'forwarded once');
});

test.serial('a request the record shows answered long ago is answered from the record, not forwarded again', async (t) => {
  stubs.script({ registerTransactionRequest: async () => ({ payerFsp: PAYER, repeat: true, idleMs: DAY }) });
  const { body, input, handle } = await requested(t);
  t.like(await handle.result(), { state: 'REQUESTED' });
  t.like(stubs.inputs('answerFollowUp'), [
    { kind: 'repeatedTransactionRequest', transactionRequestId: body.transactionRequestId, requestHash: input.requestHash, requester: { source: PAYEE } },
  ]);
  t.deepEqual(hubMessages(stubs), []);
});

test.serial(
  "a payer FSP answering RECEIVED over and over goes on in fresh runs long before Temporal's history limit; every answer and the final one reach the payee FSP",
  async (t) => {
    const { body, handle } = await requested(t);
    const workflowId = workflowIds.transactionRequest(body.transactionRequestId);
    await forwarded();
    const flood = 600;
    for (let sent = 0; sent < flood; sent += 50)
      await Promise.all(Array.from({ length: 50 }, () => handle.signal(transactionRequestAnswerSignal, answer('RECEIVED'))));
    await handle.signal(transactionRequestAnswerSignal, answer('REJECTED'));
    t.like(await handle.result(), { state: 'REJECTED' });

    const toPayee = hubMessages(stubs).filter((m) => m.to === PAYEE);
    t.is(toPayee.length, flood + 1);
    t.is(toPayee.at(-1)?.body.transactionRequestState, 'REJECTED');
    t.is((await t.context.client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe()).status.name, 'CONTINUED_AS_NEW');
    const last = await t.context.client.workflow.getHandle(workflowId).describe();
    t.not(last.runId, handle.firstExecutionRunId);
    t.deepEqual(
      [last.typedSearchAttributes.get(PayerFsp), last.typedSearchAttributes.get(PayeeFsp)],
      [PAYER, PAYEE],
      'an operator finds the last run by its FSPs',
    );
    t.is(stubs.inputs('deliver').filter((d) => d.method === 'POST').length, 1, 'the request was forwarded once, not by each run');
  },
);
