import crypto from 'node:crypto';
import test from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { BulkItem, bulkItem, bulkTransferBody, transferBody } from '../helpers/fspiopBodies';
import { answering, codesOf, isBulkPost } from '../helpers/bulkPayees';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const position = (dfsp: SimulatedDfsp) => hub.position(dfsp);

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

/** The payee fulfils every item it is sent. */
function fulfilling(payee: SimulatedDfsp, items: BulkItem[]) {
  const fulfilments = new Map(items.map((item) => [item.transfer.transferId, item.fulfilment]));
  answering(hub, payee, (transferId) => ({ fulfilment: fulfilments.get(transferId)! }));
}

function postBulk(payer: SimulatedDfsp, payee: SimulatedDfsp, body: unknown, source = payer.name) {
  return hub.fspiop('POST', '/bulkTransfers', { source, destination: payee.name, body });
}

test("items beyond the payer's Net Debit Cap (4200) or liquidity cover (4001) are refused one by one while the rest go on; the payee gets only the accepted items, from the hub", async (t) => {
  const payee = await hub.provision();
  const capped = await hub.provision({ netDebitCap: 100, fundsIn: 1_000 });
  const poor = await hub.provision({ netDebitCap: 1_000, fundsIn: 50 });
  const cappedItems = [bulkItem('60'), bulkItem('50'), bulkItem('40')];
  const poorItems = [bulkItem('30'), bulkItem('30'), bulkItem('20')];
  fulfilling(payee, [...cappedItems, ...poorItems]);

  const cappedBody = bulkTransferBody(capped.name, payee.name, cappedItems);
  await postBulk(capped, payee, cappedBody);
  const forwarded = await payee.waitFor((r) => isBulkPost(r) && r.body.bulkTransferId === cappedBody.bulkTransferId);
  t.deepEqual(
    forwarded.body.individualTransfers.map((item: any) => item.transferId),
    [cappedItems[0], cappedItems[2]].map((item) => item.transfer.transferId),
  );
  t.is(forwarded.body.bulkQuoteId, cappedBody.bulkQuoteId);
  t.is(forwarded.headers['fspiop-source'], HUB_ID);
  t.is(forwarded.headers['fspiop-destination'], payee.name);
  t.is(forwarded.headers['fspiop-uri'], '/bulkTransfers');
  t.is(forwarded.headers['fspiop-http-method'], 'POST');
  t.is(forwarded.headers.accept, 'application/vnd.interoperability.bulkTransfers+json;version=1.1', 'a request carries Accept');
  t.deepEqual(codesOf(await capped.waitFor(isPut(`/bulkTransfers/${cappedBody.bulkTransferId}`))), ['fulfilled', '4200', 'fulfilled']);

  const poorBody = bulkTransferBody(poor.name, payee.name, poorItems);
  await postBulk(poor, payee, poorBody);
  t.deepEqual(codesOf(await poor.waitFor(isPut(`/bulkTransfers/${poorBody.bulkTransferId}`))), ['fulfilled', '4001', 'fulfilled']);
  t.is(await position(capped), 100);
  t.is(await position(poor), 50);
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

test('a bulk whose every item is refused is REJECTED at once: the payer gets each error, the payee nothing', async (t) => {
  const payer = await hub.provision({ netDebitCap: 10 });
  const payee = await hub.provision();
  const body = bulkTransferBody(payer.name, payee.name, [bulkItem('20'), bulkItem('0')]);
  await postBulk(payer, payee, body);
  const results = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  t.is(results.body.bulkTransferState, 'REJECTED');
  t.deepEqual(codesOf(results), ['4200', '3100']);
  t.false(payee.received.some(isBulkPost));
  t.is(await position(payer), 0);
});

test("the payee's PUT …/error releases every item; the payer gets that error from the hub and the bulk is REJECTED", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const rejection = { errorInformation: { errorCode: '5000', errorDescription: 'Generic Payee error' } };
  payee.react(async (request) => {
    if (isBulkPost(request))
      await hub.fspiop('PUT', `/bulkTransfers/${request.body.bulkTransferId}/error`, { source: payee.name, destination: HUB_ID, body: rejection });
  });
  const body = bulkTransferBody(payer.name, payee.name, [bulkItem('8'), bulkItem('9')]);
  await postBulk(payer, payee, body);
  const error = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`));
  t.deepEqual(error.body, rejection);
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.is(error.headers['content-type'], 'application/vnd.interoperability.bulkTransfers+json;version=1.1');
  t.is(await position(payer), 0);

  await hub.fspiop('GET', `/bulkTransfers/${body.bulkTransferId}`, { source: payer.name });
  const state = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  t.is(state.body.bulkTransferState, 'REJECTED');
  t.deepEqual(codesOf(state), ['5000', '5000']);
});

test('GET /bulkTransfers/{ID} answers the payer with every item and the payee with its own, a stranger with 3000 and an unknown bulk with 3210; each item is a transfer of its own', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const stranger = await hub.provision();
  const items = [bulkItem('3'), bulkItem('3', 'EUR'), bulkItem('4')];
  fulfilling(payee, items);
  const body = bulkTransferBody(payer.name, payee.name, items);
  await postBulk(payer, payee, body);
  await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  payer.received.length = 0;
  payee.received.length = 0;

  t.is((await hub.fspiop('GET', `/bulkTransfers/${body.bulkTransferId}`, { source: payer.name })).status, 202);
  const toPayer = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  t.is(toPayer.body.bulkTransferState, 'COMPLETED');
  t.truthy(toPayer.body.completedTimestamp);
  t.deepEqual(codesOf(toPayer), ['fulfilled', '3100', 'fulfilled']);
  await hub.fspiop('GET', `/bulkTransfers/${body.bulkTransferId}`, { source: payee.name });
  t.deepEqual(codesOf(await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))), ['fulfilled', 'fulfilled'], 'the payee sees the items it was sent');

  await hub.fspiop('GET', `/bulkTransfers/${body.bulkTransferId}`, { source: stranger.name });
  t.is((await stranger.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation.errorCode, '3000');
  const unknown = crypto.randomUUID();
  await hub.fspiop('GET', `/bulkTransfers/${unknown}`, { source: payer.name });
  t.is((await payer.waitFor(isPut(`/bulkTransfers/${unknown}/error`))).body.errorInformation.errorCode, '3210');

  const itemId = items[0].transfer.transferId;
  await hub.fspiop('GET', `/transfers/${itemId}`, { source: payer.name });
  const item = await payer.waitFor(isPut(`/transfers/${itemId}`));
  t.is(item.body.transferState, 'COMMITTED');
  t.is(item.body.fulfilment, items[0].fulfilment);
  await hub.fspiop('POST', '/transfers', {
    source: payer.name,
    destination: payee.name,
    body: transferBody(payer.name, payee.name, '3', { transferId: itemId }),
  });
  t.is(
    (await payer.waitFor(isPut(`/transfers/${itemId}/error`))).body.errorInformation.errorCode,
    '3106',
    "a transfer reusing an item's ID is a modified request",
  );
  t.is(await position(payer), 7);
});

test('duplicate rule: the same bulk in progress is ignored, after completion the results are sent again, a changed one gets 3106', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const items = [bulkItem('2'), bulkItem('3')];
  const body = bulkTransferBody(payer.name, payee.name, items);
  await postBulk(payer, payee, body);
  await payee.waitFor(isBulkPost);
  t.is((await postBulk(payer, payee, body)).status, 202);
  const fulfil = {
    bulkTransferState: 'COMPLETED',
    completedTimestamp: new Date().toISOString(),
    individualTransferResults: items.map((item) => ({ transferId: item.transfer.transferId, fulfilment: item.fulfilment })),
  };
  await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, { source: payee.name, destination: payer.name, body: fulfil });
  await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  t.is(payee.received.filter(isBulkPost).length, 1, 'the repeat in progress was not forwarded again');

  payer.received.length = 0;
  await postBulk(payer, payee, body);
  const resent = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
  t.is(resent.body.bulkTransferState, 'COMPLETED');
  t.deepEqual(codesOf(resent), ['fulfilled', 'fulfilled']);

  await postBulk(payer, payee, { ...body, individualTransfers: [items[0].transfer] });
  t.is((await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation.errorCode, '3106');
  t.is(await position(payer), 5, 'money moved exactly once');
});

test('a bulk is refused as a whole when FSPIOP-Source is not the payer, payer and payee are one, its expiration has passed or the payee is unknown: an error callback to the sender, nothing reserved', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const one = () => [bulkItem('1')];
  const cases: Array<[string, ReturnType<typeof bulkTransferBody>, string]> = [
    ['source is not the payer', bulkTransferBody(payee.name, payer.name, one()), '3100'],
    ['payer pays itself', bulkTransferBody(payer.name, payer.name, one()), '3100'],
    ['already expired', bulkTransferBody(payer.name, payee.name, one(), { expiresInMs: -1_000 }), '3100'],
    ['unknown payee', bulkTransferBody(payer.name, 'nosuchpayee', one()), '3203'],
  ];
  for (const [what, body, code] of cases) {
    await postBulk(payer, payee, body);
    const error = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`), 15_000, what);
    t.is(error.body.errorInformation.errorCode, code, what);
    t.is(error.headers['fspiop-source'], HUB_ID, what);
    if (what === 'source is not the payer') {
      t.is(error.body.errorInformation.errorDescription, 'Generic validation error - FSPIOP-Source header should match Payer FSP', "central-ledger's words");
    }
  }
  t.is(await position(payer), 0);
  t.is(await position(payee), 0);
  t.false(payee.received.some(isBulkPost), 'a refused bulk is never forwarded');
});

