import crypto from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { ThirdpartyRequestsAuthorizationsPostRequest } from '../../../activities/shared/contracts/bodies';
import { participantWorkflowIds, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import {
  approve,
  initiate,
  partyLookup,
  transactionStatusQuery,
  type ThirdpartyTransactionIDInitiateRequest,
  type ThirdpartyTransactionIDApproveRequest,
} from '../../../workflows/pisp/appApi';
import type { pispTransaction } from '../../../workflows/pisp/pispTransaction';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE, HOUR, DAY } from '../../helpers/stubbedWorkflows';
import { messagesTo } from '../../helpers/peerMessages';

// The PISP connector's pispTransaction workflow (Document 1, "Payment flow") on the time-skipping server, driven as
// its outbound gateway drives it (the app's calls are updates) and as its inbound gateway feeds it (the switch's
// messages are signals, to it or to the exchange waiting for an answer), with stub activities for sending to the
// switch and signing. REQUEST_TIMEOUT_MS is a minute and expirations an hour, as configured in a scheme. Serial:
// each test moves the one server clock the file shares.
const DFSP = 'dfspa';
const PAYEE_FSP = 'payeefsp';
const TRANSACTIONS = 'thirdpartyRequests/transactions';
const AUTHORIZATIONS = 'thirdpartyRequests/authorizations';
const SIGNATURE = 'c2lnbmVkIHdpdGggdGhlIGNvbnNlbnQncyBrZXk';

const stubs = new StubActivities({
  sendToSwitch: async () => undefined,
  signChallenge: async () => SIGNATURE,
});
const test = stubbedWorkflowTest('pisp', stubs);

const message = messagesTo('pisp', DFSP);

/** The app's first call, which starts the conversation as the outbound gateway starts it: the update with the start. */
async function lookUp(t: { context: StubbedWorkflows }, answer?: (id: string) => PeerMessage) {
  const transactionRequestId = crypto.randomUUID();
  const partyIdentifier = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;
  const { client, taskQueue } = t.context;
  const workflowId = participantWorkflowIds.pispTransaction(transactionRequestId);
  const found = client.workflow.executeUpdateWithStart(partyLookup, {
    args: [{ transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier } }],
    startWorkflowOperation: new WithStartWorkflowOperation<typeof pispTransaction>('pispTransaction', {
      workflowId,
      taskQueue,
      args: [{ requestTimeoutMs: MINUTE }],
      workflowIdConflictPolicy: 'FAIL',
    }),
  });
  const id = `MSISDN/${partyIdentifier}`;
  await stubs.next('sendToSwitch', (m) => m.resource === 'parties' && m.id === id);
  if (answer) await client.workflow.getHandle(participantWorkflowIds.exchange('parties', id)).signal(peerMessageSignal, answer(id));
  return { transactionRequestId, partyIdentifier, handle: client.workflow.getHandle<typeof pispTransaction>(workflowId), found };
}

const party = (id: string) =>
  message(
    'parties',
    'answer',
    { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: id.split('/')[1], fspId: PAYEE_FSP }, name: 'Bob Payee' } },
    PAYEE_FSP,
    id,
  );

/** Lookup done, and the app's initiate of 10 USD from the linked account, expiring `aheadMs` past the server's clock. */
async function initiating(t: { context: StubbedWorkflows }, aheadMs = HOUR) {
  const looked = await lookUp(t, party);
  await looked.found;
  const body: ThirdpartyTransactionIDInitiateRequest = {
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: looked.partyIdentifier, fspId: PAYEE_FSP }, name: 'Bob Payee' },
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: 'dfspa.alice.savings', fspId: DFSP },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: await t.context.expiration(aheadMs),
  };
  const initiated = looked.handle.executeUpdate(initiate, { args: [body] });
  return { ...looked, body, initiated };
}

