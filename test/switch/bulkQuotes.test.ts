import crypto from 'node:crypto';
import test from 'ava';
import type { BulkQuotesPostRequest } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { followUpsRun, signalsTo } from '../helpers/histories';
import { bulkQuoteAnswer, bulkQuoteBody } from '../helpers/fspiopBodies';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const BULK_QUOTES_MEDIA_TYPE = 'application/vnd.interoperability.bulkQuotes+json;version=1.1';

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;
const isRequestFor = (body: BulkQuotesPostRequest) => (r: ReceivedRequest) => r.method === 'POST' && r.body?.bulkQuoteId === body.bulkQuoteId;
const puts = (dfsp: SimulatedDfsp, path: string) => dfsp.received.filter(isPut(path)).length;

/**
 * The payee answers every bulk quote it is sent, signed and spaced as it likes (byte for byte means the spacing
 * arrives too); returns the text of its answer to a bulkQuoteId.
 */
function quoting(payee: SimulatedDfsp, payer: SimulatedDfsp): (bulkQuoteId: string) => string {
  const answers = new Map<string, string>();
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/bulkQuotes') return;
    const text = JSON.stringify(bulkQuoteAnswer(request.body), null, 1);
    answers.set(request.body.bulkQuoteId, text);
    await hub.fspiop('PUT', `/bulkQuotes/${request.body.bulkQuoteId}`, {
      source: payee.name,
      destination: payer.name,
      body: text,
      headers: { 'fspiop-signature': 'payee-signature' },
    });
  });
  return (bulkQuoteId) => answers.get(bulkQuoteId) ?? 'no answer sent';
}

const post = (payer: SimulatedDfsp, payee: string | undefined, body: BulkQuotesPostRequest | string) =>
  hub.fspiop('POST', '/bulkQuotes', { source: payer.name, destination: payee, body });

/** A payer, a payee, and a bulk quote of two individual quotes that has reached the payee. */
async function forwardedBulkQuote() {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = bulkQuoteBody(payer.name, payee.name, 2);
  await post(payer, payee.name, body);
  await payee.waitFor(isRequestFor(body));
  return { payer, payee, body };
}

/** Resolves once the bulk quote's workflow has ended: what it sends has been sent, and what follows is answered from its record. */
const ended = (body: BulkQuotesPostRequest) =>
  hub.worker.client.workflow
    .getHandle(workflowIds.bulkQuote(body.bulkQuoteId))
    .result()
    .catch(() => undefined);

test('a bulk quote of several individual quotes reaches the payee FSP unchanged and its answer reaches the payer unchanged', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const answerTo = quoting(payee, payer);
  const body = bulkQuoteBody(payer.name, payee.name, 3);
  const sent = JSON.stringify(body, null, 2);
  const ack = await hub.fspiop('POST', '/bulkQuotes', {
    source: payer.name,
    destination: payee.name,
    body: sent,
    headers: { 'fspiop-signature': 'payer-signature' },
  });
  t.is(ack.status, 202);
  const forwarded = await payee.waitFor(isRequestFor(body));
  t.is(forwarded.path, '/bulkQuotes');
  t.is(forwarded.raw, sent);
  t.is(forwarded.headers['fspiop-source'], payer.name);
  t.is(forwarded.headers['fspiop-signature'], 'payer-signature');
  const answer = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  t.is(answer.raw, answerTo(body.bulkQuoteId));
  t.is(answer.headers['fspiop-source'], payee.name);
  t.is(answer.headers['fspiop-signature'], 'payee-signature');
  t.is(answer.headers['content-type'], BULK_QUOTES_MEDIA_TYPE);
});

test('a bulk quote of 1,000 individual quotes, the most the API allows, goes through both ways', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const answerTo = quoting(payee, payer);
  const body = bulkQuoteBody(payer.name, payee.name, 1_000);
  t.is((await post(payer, payee.name, body)).status, 202);
  const forwarded = await payee.waitFor(isRequestFor(body), 30_000);
  t.is(forwarded.raw, JSON.stringify(body));
  const answer = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`), 30_000);
  t.is(answer.body.individualQuoteResults.length, 1_000);
  t.is(answer.raw, answerTo(body.bulkQuoteId));
});

test('a bulk quote of 1,001 individual quotes is refused with 400 and error 3100, as Mojaloop maps a maxItems violation', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = bulkQuoteBody(payer.name, payee.name, 1_001);
  const refused = await post(payer, payee.name, body);
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3100');
  t.regex(refused.body.errorInformation.errorDescription, /individualQuotes/);
});

test("the payee FSP's error for a bulk quote reaches the payer unchanged", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const rejection = JSON.stringify({ errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } }, null, 1);
  payee.react(async (request) => {
    if (request.method === 'POST')
      await hub.fspiop('PUT', `/bulkQuotes/${request.body.bulkQuoteId}/error`, { source: payee.name, destination: payer.name, body: rejection });
  });
  const body = bulkQuoteBody(payer.name, payee.name, 2);
  await post(payer, payee.name, body);
  const error = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`));
  t.is(error.raw, rejection);
  t.is(error.headers['fspiop-source'], payee.name);
});

test('a bulk quote for a payee FSP that is not a participant gets error 3201 (destination FSP error)', async (t) => {
  const payer = await hub.provision();
  const body = bulkQuoteBody(payer.name, 'nosuchfsp', 1);
  await post(payer, 'nosuchfsp', body);
  const error = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`));
  t.is(error.body.errorInformation.errorCode, '3201');
  t.is(error.headers['content-type'], BULK_QUOTES_MEDIA_TYPE);
});

test('a bulk quote without FSPIOP-Destination goes to the one FSP all its payees belong to, which the switch names as its destination', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  quoting(payee, payer);
  const body = bulkQuoteBody(payer.name, payee.name, 2);
  await post(payer, undefined, body);
  t.is((await payee.waitFor(isRequestFor(body))).headers['fspiop-destination'], payee.name);
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`))).headers['fspiop-source'], payee.name);
});

