import crypto from 'node:crypto';
import test from 'ava';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { transactionRequestQuery, TransactionRequestView } from '../../workflows/hub/transactionRequest';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { transactionRequestBody } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { signalsTo } from '../helpers/histories';
import { pollUntil } from '../helpers/polling';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;
const OTP_QUERY = 'authenticationType=OTP&retriesLeft=2&amount=12.5&currency=USD';
const otpEntered = { authenticationInfo: { authentication: 'OTP', authenticationValue: '1234' }, responseType: 'ENTERED' };

/** A merchant (payee FSP) has asked a customer's FSP (payer FSP) to pay; the request has reached the payer FSP. */
async function forwardedRequest(): Promise<{ payee: SimulatedDfsp; payer: SimulatedDfsp; id: string }> {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '12.5');
  const id = body.transactionRequestId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payer.waitFor((r) => r.method === 'POST' && r.body?.transactionRequestId === id);
  return { payee, payer, id };
}

/** …and the payer FSP has answered RECEIVED. */
async function receivedRequest(): Promise<{ payee: SimulatedDfsp; payer: SimulatedDfsp; id: string }> {
  const { payee, payer, id } = await forwardedRequest();
  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'RECEIVED' } });
  await payee.waitFor(isPut(`/transactionRequests/${id}`));
  return { payee, payer, id };
}

const conversation = (id: string) => hub.worker.client.workflow.getHandle(workflowIds.transactionRequest(id));

test('an OTP authorization round trip: the GET reaches the payee FSP with its query intact, the answer reaches the payer FSP, and the transaction request records the round', async (t) => {
  const { payee, payer, id } = await receivedRequest();
  // The spec's current authorizations version is 1.0, which Mojaloop's SDK sends.
  const ack = await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name, version: '1.0' });
  t.is(ack.status, 202);
  const get = await payee.waitFor((r) => r.method === 'GET' && r.path.startsWith(`/authorizations/${id}`));
  t.is(get.path, `/authorizations/${id}?${OTP_QUERY}`);
  t.is(get.headers['fspiop-source'], payer.name);
  t.is(get.headers['content-type'], 'application/vnd.interoperability.authorizations+json;version=1.0');
  const asking = await conversation(id).query(transactionRequestQuery);
  t.deepEqual(asking.authorizations, [{ request: { authenticationType: 'OTP', retriesLeft: '2', amount: '12.5', currency: 'USD' } }]);
  t.is((await conversation(id).describe()).typedSearchAttributes.get(State), 'AUTHORIZING');

  const answer = JSON.stringify(otpEntered, null, 1);
  await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: answer, version: '1.0' });
  const passed = await payer.waitFor(isPut(`/authorizations/${id}`));
  t.is(passed.raw, answer);
  t.is(passed.headers['fspiop-source'], payee.name);

  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'ACCEPTED' } });
  const outcome: TransactionRequestView = await conversation(id).result();
  t.is(outcome.state, 'ACCEPTED');
  t.deepEqual(outcome.authorizations, [{ request: { authenticationType: 'OTP', retriesLeft: '2', amount: '12.5', currency: 'USD' }, responseType: 'ENTERED' }]);
  t.is((await conversation(id).describe()).typedSearchAttributes.get(State), 'ACCEPTED');
});

test("the payer FSP's own REJECTED for an authorization (as Mojaloop's SDK sends it) reaches the payee FSP and is recorded", async (t) => {
  const { payee, payer, id } = await receivedRequest();
  await hub.fspiop('PUT', `/authorizations/${id}`, { source: payer.name, destination: payee.name, body: { responseType: 'REJECTED' } });
  t.deepEqual((await payee.waitFor(isPut(`/authorizations/${id}`))).body, { responseType: 'REJECTED' });
  t.deepEqual((await conversation(id).query(transactionRequestQuery)).authorizations, [{ responseType: 'REJECTED' }]);
});