/** The DFSP's POST /thirdpartyRequests/authorizations for the request. */
function authorizationRequest(transactionRequestId: string, body: ThirdpartyTransactionIDInitiateRequest): ThirdpartyRequestsAuthorizationsPostRequest {
  return {
    authorizationRequestId: crypto.randomUUID(),
    transactionRequestId,
    challenge: crypto.randomBytes(32).toString('hex'),
    transferAmount: body.amount,
    payeeReceiveAmount: body.amount,
    fees: { amount: '0', currency: 'USD' },
    payer: body.payer,
    payee: body.payee,
    transactionType: body.transactionType,
    expiration: body.expiration,
  } as ThirdpartyRequestsAuthorizationsPostRequest;
}

/** Initiated, and the DFSP has asked for the user's authorization. */
async function authorizing(t: { context: StubbedWorkflows }, aheadMs = HOUR) {
  const started = await initiating(t, aheadMs);
  await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS && m.name === 'request');
  const authorization = authorizationRequest(started.transactionRequestId, started.body);
  await started.handle.signal(peerMessageSignal, message(AUTHORIZATIONS, 'request', authorization));
  await started.initiated;
  return { ...started, authorization };
}

const acceptGeneric: ThirdpartyTransactionIDApproveRequest = {
  authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
};
const completed = { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' };

test.serial(
  "a payment: the payee found, the request sent to the DFSP, its challenge signed with the account's consent, and the DFSP's PATCH the outcome",
  async (t) => {
    const { transactionRequestId, body, handle, initiated } = await initiating(t);
    const request = await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS && m.name === 'request');
    t.deepEqual(request, { to: DFSP, resource: TRANSACTIONS, name: 'request', body: { transactionRequestId, ...body } });
    const authorization = authorizationRequest(transactionRequestId, body);
    await handle.signal(peerMessageSignal, message(AUTHORIZATIONS, 'request', authorization));
    t.deepEqual(await initiated, { authorization, currentState: 'authorizationReceived' });

    const approved = handle.executeUpdate(approve, { args: [acceptGeneric] });
    const answer = await stubs.next('sendToSwitch', (m) => m.resource === AUTHORIZATIONS);
    t.deepEqual(stubs.inputs('signChallenge'), [{ account: body.payer.partyIdentifier, dfsp: DFSP, challenge: authorization.challenge }]);
    t.deepEqual(answer, {
      to: DFSP,
      resource: AUTHORIZATIONS,
      name: 'answer',
      id: authorization.authorizationRequestId,
      body: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: SIGNATURE } },
    });
    await handle.signal(
      peerMessageSignal,
      message(TRANSACTIONS, 'answer', { transactionId: crypto.randomUUID(), transactionRequestState: 'RECEIVED' }, DFSP, transactionRequestId),
    );
    await handle.signal(peerMessageSignal, message(TRANSACTIONS, 'patch', completed, DFSP, transactionRequestId));
    t.deepEqual(await approved, { transactionStatus: completed, currentState: 'transactionStatusReceived' });
    t.like(await handle.result(), { state: 'transactionStatusReceived', transactionStatus: completed, transactionRequestState: 'ACCEPTED' });
    t.like(await handle.query(transactionStatusQuery), { currentState: 'transactionStatusReceived', transactionStatus: completed });
  },
);

test.serial("party lookup: the payee FSP's error is partyLookupFailure with it, and the conversation is over", async (t) => {
  const { found, handle } = await lookUp(t, (id) =>
    message('parties', 'error', { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } }, PAYEE_FSP, id),
  );
  t.like(await found, { currentState: 'partyLookupFailure', errorInformation: { errorCode: '3204' } });
  t.like(await handle.result(), { state: 'partyLookupFailure' });
});

test.serial('party lookup: no answer within REQUEST_TIMEOUT_MS is partyLookupFailure with 2004', async (t) => {
  const { found, handle } = await lookUp(t);
  await t.context.environment.sleep(MINUTE);
  t.like(await found, { currentState: 'partyLookupFailure', errorInformation: { errorCode: '2004' } });
  t.like(await handle.result(), { state: 'partyLookupFailure' });
});

