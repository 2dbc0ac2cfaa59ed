import crypto from 'node:crypto';
import test from 'ava';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { playThirdpartyDfsp, restartTestPisp, startTestPisp, ThirdpartyDfspScript } from '../helpers/connectors';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { pollUntil } from '../helpers/polling';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
type TestPisp = Awaited<ReturnType<typeof startTestPisp>>;
let pisp: TestPisp;
let payee: SimulatedDfsp;
/** A party the payee DFSP holds, registered in the hub's account lookup. */
const payeeMsisdn = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;

useSwitch(test, async (started) => {
  hub = started;
  pisp = await startTestPisp(hub);
  payee = await hub.provision();
  const registered = await hub.fspiop('POST', `/participants/MSISDN/${payeeMsisdn}`, { source: payee.name, body: { fspId: payee.name } });
  if (registered.status !== 202) throw new Error(`the payee's party was not registered: ${registered.status}`);
  await payee.waitFor((r) => r.method === 'PUT' && r.path === `/participants/MSISDN/${payeeMsisdn}`);
  payee.react(async ({ method, path, headers }) => {
    if (method !== 'GET' || !path.startsWith('/parties/')) return;
    const known = path === `/parties/MSISDN/${payeeMsisdn}`;
    const answer = known
      ? { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn, fspId: payee.name }, name: 'Bob Payee' } }
      : { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } };
    const sent = await hub.fspiop('PUT', known ? path : `${path}/error`, { source: payee.name, destination: headers['fspiop-source'] as string, body: answer });
    if (sent.status >= 300) throw new Error(`the payee's answer to ${path} was refused: ${JSON.stringify(sent.body)}`);
  });
});

test.after.always(async () => {
  await pisp?.connector.stop();
});

/** A DFSP playing the third-party role, with an account of the user linked to the PISP by the app's calls (GENERIC). */
async function linkedDfsp(
  script: ThirdpartyDfspScript = {},
  credential: (challenge: string) => object = () => ({ credentialType: 'GENERIC' }),
  on: TestPisp = pisp,
): Promise<{ dfsp: SimulatedDfsp; account: string }> {
  const dfsp = await hub.provision();
  playThirdpartyDfsp(hub, dfsp, script);
  const consentRequestId = crypto.randomUUID();
  const account = `${dfsp.name}.${consentRequestId.slice(0, 8)}`;
  const requested = await on.app('POST', '/linking/request-consent', {
    toParticipantId: dfsp.name,
    consentRequestId,
    accounts: [{ accountNickname: 'Savings', address: account, currency: 'USD' }],
    actions: ['ACCOUNTS_TRANSFER'],
    userId: 'alice.example.org',
    callbackUri: 'https://pisp.example.org/linked',
  });
  if (requested.status !== 200) throw new Error(`request-consent: ${JSON.stringify(requested.body)}`);
  const authenticated = await on.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '123456' });
  const linked = await on.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, {
    credential: credential(authenticated.body.challenge),
  });
  if (linked.body.currentState !== 'accountsLinked') throw new Error(`pass-credential: ${JSON.stringify(linked.body)}`);
  return { dfsp, account };
}

/** The app's initiate body: 10 USD from `account` at `dfsp` to the payee, expiring after `expiresInMs`. */
const initiateBody = (dfsp: SimulatedDfsp, account: string, expiresInMs = 60_000) => ({
  payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn, fspId: payee.name }, name: 'Bob Payee' },
  payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: account, fspId: dfsp.name },
  amountType: 'SEND',
  amount: { amount: '10', currency: 'USD' },
  transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
  expiration: new Date(Date.now() + expiresInMs).toISOString(),
});

/** Party lookup, then initiate: the app's first two calls of a payment. */
async function initiated(dfsp: SimulatedDfsp, account: string, expiresInMs?: number, on: TestPisp = pisp) {
  const transactionRequestId = crypto.randomUUID();
  const lookup = await on.app('POST', '/thirdpartyTransaction/partyLookup', {
    transactionRequestId,
    payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn },
  });
  if (lookup.body.currentState !== 'partyLookupSuccess') throw new Error(`partyLookup: ${JSON.stringify(lookup.body)}`);
  const initiate = await on.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, initiateBody(dfsp, account, expiresInMs));
  return { transactionRequestId, initiate };
}