test('an authorization error from the payee FSP reaches the payer FSP', async (t) => {
  const { payee, payer, id } = await receivedRequest();
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  await payee.waitFor((r) => r.method === 'GET');
  const failure = { errorInformation: { errorCode: '5100', errorDescription: 'Generic Payee rejection' } };
  await hub.fspiop('PUT', `/authorizations/${id}/error`, { source: payee.name, destination: payer.name, body: failure });
  t.deepEqual((await payer.waitFor(isPut(`/authorizations/${id}/error`))).body, failure);
  const rounds = (await conversation(id).query(transactionRequestQuery)).authorizations;
  t.is(rounds[0].errorCode, '5100');
});

test('an authorization from an FSP outside the transaction request is refused with 3100 at the gateway: it goes nowhere and is no signal to the request', async (t) => {
  const { payee, payer, id } = await receivedRequest();
  const stranger = await hub.provision();
  const signalsBefore = await signalsTo(hub.worker.client, workflowIds.transactionRequest(id));
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: stranger.name, destination: payee.name });
  const refusal = await stranger.waitFor(isPut(`/authorizations/${id}/error`));
  t.is(refusal.body.errorInformation.errorCode, '3100');
  t.is(refusal.headers['fspiop-source'], HUB_ID);
  await hub.fspiop('PUT', `/authorizations/${id}`, { source: stranger.name, destination: payer.name, body: otpEntered });
  await stranger.waitFor((r) => isPut(`/authorizations/${id}/error`)(r) && r.body.errorInformation.errorCode === '3100' && r !== refusal);
  t.is(payee.received.filter((r) => r.method === 'GET').length, 0);
  t.false(payer.received.some((r) => r.path.startsWith(`/authorizations/${id}`)));
  t.deepEqual((await conversation(id).query(transactionRequestQuery)).authorizations, []);
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.transactionRequest(id)), signalsBefore);
});

test('an authorization with no transaction request in progress is passed on by FSPIOP-Destination', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const id = crypto.randomUUID();
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  t.is((await payee.waitFor((r) => r.method === 'GET')).path, `/authorizations/${id}?${OTP_QUERY}`);
  await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: otpEntered });
  t.deepEqual((await payer.waitFor(isPut(`/authorizations/${id}`))).body, otpEntered);
});

test('an authorization to an unknown FSP gets error 1001; one without FSPIOP-Destination gets 3100', async (t) => {
  const payer = await hub.provision();
  const unknown = crypto.randomUUID();
  await hub.fspiop('GET', `/authorizations/${unknown}?${OTP_QUERY}`, { source: payer.name, destination: 'nosuchfsp' });
  t.is((await payer.waitFor(isPut(`/authorizations/${unknown}/error`))).body.errorInformation.errorCode, '1001');
  const undirected = crypto.randomUUID();
  await hub.fspiop('GET', `/authorizations/${undirected}?${OTP_QUERY}`, { source: payer.name });
  t.is((await payer.waitFor(isPut(`/authorizations/${undirected}/error`))).body.errorInformation.errorCode, '3100');
});

test('GET /authorizations needs all four query keys, each well formed: 400 with 3102 for a missing one, 3101 or 3100 for a bad one', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const ask = (query: string) => hub.fspiop('GET', `/authorizations/${crypto.randomUUID()}?${query}`, { source: payer.name, destination: payee.name });
  const cases: Array<[string, string]> = [
    ['retriesLeft=1&amount=10&currency=USD', '3102'],
    ['authenticationType=OTP&amount=10&currency=USD', '3102'],
    ['authenticationType=OTP&retriesLeft=1&currency=USD', '3102'],
    ['authenticationType=OTP&retriesLeft=1&amount=10', '3102'],
    ['authenticationType=OTP&retriesLeft=one&amount=10&currency=USD', '3100'],
    ['authenticationType=OTP&retriesLeft=1&amount=10.50&currency=USD', '3100'],
    ['authenticationType=PIN&retriesLeft=1&amount=10&currency=USD', '3100'],
    ['authenticationType=OTP&retriesLeft=1&amount=10&currency=XYZ', '3100'],
    ['authenticationType=OTP&authenticationType=QRCODE&retriesLeft=1&amount=10&currency=USD', '3101'],
  ];
  for (const [query, code] of cases) {
    const refused = await ask(query);
    t.is(refused.status, 400, query);
    t.is(refused.body.errorInformation.errorCode, code, query);
  }
  t.is(payee.received.length, 0);
});

