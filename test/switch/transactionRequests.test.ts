import crypto from 'node:crypto';
import test from 'ava';
import { TransactionRequestRecord } from '../../activities/hub/db/switchEntities';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { transactionRequestBody } from '../helpers/fspiopBodies';
import { followUpsRun, runsOf, signalsTo } from '../helpers/histories';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { PayeeFsp, PayerFsp } from '../../activities/shared/contracts/searchAttributes';
import type { TransactionRequestView } from '../../workflows/hub/transactionRequest';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;
const isRequest = (id: string) => (r: { method: string; path: string; body?: any }) =>
  r.method === 'POST' && r.path === '/transactionRequests' && r.body?.transactionRequestId === id;

/** The payer FSP answers every transaction request it is sent, in the state given. */
function answering(payer: SimulatedDfsp, state: 'RECEIVED' | 'REJECTED') {
  payer.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transactionRequests') return;
    await hub.fspiop('PUT', `/transactionRequests/${request.body.transactionRequestId}`, {
      source: payer.name,
      destination: request.headers['fspiop-source'] as string,
      body: { transactionRequestState: state },
      headers: { 'fspiop-signature': 'payer-signature' },
    });
  });
}

/** The workflow has ended: what follows is answered from the record. */
async function ended(transactionRequestId: string): Promise<void> {
  await hub.worker.client.workflow.getHandle(workflowIds.transactionRequest(transactionRequestId)).result();
}

test('a transaction request reaches the payer FSP unchanged and its RECEIVED answer reaches the payee FSP', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  answering(payer, 'RECEIVED');
  // The body names the parties as Mojaloop's SDK does (swapped); the switch routes by FSPIOP-Destination only.
  const body = transactionRequestBody(payee.name, payer.name, '12.5');
  const sent = JSON.stringify(body, null, 2);
  const ack = await hub.fspiop('POST', '/transactionRequests', {
    source: payee.name,
    destination: payer.name,
    body: sent,
    headers: { 'fspiop-signature': 'sig' },
  });
  t.is(ack.status, 202);
  const forwarded = await payer.waitFor(isRequest(body.transactionRequestId));
  t.is(forwarded.raw, sent, "the payer FSP receives the payee FSP's bytes");
  t.is(forwarded.headers['fspiop-source'], payee.name);
  t.is(forwarded.headers['fspiop-signature'], 'sig');
  const answer = await payee.waitFor(isPut(`/transactionRequests/${body.transactionRequestId}`));
  t.deepEqual(answer.body, { transactionRequestState: 'RECEIVED' });
  t.is(answer.headers['fspiop-source'], payer.name);
  t.is(answer.headers['fspiop-signature'], 'payer-signature');
  t.is(answer.headers.accept, undefined, 'callbacks carry no Accept');
});

test('without FSPIOP-Destination the request goes to the payer FSP named in payer.fspId, which the switch names as its destination', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '3');
  body.payer.fspId = payer.name;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, body });
  const forwarded = await payer.waitFor(isRequest(body.transactionRequestId));
  t.is(forwarded.headers['fspiop-source'], payee.name);
  t.is(forwarded.headers['fspiop-destination'], payer.name);
  t.deepEqual(forwarded.body, body);
});

test('a transaction request naming no payer FSP gets error 3100', async (t) => {
  const payee = await hub.provision();
  const body = transactionRequestBody(payee.name, 'unused', '3');
  delete body.payer.fspId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, body });
  const error = await payee.waitFor(isPut(`/transactionRequests/${body.transactionRequestId}/error`));
  t.is(error.body.errorInformation.errorCode, '3100');
  t.is(error.headers['fspiop-source'], HUB_ID);
});

test('a transaction request to an FSP that is not an active participant gets error 1001, as from Mojaloop', async (t) => {
  const payee = await hub.provision();
  const inactive = await hub.provision();
  await hub.admin.call('PUT', `/participants/${inactive.name}`, { isActive: false });
  for (const destination of ['nosuchfsp', inactive.name]) {
    const body = transactionRequestBody(payee.name, destination, '3');
    await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination, body });
    t.is((await payee.waitFor(isPut(`/transactionRequests/${body.transactionRequestId}/error`))).body.errorInformation.errorCode, '1001', destination);
  }
  t.is(inactive.received.length, 0);
});