test('a bulk quote without FSPIOP-Destination whose payees belong to different FSPs gets error 3100', async (t) => {
  const payer = await hub.provision();
  const one = await hub.provision();
  const other = await hub.provision();
  const body = bulkQuoteBody(payer.name, one.name, 2, { payeeFspOf: (index) => (index === 0 ? one.name : other.name) });
  await post(payer, undefined, body);
  const error = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`));
  t.is(error.body.errorInformation.errorCode, '3100');
  t.regex(error.body.errorInformation.errorDescription, /FSPIOP-Destination/);
});

test('a bulk quote to the payer FSP itself gets error 3100', async (t) => {
  const payer = await hub.provision();
  const body = bulkQuoteBody(payer.name, payer.name, 1);
  await post(payer, payer.name, body);
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`))).body.errorInformation.errorCode, '3100');
});

test('GET /bulkQuotes/{ID} after the answer resends the answer to the payer unchanged', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const answerTo = quoting(payee, payer);
  const body = bulkQuoteBody(payer.name, payee.name, 2);
  await post(payer, payee.name, body);
  await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  await ended(body);
  payer.received.length = 0;
  t.is((await hub.fspiop('GET', `/bulkQuotes/${body.bulkQuoteId}`, { source: payer.name })).status, 202);
  const again = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  t.is(again.raw, answerTo(body.bulkQuoteId));
  t.is(again.headers['fspiop-signature'], 'payee-signature');
  t.is(payee.received.filter((r) => r.method === 'GET').length, 0, 'the payee was not asked again');
});

test('GET /bulkQuotes/{ID} before the answer goes to the payee FSP, whose answer reaches the payer', async (t) => {
  const { payer, payee, body } = await forwardedBulkQuote();
  await hub.fspiop('GET', `/bulkQuotes/${body.bulkQuoteId}`, { source: payer.name });
  const get = await payee.waitFor((r) => r.method === 'GET' && r.path === `/bulkQuotes/${body.bulkQuoteId}`);
  t.is(get.headers['fspiop-source'], payer.name);
  t.is(get.headers['fspiop-destination'], payee.name);
  await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: payee.name, destination: payer.name, body: bulkQuoteAnswer(body) });
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`))).headers['fspiop-source'], payee.name);
});

test('GET /bulkQuotes/{ID} of a bulk quote the switch does not know gets error 3209', async (t) => {
  const payer = await hub.provision();
  const unknown = crypto.randomUUID();
  t.is((await hub.fspiop('GET', `/bulkQuotes/${unknown}`, { source: payer.name })).status, 202);
  const error = await payer.waitFor(isPut(`/bulkQuotes/${unknown}/error`));
  t.is(error.body.errorInformation.errorCode, '3209');
  t.is(error.headers['content-type'], BULK_QUOTES_MEDIA_TYPE);
});

test('duplicate rule for bulk quotes: a repeat in progress is ignored, a repeat after the answer gets it again, a changed one gets 3106', async (t) => {
  const { payer, payee, body } = await forwardedBulkQuote();
  t.is((await post(payer, payee.name, body)).status, 202);
  await followUpsRun(hub.worker.client, 'bulkQuotes', body.bulkQuoteId);
  const answer = JSON.stringify(bulkQuoteAnswer(body));
  await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: payee.name, destination: payer.name, body: answer });
  await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  await ended(body);
  t.is(puts(payer, `/bulkQuotes/${body.bulkQuoteId}`), 1, 'the repeat in progress got no answer of its own');
  t.is(puts(payer, `/bulkQuotes/${body.bulkQuoteId}/error`), 0);

  payer.received.length = 0;
  await post(payer, payee.name, body);
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`))).raw, answer);
  t.is(payee.received.filter((r) => r.method === 'POST').length, 1, 'the payee was asked once');

  const changed = { ...body, individualQuotes: body.individualQuotes.slice(1) };
  await post(payer, payee.name, changed);
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`))).body.errorInformation.errorCode, '3106');
});

test("only the payee FSP may answer a bulk quote: a stranger's answer is refused with 3100 by the switch and reaches neither the payer nor the bulk quote", async (t) => {
  const { payer, payee, body } = await forwardedBulkQuote();
  const stranger = await hub.provision();
  await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: stranger.name, destination: payer.name, body: bulkQuoteAnswer(body) });
  const refusal = await stranger.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`));
  t.is(refusal.body.errorInformation.errorCode, '3100');
  t.is(refusal.headers['content-type'], BULK_QUOTES_MEDIA_TYPE);
  t.deepEqual(await signalsTo(hub.worker.client, workflowIds.bulkQuote(body.bulkQuoteId)), []);
  await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: payee.name, destination: payer.name, body: bulkQuoteAnswer(body) });
  const answer = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  t.is(answer.headers['fspiop-source'], payee.name);
  await ended(body);
  t.is(puts(payer, `/bulkQuotes/${body.bulkQuoteId}`), 1);
});

test("the payee's PUT /bulkQuotes/{ID} that no bulk quote waits for still reaches the payer", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  quoting(payee, payer);
  const body = bulkQuoteBody(payer.name, payee.name, 1);
  await post(payer, payee.name, body);
  await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`));
  await ended(body);
  payer.received.length = 0;
  const later = JSON.stringify(bulkQuoteAnswer(body));
  await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: payee.name, destination: payer.name, body: later });
  t.is((await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}`))).raw, later);
});
