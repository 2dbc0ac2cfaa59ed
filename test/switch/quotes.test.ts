import crypto from 'node:crypto';
import test from 'ava';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { signalsTo } from '../helpers/histories';
import { ilpPair, quoteBody } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

function quoteResponse(amount: string) {
  const { condition } = ilpPair();
  return {
    transferAmount: { amount, currency: 'USD' },
    expiration: new Date(Date.now() + 60_000).toISOString(),
    ilpPacket: Buffer.from('quote ilp packet').toString('base64url'),
    condition,
  };
}

/** The payee answers every quote request it is sent. */
function quoting(payee: SimulatedDfsp, payer: SimulatedDfsp) {
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/quotes') return;
    await hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, {
      source: payee.name,
      destination: payer.name,
      body: quoteResponse(request.body.amount.amount),
      headers: { 'fspiop-signature': 'payee-signature' },
    });
  });
}

test('a quote is forwarded to the payee FSP unchanged and its answer routed back to the payer', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  quoting(payee, payer);
  const body = quoteBody(payer.name, payee.name, '42.5');
  const ack = await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  t.is(ack.status, 202);
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.path === '/quotes');
  t.deepEqual(forwarded.body, body);
  t.is(forwarded.headers['fspiop-source'], payer.name);
  const answer = await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  t.is(answer.body.transferAmount.amount, '42.5');
  t.is(answer.headers['fspiop-source'], payee.name);
  t.is(answer.headers['fspiop-signature'], 'payee-signature');
});

test('a payee error for a quote reaches the payer unchanged', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const rejection = { errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } };
  payee.react(async (request) => {
    if (request.method === 'POST')
      await hub.fspiop('PUT', `/quotes/${request.body.quoteId}/error`, { source: payee.name, destination: payer.name, body: rejection });
  });
  const body = quoteBody(payer.name, payee.name, '1');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  t.deepEqual((await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`))).body, rejection);
});

test("a quote for an unknown payee FSP gets error 3201 in the quoting service's words", async (t) => {
  const payer = await hub.provision();
  const body = quoteBody(payer.name, 'nosuchfsp', '1');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: 'nosuchfsp', body });
  t.deepEqual((await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`))).body.errorInformation, {
    errorCode: '3201',
    errorDescription: "Destination FSP Error - Unsupported participant 'nosuchfsp'",
  });
});

test('duplicate rule for quotes: resent after completion, 3106 for a changed body', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  quoting(payee, payer);
  const body = quoteBody(payer.name, payee.name, '5');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  const first = await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  payer.received.length = 0;
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  const again = await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  t.deepEqual(again.body, first.body);
  t.is(payee.received.filter((r) => r.method === 'POST').length, 1, 'the payee was asked once');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body: { ...body, amount: { amount: '6', currency: 'USD' } } });
  t.is((await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`))).body.errorInformation.errorCode, '3106');
});

test('GET /quotes/{ID} resends the answer to the payer', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  quoting(payee, payer);
  const body = quoteBody(payer.name, payee.name, '9');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  payer.received.length = 0;
  t.is((await hub.fspiop('GET', `/quotes/${body.quoteId}`, { source: payer.name, destination: payee.name })).status, 202);
  t.is((await payer.waitFor(isPut(`/quotes/${body.quoteId}`))).body.transferAmount.amount, '9');
});

test("only the payee FSP may answer a quote: a stranger's answer is refused with 3100 by the switch and reaches neither the payer nor the quote", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const stranger = await hub.provision();
  const body = quoteBody(payer.name, payee.name, '3');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST' && r.body?.quoteId === body.quoteId);
  await hub.fspiop('PUT', `/quotes/${body.quoteId}`, { source: stranger.name, destination: payer.name, body: quoteResponse('3') });
  t.is((await stranger.waitFor(isPut(`/quotes/${body.quoteId}/error`))).body.errorInformation.errorCode, '3100');
  const error = { errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } };
  await hub.fspiop('PUT', `/quotes/${body.quoteId}/error`, { source: stranger.name, destination: payer.name, body: error });
  await stranger.waitFor(() => stranger.received.filter(isPut(`/quotes/${body.quoteId}/error`)).length === 2);
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.quote(body.quoteId)), [], "no stranger's message is in the quote's history");

  await hub.fspiop('PUT', `/quotes/${body.quoteId}`, { source: payee.name, destination: payer.name, body: quoteResponse('3') });
  const answer = await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  t.is(answer.headers['fspiop-source'], payee.name);
  t.is(payer.received.filter((r) => r.path.startsWith(`/quotes/${body.quoteId}`)).length, 1);
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.quote(body.quoteId)), ['quoteResponse']);
});

test('POSTs repeating a quote in progress are answered from its record, none of them a message to the quote', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = quoteBody(payer.name, payee.name, '4');
  const post = (sent: object) => hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body: sent });
  await post(body);
  await payee.waitFor((r) => r.method === 'POST' && r.body?.quoteId === body.quoteId);

  for (let i = 0; i < 3; i++) t.is((await post(body)).status, 202);
  await post({ ...body, amount: { amount: '40', currency: 'USD' } });
  t.is((await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`))).body.errorInformation.errorCode, '3106');
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.quote(body.quoteId)), []);

  await hub.fspiop('PUT', `/quotes/${body.quoteId}`, { source: payee.name, destination: payer.name, body: quoteResponse('4') });
  t.is((await payer.waitFor(isPut(`/quotes/${body.quoteId}`))).body.transferAmount.amount, '4');
  t.is(payee.received.filter((r) => r.method === 'POST' && r.body?.quoteId === body.quoteId).length, 1, 'the payee was asked once');
});