test('the payer FSP may answer more than once; a REJECTED answer is kept and a later GET gets it again', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  answering(payer, 'RECEIVED');
  const body = transactionRequestBody(payee.name, payer.name, '7');
  const id = body.transactionRequestId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payee.waitFor(isPut(`/transactionRequests/${id}`));
  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'REJECTED' } });
  await ended(id);
  const answers = () => payee.received.filter(isPut(`/transactionRequests/${id}`)).map((r) => r.body.transactionRequestState);
  t.deepEqual(answers(), ['RECEIVED', 'REJECTED']);

  t.is((await hub.fspiop('GET', `/transactionRequests/${id}`, { source: payee.name, destination: payer.name })).status, 202);
  await payee.waitFor(() => answers().length === 3);
  t.deepEqual(answers(), ['RECEIVED', 'REJECTED', 'REJECTED']);
  t.is(payer.received.filter((r) => r.method === 'GET').length, 0, 'the switch answered from its record');
});

test('GET /transactionRequests/{ID} for an ID the switch does not know gets error 3206', async (t) => {
  const payee = await hub.provision();
  const id = crypto.randomUUID();
  await hub.fspiop('GET', `/transactionRequests/${id}`, { source: payee.name });
  t.is((await payee.waitFor(isPut(`/transactionRequests/${id}/error`))).body.errorInformation.errorCode, '3206');
});

test('a rejected transaction request is answered for the retention period only; after it, GET gets 3206', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  answering(payer, 'REJECTED');
  const body = transactionRequestBody(payee.name, payer.name, '7');
  const id = body.transactionRequestId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await ended(id);
  const record = await hub.services.db.read((manager) => manager.findOneByOrFail(TransactionRequestRecord, { transactionRequestId: id }));
  t.is(record.state, 'REJECTED');
  const longAgo = new Date(Date.now() - 31 * 86_400_000);
  await hub.services.db.transaction((manager) => manager.update(TransactionRequestRecord, { transactionRequestId: id }, { completedDate: longAgo }));
  await hub.fspiop('GET', `/transactionRequests/${id}`, { source: payee.name, destination: payer.name });
  t.is((await payee.waitFor(isPut(`/transactionRequests/${id}/error`))).body.errorInformation.errorCode, '3206');
  t.is(payer.received.filter((r) => r.method === 'GET').length, 0);
});

test('a GET before the payer FSP has answered goes to the payer FSP, whose answer reaches the payee FSP', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '2');
  const id = body.transactionRequestId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payer.waitFor(isRequest(id));
  await hub.fspiop('GET', `/transactionRequests/${id}`, { source: payee.name, destination: payer.name });
  const get = await payer.waitFor((r) => r.method === 'GET' && r.path === `/transactionRequests/${id}`);
  t.is(get.headers['fspiop-source'], payee.name);
  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'PENDING' } });
  t.is((await payee.waitFor(isPut(`/transactionRequests/${id}`))).body.transactionRequestState, 'PENDING');
});

test('duplicate rule for transaction requests: ignored in progress, answered again after the end, 3106 for a changed body', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '5');
  const id = body.transactionRequestId;
  const post = (sent: object) => hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body: sent });
  await post(body);
  await payer.waitFor(isRequest(id));
  await post(body);
  await post({ ...body, amount: { amount: '6', currency: 'USD' } });
  t.is((await payee.waitFor(isPut(`/transactionRequests/${id}/error`))).body.errorInformation.errorCode, '3106');
  await followUpsRun(hub.worker.client, 'transactionRequests', id);

  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'REJECTED' } });
  await ended(id);
  t.is(payer.received.filter(isRequest(id)).length, 1, 'the payer FSP was asked once');
  t.is(payee.received.filter(isPut(`/transactionRequests/${id}`)).length, 1, 'the repeat in progress was ignored');

  await post(body);
  await payee.waitFor(() => payee.received.filter(isPut(`/transactionRequests/${id}`)).length === 2);
  await post({ ...body, amount: { amount: '6', currency: 'USD' } });
  await payee.waitFor(() => payee.received.filter(isPut(`/transactionRequests/${id}/error`)).length === 2);
  const errors = payee.received.filter(isPut(`/transactionRequests/${id}/error`)).map((r) => r.body.errorInformation.errorCode);
  t.deepEqual(errors, ['3106', '3106']);
  t.is(payer.received.filter(isRequest(id)).length, 1);
});