/** The user accepts, and the connector signs the challenge with the GENERIC key of the account's consent. */
const approveGeneric = (transactionRequestId: string, on: TestPisp = pisp) =>
  on.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, {
    authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
  });

/** A promise the test settles when it lets the DFSP go on. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

const stateOf = async (workflowId: string, on: TestPisp = pisp) =>
  (await on.connector.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(State);

test('party lookup: GET /parties finds the payee for the app to confirm; an unknown one is partyLookupFailure', async (t) => {
  const found = await pisp.app('POST', '/thirdpartyTransaction/partyLookup', {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn },
  });
  t.is(found.status, 200);
  t.is(found.body.currentState, 'partyLookupSuccess');
  t.like(found.body.party, { partyIdInfo: { partyIdentifier: payeeMsisdn, fspId: payee.name }, name: 'Bob Payee' });

  const unknown = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;
  await hub.fspiop('POST', `/participants/MSISDN/${unknown}`, { source: payee.name, body: { fspId: payee.name } });
  await payee.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/participants/MSISDN/${unknown}`));
  const missing = await pisp.app('POST', '/thirdpartyTransaction/partyLookup', {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdType: 'MSISDN', partyIdentifier: unknown },
  });
  t.is(missing.status, 200);
  t.is(missing.body.currentState, 'partyLookupFailure');
  t.is(missing.body.errorInformation.errorCode, '3204');
});

test('initiate is answered authorizationReceived with the DFSP’s challenge; approve signed by the connector ends COMPLETED', async (t) => {
  const { dfsp, account } = await linkedDfsp();
  const { transactionRequestId, initiate } = await initiated(dfsp, account);
  t.is(initiate.status, 200);
  t.is(initiate.body.currentState, 'authorizationReceived');
  const asked = await dfsp.waitFor((r) => r.method === 'POST' && r.path === '/thirdpartyRequests/transactions');
  t.is(asked.body.transactionRequestId, transactionRequestId);
  t.is(asked.headers['fspiop-destination'], dfsp.name);
  const { authorization } = initiate.body;
  t.is(authorization.transactionRequestId, transactionRequestId);
  t.regex(authorization.challenge, /^[0-9a-f]{64}$/);

  const approved = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, {
    authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
  });
  t.is(approved.status, 200);
  t.is(approved.body.currentState, 'transactionStatusReceived');
  // The DFSP's PATCH as it came, as Mojaloop's thirdparty-sdk answers (interop: the two PISPs' answers compared).
  t.like(approved.body.transactionStatus, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  t.false('transactionRequestId' in approved.body.transactionStatus);
  const verified = await dfsp.waitFor(
    (r) => r.method === 'PUT' && r.path.startsWith('/thirdpartyRequests/verifications/') && r.headers['fspiop-source'] === AUTH_SERVICE,
  );
  t.deepEqual(verified.body, { authenticationResponse: 'VERIFIED' }, "the hub's Auth service verified the connector's signature");
  t.is(await stateOf(participantWorkflowIds.pispTransaction(transactionRequestId)), 'transactionStatusReceived');
});

test('approve with a FIDO assertion made on the user’s device passes it on, and the Auth service verifies it', async (t) => {
  const device = await SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });
  const { dfsp, account } = await linkedDfsp({}, (challenge) => ({ payload: device.register(challenge) }));
  const { transactionRequestId, initiate } = await initiated(dfsp, account);
  const fidoSignedPayload = device.assert(initiate.body.authorization.challenge);
  const approved = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, {
    authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'FIDO', fidoSignedPayload } },
  });
  t.like(approved.body, { currentState: 'transactionStatusReceived', transactionStatus: { transactionState: 'COMPLETED' } });
  const answered = await dfsp.waitFor(
    (r) => r.method === 'PUT' && r.path === `/thirdpartyRequests/authorizations/${initiate.body.authorization.authorizationRequestId}`,
  );
  t.deepEqual(answered.body.signedPayload, { signedPayloadType: 'FIDO', fidoSignedPayload });
});

test('two payments looking up the same payee at once both find it', async (t) => {
  const lookups = [crypto.randomUUID(), crypto.randomUUID()].map((transactionRequestId) =>
    pisp.app('POST', '/thirdpartyTransaction/partyLookup', { transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn } }),
  );
  for (const found of await Promise.all(lookups)) t.is(found.body.currentState, 'partyLookupSuccess');
});

test('approve REJECTED tells the DFSP the user rejected, and is answered with its final PATCH', async (t) => {
  const { dfsp, account } = await linkedDfsp();
  const { transactionRequestId, initiate } = await initiated(dfsp, account);
  t.is(initiate.body.currentState, 'authorizationReceived');
  const rejected = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, { authorizationResponse: { responseType: 'REJECTED' } });
  t.is(rejected.status, 200);
  t.is(rejected.body.currentState, 'transactionStatusReceived');
  t.is(rejected.body.transactionStatus.transactionRequestState, 'REJECTED');
  const told = await dfsp.waitFor(
    (r) => r.method === 'PUT' && r.path === `/thirdpartyRequests/authorizations/${initiate.body.authorization.authorizationRequestId}`,
  );
  t.deepEqual(told.body, { responseType: 'REJECTED' });
});

test("a DFSP's error callback to the transaction request answers initiate errored with its ErrorInformation", async (t) => {
  const refusal = { errorCode: '6104', errorDescription: 'Thirdparty request rejection - account inactive' };
  const { dfsp, account } = await linkedDfsp({ transactionRequestError: refusal });
  const { transactionRequestId, initiate } = await initiated(dfsp, account);
  t.is(initiate.status, 500);
  t.deepEqual(initiate.body, { currentState: 'errored', errorInformation: refusal });
  t.is(await stateOf(participantWorkflowIds.pispTransaction(transactionRequestId)), 'errored');
});

test('a call waits REQUEST_TIMEOUT_MS for its callback at most, and is then answered errored with a timeout', async (t) => {
  const quick = await startTestPisp(hub, { requestTimeoutMs: 1_000 });
  t.teardown(() => quick.connector.stop());
  const silent = await hub.provision();
  const answered = await quick.app('GET', `/linking/accounts/${silent.name}/carol.example.org`);
  t.is(answered.status, 500);
  t.is(answered.body.errorInformation.errorCode, '2004');
  const dfsp = await hub.provision();
  playThirdpartyDfsp(hub, dfsp, { silentOnTransactions: true });
  const transactionRequestId = crypto.randomUUID();
  await quick.app('POST', '/thirdpartyTransaction/partyLookup', { transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn } });
  const initiate = await quick.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, initiateBody(dfsp, `${dfsp.name}.account`));
  t.is(initiate.status, 500);
  t.is(initiate.body.errorInformation.errorCode, '2004');
});

test('a GENERIC approval for an account no consent of this PISP covers is answered errored (7213) and nothing is signed', async (t) => {
  const dfsp = await hub.provision();
  playThirdpartyDfsp(hub, dfsp);
  const { transactionRequestId, initiate } = await initiated(dfsp, `${dfsp.name}.never-linked`);
  t.is(initiate.body.currentState, 'authorizationReceived');
  const approved = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, {
    authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
  });
  t.is(approved.status, 500);
  t.is(approved.body.errorInformation.errorCode, '7213');
  t.false(dfsp.received.some((r) => r.path.startsWith('/thirdpartyRequests/authorizations/')));
});

test('an initiate or approve body that is not the SDK’s is refused 400 with the field it lacks', async (t) => {
  const transactionRequestId = crypto.randomUUID();
  const { payer, ...withoutPayer } = initiateBody(payee, 'x');
  const missing = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, withoutPayer);
  t.is(missing.status, 400);
  t.is(missing.body.errorInformation.errorCode, '3102');
  t.regex(missing.body.errorInformation.errorDescription, /payer/);
  const noFsp = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, { ...withoutPayer, payer: { ...payer, fspId: undefined } });
  t.is(noFsp.status, 400);
  t.regex(noFsp.body.errorInformation.errorDescription, /payer.fspId/);
  const approve = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, { authorizationResponse: { responseType: 'MAYBE' } });
  t.is(approve.status, 400);
});

test('approve is answered errored at REQUEST_TIMEOUT_MS as the SDK answers it, but a PATCH that comes before the expiration is still the outcome, and GET /thirdpartyTransaction/{ID} tells it', async (t) => {
  const quick = await startTestPisp(hub, { requestTimeoutMs: 5_000 });
  t.teardown(() => quick.connector.stop());
  const outcome = gate();
  const { dfsp, account } = await linkedDfsp({ outcomeHeldUntil: outcome.held }, undefined, quick);
  const { transactionRequestId, initiate } = await initiated(dfsp, account, 120_000, quick);
  t.is(initiate.body.currentState, 'authorizationReceived');

  const approved = await approveGeneric(transactionRequestId, quick);
  t.is(approved.status, 500);
  t.is(approved.body.errorInformation.errorCode, '2004', 'no PATCH within REQUEST_TIMEOUT_MS');
  const meanwhile = await quick.app('GET', `/thirdpartyTransaction/${transactionRequestId}`);
  t.is(meanwhile.status, 200);
  t.like(
    meanwhile.body,
    { transactionRequestId, currentState: 'awaitingTransactionStatus' },
    'the request has not expired: the PISP still waits for its outcome',
  );

  outcome.release();
  const settled = await pollUntil(
    () => quick.app('GET', `/thirdpartyTransaction/${transactionRequestId}`),
    (read) => read.body.currentState !== 'awaitingTransactionStatus',
  );
  t.like(settled.body, {
    transactionRequestId,
    currentState: 'transactionStatusReceived',
    transactionStatus: { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' },
  });
  t.is(await stateOf(participantWorkflowIds.pispTransaction(transactionRequestId), quick), 'transactionStatusReceived');
});

test('an authorization request from a participant other than the DFSP the request went to is not one: the user signs only the DFSP’s challenge', async (t) => {
  const authorization = gate();
  const { dfsp, account } = await linkedDfsp({ authorizationHeldUntil: authorization.held });
  const mallory = await hub.provision();
  const transactionRequestId = crypto.randomUUID();
  await pisp.app('POST', '/thirdpartyTransaction/partyLookup', { transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn } });
  const initiating = pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, initiateBody(dfsp, account));
  const request = await dfsp.waitFor(
    (r) => r.method === 'POST' && r.path === '/thirdpartyRequests/transactions' && r.body.transactionRequestId === transactionRequestId,
  );

  // Delivered to the PISP as the switch delivers it: a 202 means its conversation has it.
  const forged = {
    authorizationRequestId: crypto.randomUUID(),
    transactionRequestId,
    challenge: 'f'.repeat(64),
    transferAmount: request.body.amount,
    payeeReceiveAmount: request.body.amount,
    fees: { amount: '0', currency: 'USD' },
    payer: request.body.payer,
    payee: request.body.payee,
    transactionType: request.body.transactionType,
    expiration: request.body.expiration,
  };
  const delivered = await fetch(`${pisp.connector.inboundUrl}/thirdpartyRequests/authorizations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'fspiop-source': mallory.name, 'fspiop-destination': pisp.name, date: new Date().toUTCString() },
    body: JSON.stringify(forged),
  });
  t.is(delivered.status, 202);
  authorization.release();

  const initiate = await initiating;
  t.is(initiate.body.currentState, 'authorizationReceived');
  t.not(initiate.body.authorization.challenge, forged.challenge, 'the forged challenge is not put to the user');
  const approved = await approveGeneric(transactionRequestId);
  t.like(approved.body, { currentState: 'transactionStatusReceived', transactionStatus: { transactionState: 'COMPLETED' } });
  t.false(mallory.received.some((r) => r.path.startsWith('/thirdpartyRequests/authorizations/')));
});

test('a transaction request error from a participant other than its DFSP is not the outcome: the PISP reports the DFSP’s PATCH', async (t) => {
  const outcome = gate();
  const { dfsp, account } = await linkedDfsp({ outcomeHeldUntil: outcome.held });
  const mallory = await hub.provision();
  const { transactionRequestId, initiate } = await initiated(dfsp, account);
  t.is(initiate.body.currentState, 'authorizationReceived');
  const approving = approveGeneric(transactionRequestId);
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/thirdpartyRequests/authorizations/${initiate.body.authorization.authorizationRequestId}`);

  // Delivered to the PISP as the switch delivers an error: a 200 means its conversation has it.
  const delivered = await fetch(`${pisp.connector.inboundUrl}/thirdpartyRequests/transactions/${transactionRequestId}/error`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'fspiop-source': mallory.name, 'fspiop-destination': pisp.name, date: new Date().toUTCString() },
    body: JSON.stringify({ errorInformation: { errorCode: '6003', errorDescription: 'Downstream failure' } }),
  });
  t.is(delivered.status, 200);
  outcome.release();

  const approved = await approving;
  t.like(approved.body, { currentState: 'transactionStatusReceived', transactionStatus: { transactionState: 'COMPLETED' } });
});

test('a conversation that is over keeps its ID: a party lookup under it is refused 422 as the SDK refuses one, and a later call 409', async (t) => {
  const transactionRequestId = crypto.randomUUID();
  const unknown = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;
  const lookup = () =>
    pisp.app('POST', '/thirdpartyTransaction/partyLookup', { transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier: unknown } });
  t.is((await lookup()).body.currentState, 'partyLookupFailure');
  await pollUntil(
    async () => (await pisp.connector.client.workflow.getHandle(participantWorkflowIds.pispTransaction(transactionRequestId)).describe()).status.name,
    (status) => status !== 'RUNNING',
  );
  const again = await lookup();
  t.is(again.status, 422);
  const late = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, initiateBody(payee, 'x'));
  t.is(late.status, 409);
  t.regex(late.body.errorInformation.errorDescription, /is over/);
});

test('a PISP connector restarted with the same GENERIC_KEY_SECRET still approves a payment from an account linked before the restart', async (t) => {
  let before = await startTestPisp(hub, { genericKeySecret: crypto.randomBytes(32).toString('base64') });
  t.teardown(() => before.connector.stop());
  const { dfsp, account } = await linkedDfsp({}, undefined, before);
  before = await restartTestPisp(before);
  const { transactionRequestId, initiate } = await initiated(dfsp, account, undefined, before);
  t.is(initiate.body.currentState, 'authorizationReceived');
  const approved = await approveGeneric(transactionRequestId, before);
  t.is(approved.status, 200);
  t.like(approved.body, { currentState: 'transactionStatusReceived', transactionStatus: { transactionState: 'COMPLETED' } });
});

test('an account linked twice is paid from under the consent the DFSP checks: the first granted that is still valid', async (t) => {
  const { dfsp, account } = await linkedDfsp();
  const consentRequestId = crypto.randomUUID();
  await pisp.app('POST', '/linking/request-consent', {
    toParticipantId: dfsp.name,
    consentRequestId,
    accounts: [{ accountNickname: 'Savings', address: account, currency: 'USD' }],
    actions: ['ACCOUNTS_TRANSFER'],
    userId: 'alice.example.org',
    callbackUri: 'https://pisp.example.org/linked',
  });
  await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '123456' });
  const relinked = await pisp.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, { credential: { credentialType: 'GENERIC' } });
  t.is(relinked.body.currentState, 'accountsLinked');
  const { transactionRequestId } = await initiated(dfsp, account);
  const approved = await approveGeneric(transactionRequestId);
  t.like(approved.body, { currentState: 'transactionStatusReceived', transactionStatus: { transactionState: 'COMPLETED' } });
});
