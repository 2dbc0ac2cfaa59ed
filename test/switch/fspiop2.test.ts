import test from 'ava';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair, quoteBody, transferBody, ulid } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

// FSPIOP 2.0 beside 1.x (Document 2, Versioning): what a 2.0 DFSP of Mojaloop's current release sends is taken, held
// to the 2.0 document, and passed on as sent; what the hub writes itself goes out in a version its addressee reads.

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const media = (resource: string, version: string) => `application/vnd.interoperability.${resource}+json;version=${version}`;

/** The payee fulfils every transfer it is asked for, in `transferState`, writing in `version`. */
function fulfilling(payee: SimulatedDfsp, fulfilment: string, version: string, transferState: 'COMMITTED' | 'RESERVED' = 'COMMITTED') {
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transfers') return;
    await hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
      source: payee.name,
      destination: request.body.payerFsp,
      version,
      body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState },
    });
  });
}

test('a 2.0 payer pays a 2.0 payee with a ULID: the request and the fulfilment pass through in 2.0, byte for byte', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment, '2.0');
  const body = transferBody(payer.name, payee.name, '12', { condition, transferId: ulid() });
  const sent = JSON.stringify(body, null, 1);
  const ack = await hub.fspiop('POST', '/transfers', {
    source: payer.name,
    destination: payee.name,
    version: '2.0',
    body: sent,
    headers: { accept: media('transfers', '2') },
  });
  t.is(ack.status, 202);
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
  t.is(forwarded.raw, sent);
  t.is(forwarded.headers['content-type'], media('transfers', '2.0'));
  t.is(forwarded.headers.accept, media('transfers', '2'));
  const answer = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}`);
  t.is(answer.body.transferState, 'COMMITTED');
  t.is(answer.headers['content-type'], media('transfers', '2.0'));
  t.is(await hub.position(payer), 12);
});

test("a 2.0 message is held to the 2.0 document: a property it does not define is 400 (3103 Too many elements), which 1.1's allows", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const extra = { ...transferBody(payer.name, payee.name, '1'), note: 'not in the schema' };
  const refused = await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, version: '2.0', body: extra });
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3103', refused.body.errorInformation.errorDescription);
  t.is(refused.headers.get('content-type'), media('transfers', '2.0'));
  const taken = await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, version: '1.1', body: { ...extra, transferId: ulid() } });
  t.is(taken.status, 202);
});

test("2.0's new optional fields pass through: a quote's converter and currencyConversion, a party's supportedCurrencies and personal kycInformation", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const quote = {
    ...quoteBody(payer.name, payee.name, '5'),
    quoteId: ulid(),
    transactionId: ulid(),
    converter: 'PAYER',
    currencyConversion: { sourceAmount: { currency: 'USD', amount: '5' }, targetAmount: { currency: 'EUR', amount: '4.6' } },
  };
  const sent = JSON.stringify(quote);
  const asked = await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, version: '2.0', body: sent });
  t.is(asked.status, 202, JSON.stringify(asked.body));
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.body?.quoteId === quote.quoteId);
  t.is(forwarded.raw, sent);

  const party = {
    party: {
      partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '2567001', fspId: payee.name },
      name: 'Ada',
      supportedCurrencies: ['USD', 'EUR'],
      personalInfo: { kycInformation: '{"metadata":{"format":"JSON"},"data":{"name":"Ada"}}' },
    },
  };
  const answer = JSON.stringify(party);
  const put = await hub.fspiop('PUT', '/parties/MSISDN/2567001', { source: payee.name, destination: payer.name, version: '2.0', body: answer });
  t.is(put.status, 200, JSON.stringify(put.body));
  const received = await payer.waitFor((r) => r.method === 'PUT' && r.path === '/parties/MSISDN/2567001');
  t.is(received.raw, answer);
});

test('a 2.0 payer and a 1.1 payee: the request passes on as its sender wrote it, and the hub writes to each in the version it speaks', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment, '1.1', 'RESERVED');
  const body = transferBody(payer.name, payee.name, '7', { condition, transferId: ulid() });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, version: '2.0', body });

  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
  t.is(forwarded.headers['content-type'], media('transfers', '2.0'), "the payer's request reaches the payee as written");
  // A payee's RESERVED is not the payer's news: the hub writes the COMMITTED itself, in the payer's version.
  const answer = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}`);
  t.like(answer.body, { transferState: 'COMMITTED' });
  t.is(answer.headers['fspiop-source'], HUB_ID);
  t.is(answer.headers['content-type'], media('transfers', '2.0'), "the hub's answer to the payer is in the payer's version, not the payee's");
  const patch = await payee.waitFor((r) => r.method === 'PATCH' && r.path === `/transfers/${body.transferId}`);
  t.is(patch.headers['fspiop-source'], HUB_ID);
  t.is(patch.headers['content-type'], media('transfers', '1.1'), "the hub's notification is in the payee's version, not the payer's");

  // The hub's own error to the 2.0 payer: a repeat of the request with a changed body (3106).
  const changed = { ...body, amount: { ...body.amount, amount: '8' } };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, version: '2.0', body: changed });
  const error = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}/error`);
  t.is(error.body.errorInformation.errorCode, '3106');
  t.is(error.headers['content-type'], media('transfers', '2.0'), "the hub's error is in the payer's version");
});

test('a 2.0 payee the hub has not yet heard from gets its errors in the version of the request it was sent', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = transferBody(payer.name, payee.name, '3', { transferId: ulid(), expiresInMs: 1500 });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, version: '2.0', body });
  const expiredToPayee = await payee.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}/error`);
  t.is(expiredToPayee.body.errorInformation.errorCode, '3303');
  t.is(expiredToPayee.headers['content-type'], media('transfers', '2.0'));
});