test('only the payee may answer, addressed to the payer or the hub: any other PUT gets 3100 and changes nothing', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const stranger = await hub.provision();
  const items = [bulkItem('4')];
  const body = bulkTransferBody(payer.name, payee.name, items);
  await postBulk(payer, payee, body);
  await payee.waitFor(isBulkPost);
  const fulfil = { bulkTransferState: 'COMPLETED', individualTransferResults: [{ transferId: items[0].transfer.transferId, fulfilment: items[0].fulfilment }] };
  await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, { source: stranger.name, destination: payer.name, body: fulfil });
  t.is((await stranger.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation.errorCode, '3100');
  await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, { source: payee.name, destination: stranger.name, body: fulfil });
  t.is((await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation.errorCode, '3100');
  t.is(await position(payer), 4, 'still reserved');

  await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, { source: payee.name, destination: payer.name, body: fulfil });
  t.deepEqual(codesOf(await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))), ['fulfilled']);
  t.is(await position(payer), 4);
});

test('a bulk too large for the switch to hold as one conversation is refused at once with 3104, never answered with a 500', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const items = Array.from({ length: 1_000 }, () => bulkItem('1'));
  // ILP packets of 2,000 characters: valid (the schema allows 32,768), but 2 MB together.
  for (const item of items) item.transfer.ilpPacket = crypto.randomBytes(1_500).toString('base64url');
  const body = bulkTransferBody(payer.name, payee.name, items);
  const refused = await postBulk(payer, payee, body);
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3104');
  t.is(await position(payer), 0);
});