test("only the payer FSP may answer a transaction request: a stranger's answer is refused with 3100 by the switch and reaches neither the payee FSP nor the request", async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const stranger = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '3');
  const id = body.transactionRequestId;
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payer.waitFor(isRequest(id));
  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: stranger.name, destination: payee.name, body: { transactionRequestState: 'ACCEPTED' } });
  t.is((await stranger.waitFor(isPut(`/transactionRequests/${id}/error`))).body.errorInformation.errorCode, '3100');
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.transactionRequest(id)), [], "no stranger's message is in the request's history");
  await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'RECEIVED' } });
  const answer = await payee.waitFor(isPut(`/transactionRequests/${id}`));
  t.is(answer.headers['fspiop-source'], payer.name);
  t.is(payee.received.filter(isPut(`/transactionRequests/${id}`)).length, 1);
});

test('POSTs repeating a transaction request in progress, and the payer FSP answering again after its final answer, are answered from the record, none of them a message to the request', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '4');
  const id = body.transactionRequestId;
  const post = () => hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  const answer = (transactionRequestState: string) =>
    hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState } });
  await post();
  await payer.waitFor(isRequest(id));
  for (let i = 0; i < 3; i++) t.is((await post()).status, 202);
  // An authorization round still open keeps the request's workflow running after the final answer.
  await hub.fspiop('GET', `/authorizations/${id}?authenticationType=OTP&retriesLeft=2&amount=4&currency=USD`, { source: payer.name, destination: payee.name });
  await payee.waitFor((r) => r.method === 'GET' && r.path.startsWith(`/authorizations/${id}`));
  await answer('REJECTED');
  t.is((await payee.waitFor(isPut(`/transactionRequests/${id}`))).body.transactionRequestState, 'REJECTED');

  await answer('REJECTED');
  await payee.waitFor(() => payee.received.filter(isPut(`/transactionRequests/${id}`)).length === 2);
  await post();
  await payee.waitFor(() => payee.received.filter(isPut(`/transactionRequests/${id}`)).length === 3);
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.transactionRequest(id)), ['authorization', 'transactionRequestAnswer']);
  t.is(payer.received.filter(isRequest(id)).length, 1, 'the payer FSP was asked once');
});

test("a payer FSP answering RECEIVED over and over never brings the request near Temporal's history limit: it goes on in fresh runs, and its final answer still reaches the payee FSP", async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const body = transactionRequestBody(payee.name, payer.name, '6');
  const id = body.transactionRequestId;
  const answer = (transactionRequestState: string) =>
    hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState } });
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payer.waitFor(isRequest(id));
  const flood = 600;
  for (let sent = 0; sent < flood; sent += 20) await Promise.all(Array.from({ length: 20 }, () => answer('RECEIVED')));
  await payee.waitFor(() => payee.received.filter(isPut(`/transactionRequests/${id}`)).length === flood, 300_000);
  await answer('REJECTED');

  const conversation = hub.worker.client.workflow.getHandle(workflowIds.transactionRequest(id));
  const outcome: TransactionRequestView = await conversation.result();
  t.is(outcome.state, 'REJECTED');
  const { typedSearchAttributes } = await conversation.describe();
  t.deepEqual(
    [typedSearchAttributes.get(PayerFsp), typedSearchAttributes.get(PayeeFsp)],
    [payer.name, payee.name],
    'an operator finds the last run by its FSPs',
  );
  t.is(payee.received.filter(isPut(`/transactionRequests/${id}`)).at(-1)?.body.transactionRequestState, 'REJECTED');
  const runs = await runsOf(hub.worker.client, workflowIds.transactionRequest(id));
  t.true(runs.length > 1, JSON.stringify(runs));
  t.true(
    runs.every((run) => run.events < 10_000),
    JSON.stringify(runs),
  );
  t.deepEqual(
    runs.map((run) => run.status),
    [...runs.slice(1).map(() => 'CONTINUED_AS_NEW'), 'COMPLETED'],
  );
});

test('a transaction request body that breaks its schema is refused synchronously', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  const { amount: _amount, ...body } = transactionRequestBody(payee.name, payer.name, '1');
  const refused = await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3102');
});

test('a transaction request the payer FSP refuses to take gets error 1001', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  payer.status = 400;
  const body = transactionRequestBody(payee.name, payer.name, '1');
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  t.is((await payee.waitFor(isPut(`/transactionRequests/${body.transactionRequestId}/error`))).body.errorInformation.errorCode, '1001');
});