test.serial('initiate: no authorization request within REQUEST_TIMEOUT_MS is answered errored 2004', async (t) => {
  const { initiated, handle } = await initiating(t);
  await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS);
  await t.context.environment.sleep(MINUTE);
  t.like(await initiated, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
  t.like(await handle.result(), { state: 'errored' });
});

test.serial('initiate: a request expiring before REQUEST_TIMEOUT_MS is over is answered errored 3301 at its expiration', async (t) => {
  const { initiated, handle } = await initiating(t, 30_000);
  await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS);
  await t.context.environment.sleep(30_000);
  t.like(await initiated, { currentState: 'errored', errorInformation: { errorCode: '3301' } });
  t.like(await handle.result(), { state: 'errored', errorInformation: { errorCode: '3301' } });
});

test.serial("initiate: the DFSP's error answers it errored with the DFSP's ErrorInformation", async (t) => {
  const { transactionRequestId, initiated, handle } = await initiating(t);
  await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS);
  const refusal = { errorCode: '7101', errorDescription: 'Transaction request failed DFSP validation' };
  await handle.signal(peerMessageSignal, message(TRANSACTIONS, 'error', { errorInformation: refusal }, DFSP, transactionRequestId));
  t.deepEqual(await initiated, { currentState: 'errored', errorInformation: refusal });
  t.like(await handle.result(), { state: 'errored', errorInformation: refusal });
});

test.serial(
  "an authorization request or error from anyone but the request's DFSP is not the DFSP's: the user is asked only the DFSP's challenge",
  async (t) => {
    const { transactionRequestId, body, initiated, handle } = await initiating(t);
    await stubs.next('sendToSwitch', (m) => m.resource === TRANSACTIONS);
    await handle.signal(peerMessageSignal, message(AUTHORIZATIONS, 'request', authorizationRequest(transactionRequestId, body), 'mallory'));
    await handle.signal(
      peerMessageSignal,
      message(TRANSACTIONS, 'error', { errorInformation: { errorCode: '6003', errorDescription: 'Downstream failure' } }, 'mallory', transactionRequestId),
    );
    const authorization = authorizationRequest(transactionRequestId, body);
    await handle.signal(peerMessageSignal, message(AUTHORIZATIONS, 'request', authorization));
    t.deepEqual(await initiated, { authorization, currentState: 'authorizationReceived' });
    t.like(await handle.result(), { state: 'expired' });
  },
);