test('an authorization the payee FSP refuses to take is answered to the payer FSP with error 1001', async (t) => {
  const { payee, payer, id } = await receivedRequest();
  payee.status = 400;
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  const error = await payer.waitFor(isPut(`/authorizations/${id}/error`));
  t.is(error.body.errorInformation.errorCode, '1001');
  t.is(error.headers['fspiop-source'], HUB_ID);
});

test('an authorization the payer FSP sends before its first answer is passed on at once: the payer FSP has the request', async (t) => {
  const { payee, payer, id } = await forwardedRequest();
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  t.is((await payee.waitFor((r) => r.method === 'GET')).path, `/authorizations/${id}?${OTP_QUERY}`);
  const asked = await conversation(id).query(transactionRequestQuery);
  t.is(asked.state, 'REQUESTED');
  t.is(asked.authorizations.length, 1);
});

test('a transaction request takes ten authorization rounds: a further one is refused with 3100 to its sender and goes nowhere, and the payer FSP still answers the request', async (t) => {
  const { payee, payer, id } = await receivedRequest();
  const gets = () => payee.received.filter((r) => r.method === 'GET' && r.path.startsWith(`/authorizations/${id}`)).length;
  for (let round = 1; round <= 10; round++) {
    const query = `authenticationType=OTP&retriesLeft=${11 - round}&amount=12.5&currency=USD`;
    t.is((await hub.fspiop('GET', `/authorizations/${id}?${query}`, { source: payer.name, destination: payee.name })).status, 202);
    await payee.waitFor(() => gets() === round);
    await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: otpEntered });
    await payer.waitFor(() => payer.received.filter(isPut(`/authorizations/${id}`)).length === round);
  }

  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  const refusal = await payer.waitFor(isPut(`/authorizations/${id}/error`));
  t.is(refusal.body.errorInformation.errorCode, '3100');
  t.is(refusal.headers['fspiop-source'], HUB_ID);
  await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: otpEntered });
  t.is((await payee.waitFor(isPut(`/authorizations/${id}/error`))).body.errorInformation.errorCode, '3100');

  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'REJECTED' } });
  const outcome: TransactionRequestView = await conversation(id).result();
  t.is(outcome.state, 'REJECTED');
  t.is(outcome.authorizations.length, 10);
  t.is(gets(), 10);
  t.is(payer.received.filter(isPut(`/authorizations/${id}`)).length, 10);
  t.is(payee.received.filter(isPut(`/transactionRequests/${id}`)).at(-1)?.body.transactionRequestState, 'REJECTED');
});

test("an authorization answered with a responseType outside ENTERED, REJECTED and RESEND is taken and passed on, as Mojaloop's transaction-requests service takes it; one of more than 32 characters is 3100", async (t) => {
  const { payee, payer, id } = await receivedRequest();
  await hub.fspiop('GET', `/authorizations/${id}?${OTP_QUERY}`, { source: payer.name, destination: payee.name });
  await payee.waitFor((r) => r.method === 'GET' && r.path.startsWith(`/authorizations/${id}`));
  const long = await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: { responseType: 'X'.repeat(33) } });
  t.is(long.status, 400);
  t.is(long.body.errorInformation.errorCode, '3100');
  const taken = await hub.fspiop('PUT', `/authorizations/${id}`, { source: payee.name, destination: payer.name, body: { responseType: 'APPROVED' } });
  t.is(taken.status, 200);
  t.deepEqual((await payer.waitFor(isPut(`/authorizations/${id}`))).body, { responseType: 'APPROVED' });
  const recorded = await conversation(id).query(transactionRequestQuery);
  t.deepEqual(recorded.authorizations.at(-1), {
    request: { authenticationType: 'OTP', retriesLeft: '2', amount: '12.5', currency: 'USD' },
    responseType: 'APPROVED',
  });
  const state = await pollUntil(
    async () => (await conversation(id).describe()).typedSearchAttributes.get(State),
    (value) => value === 'AUTHORIZATION_APPROVED',
  );
  t.is(state, 'AUTHORIZATION_APPROVED');
});