test('a quote whose expiration passed before it reached the switch is not forwarded: the payer gets error 3302 at once', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = quoteBody(payer.name, payee.name, '5', { expiresInMs: -1_000 });
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  const error = await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`));
  t.is(error.body.errorInformation.errorCode, '3302');
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.false(payee.received.some((r) => r.method === 'POST' && r.body?.quoteId === body.quoteId));
});

/** A quote answered by its payee, whose workflow has ended: what comes later is checked against the quote's record. */
async function endedQuote() {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const stranger = await hub.provision();
  quoting(payee, payer);
  const body = quoteBody(payer.name, payee.name, '7');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
  await payer.waitFor(isPut(`/quotes/${body.quoteId}`));
  await hub.worker.client.workflow.getHandle(workflowIds.quote(body.quoteId)).result();
  payee.react(undefined);
  return { payer, payee, stranger, quoteId: body.quoteId };
}

/** Lets the switch pass on whatever it would, so that a test can tell nothing went. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

test('an answer to a quote the switch does not know is refused to its sender with 3205 and goes nowhere', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const quoteId = crypto.randomUUID();
  t.is((await hub.fspiop('PUT', `/quotes/${quoteId}`, { source: payee.name, destination: payer.name, body: quoteResponse('1') })).status, 200);
  const refused = await payee.waitFor(isPut(`/quotes/${quoteId}/error`));
  t.is(refused.body.errorInformation.errorCode, '3205');
  t.is(refused.headers['fspiop-source'], HUB_ID);
  const error = { errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } };
  t.is((await hub.fspiop('PUT', `/quotes/${quoteId}/error`, { source: payee.name, destination: payer.name, body: error })).status, 200);
  await settle();
  t.false(payer.received.some((r) => r.path.startsWith(`/quotes/${quoteId}`)));
});

test("after a quote's workflow ended, only its payee may answer it: a stranger's answer is refused with 3100 and never reaches the payer", async (t) => {
  const { payer, stranger, quoteId } = await endedQuote();
  const before = payer.received.length;
  await hub.fspiop('PUT', `/quotes/${quoteId}`, { source: stranger.name, destination: payer.name, body: quoteResponse('7') });
  t.is((await stranger.waitFor(isPut(`/quotes/${quoteId}/error`))).body.errorInformation.errorCode, '3100');
  const error = { errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } };
  await hub.fspiop('PUT', `/quotes/${quoteId}/error`, { source: stranger.name, destination: payer.name, body: error });
  await settle();
  t.is(payer.received.length, before);
});

test("after a quote's workflow ended, its payee answers only to its payer: an answer naming another FSP is refused with 3100 and goes nowhere", async (t) => {
  const { payer, payee, stranger, quoteId } = await endedQuote();
  await hub.fspiop('PUT', `/quotes/${quoteId}`, { source: payee.name, destination: stranger.name, body: quoteResponse('7') });
  t.is((await payee.waitFor(isPut(`/quotes/${quoteId}/error`))).body.errorInformation.errorCode, '3100');
  await settle();
  t.false(stranger.received.some((r) => r.path.startsWith(`/quotes/${quoteId}`)));

  // The payee's late answer to the payer still reaches it, as an answer to a GET the switch passed on does.
  const before = payer.received.filter(isPut(`/quotes/${quoteId}`)).length;
  await hub.fspiop('PUT', `/quotes/${quoteId}`, { source: payee.name, destination: payer.name, body: quoteResponse('7') });
  await t.notThrowsAsync(payer.waitFor(() => payer.received.filter(isPut(`/quotes/${quoteId}`)).length === before + 1));
});