test.serial(
  'approve: no outcome within REQUEST_TIMEOUT_MS answers the app errored 2004, but the conversation listens on, and a PATCH before the expiration is the outcome',
  async (t) => {
    const { transactionRequestId, handle } = await authorizing(t);
    const approved = handle.executeUpdate(approve, { args: [acceptGeneric] });
    await stubs.next('sendToSwitch', (m) => m.resource === AUTHORIZATIONS);
    await t.context.environment.sleep(MINUTE);
    t.like(await approved, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
    t.like(await handle.query(transactionStatusQuery), { currentState: 'awaitingTransactionStatus' });

    await t.context.environment.sleep(HOUR - 2 * MINUTE);
    await handle.signal(peerMessageSignal, message(TRANSACTIONS, 'patch', completed, DFSP, transactionRequestId));
    t.like(await handle.result(), { state: 'transactionStatusReceived', transactionStatus: completed });
    t.like(await handle.query(transactionStatusQuery), { currentState: 'transactionStatusReceived', transactionStatus: completed });
  },
);

test.serial(
  'no outcome by the expiration: the PISP asks the DFSP once (GET), and with no final answer treats the request as failed, 3301, naming the state the DFSP last gave',
  async (t) => {
    const { transactionRequestId, handle } = await authorizing(t);
    const approved = handle.executeUpdate(approve, { args: [acceptGeneric] });
    await stubs.next('sendToSwitch', (m) => m.resource === AUTHORIZATIONS);
    await handle.signal(
      peerMessageSignal,
      message(TRANSACTIONS, 'answer', { transactionId: crypto.randomUUID(), transactionRequestState: 'RECEIVED' }, DFSP, transactionRequestId),
    );
    const outcome = await handle.result();
    t.like(await approved, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
    t.like(outcome, { state: 'expired', currentState: 'errored', errorInformation: { errorCode: '3301' }, transactionRequestState: 'RECEIVED' });
    t.deepEqual(
      stubs.inputs('sendToSwitch').filter((m) => m.resource === TRANSACTIONS && m.name === 'get'),
      [{ to: DFSP, resource: TRANSACTIONS, name: 'get', id: transactionRequestId }],
      'payment rule 8: one status query',
    );
  },
);

test.serial("the DFSP's answer to the status query, if not final, is what the PISP reports with 3301", async (t) => {
  stubs.script({
    sendToSwitch: async (sent: { resource: string; name: string; id: string }) => {
      if (sent.resource !== TRANSACTIONS || sent.name !== 'get') return;
      const answer = message(TRANSACTIONS, 'answer', { transactionId: crypto.randomUUID(), transactionRequestState: 'ACCEPTED' }, DFSP, sent.id);
      await t.context.client.workflow.getHandle(participantWorkflowIds.pispTransaction(sent.id)).signal(peerMessageSignal, answer);
    },
  });
  const { handle } = await authorizing(t);
  const approved = handle.executeUpdate(approve, { args: [acceptGeneric] });
  await stubs.next('sendToSwitch', (m) => m.resource === AUTHORIZATIONS);
  t.like(await handle.result(), { state: 'expired', errorInformation: { errorCode: '3301' }, transactionRequestState: 'ACCEPTED' });
  t.like(await approved, { currentState: 'errored' });
});

test.serial('a user who never approves before the expiration: the conversation ends expired, and nothing is signed or sent', async (t) => {
  const { handle } = await authorizing(t);
  t.like(await handle.result(), { state: 'expired', currentState: 'expired' });
  t.deepEqual(stubs.inputs('signChallenge'), []);
  t.false(stubs.inputs('sendToSwitch').some((m) => m.resource === AUTHORIZATIONS));
});

test.serial('an app that never initiates after the lookup: a day later the conversation is abandoned', async (t) => {
  const { found, handle } = await lookUp(t, party);
  await found;
  await t.context.environment.sleep(DAY - MINUTE);
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.like(await handle.result(), { state: 'abandoned', currentState: 'partyLookupSuccess' });
  t.false(stubs.inputs('sendToSwitch').some((m) => m.resource === TRANSACTIONS));
});

test.serial("approve REJECTED goes to the DFSP unsigned, and the DFSP's PATCH REJECTED is its answer", async (t) => {
  const { transactionRequestId, authorization, handle } = await authorizing(t);
  const approved = handle.executeUpdate(approve, { args: [{ authorizationResponse: { responseType: 'REJECTED' } }] });
  t.like(await stubs.next('sendToSwitch', (m) => m.resource === AUTHORIZATIONS), {
    id: authorization.authorizationRequestId,
    body: { responseType: 'REJECTED' },
  });
  const rejected = { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' };
  await handle.signal(peerMessageSignal, message(TRANSACTIONS, 'patch', rejected, DFSP, transactionRequestId));
  t.deepEqual(await approved, { transactionStatus: rejected, currentState: 'transactionStatusReceived' });
  t.deepEqual(stubs.inputs('signChallenge'), []);
  await handle.result();
});

test.serial('a GENERIC approval for an account no consent of this PISP covers is answered errored 7213, and nothing goes to the DFSP', async (t) => {
  stubs.script({
    signChallenge: async () => {
      throw rejection('consentInvalid', 'no GENERIC credential of this PISP covers the account');
    },
  });
  const { handle } = await authorizing(t);
  t.like(await handle.executeUpdate(approve, { args: [acceptGeneric] }), { currentState: 'errored', errorInformation: { errorCode: '7213' } });
  t.like(await handle.result(), { state: 'errored' });
  t.false(stubs.inputs('sendToSwitch').some((m) => m.resource === AUTHORIZATIONS));
});
