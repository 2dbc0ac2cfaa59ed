import crypto from 'node:crypto';
import test from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkTransferBody, transferBody } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

// What Mojaloop's own hub tests (the Testing Toolkit's collections) check of the switch's answers, beyond their codes:
// the words they match on, the cause an aborted transfer carries, and what happens to messages Mojaloop takes in
// where a stricter reading of Document 2 would refuse them.

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;
const isBulkPost = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/bulkTransfers';

/** The payee refuses every transfer it is sent with `errorInformation`, whose errorCode may be sent as a number. */
function refusing(payee: SimulatedDfsp, errorInformation: { errorCode: string | number; errorDescription: string }) {
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transfers') return;
    await hub.fspiop('PUT', `/transfers/${request.body.transferId}/error`, {
      source: payee.name,
      destination: request.body.payerFsp,
      body: { errorInformation },
    });
  });
}

test('GET of an aborted transfer answers ABORTED with its cause as an extension, as central-ledger does; an unknown one in its words', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  refusing(payee, { errorCode: '5100', errorDescription: 'Generic Payee rejection - no such account' });
  const body = transferBody(payer.name, payee.name, '2');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));

  payer.received.length = 0;
  await hub.fspiop('GET', `/transfers/${body.transferId}`, { source: payer.name });
  const state = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(state.body.transferState, 'ABORTED');
  t.deepEqual(state.body.extensionList, { extension: [{ key: 'cause', value: '5100: Generic Payee rejection - no such account' }] });

  const unknown = crypto.randomUUID();
  await hub.fspiop('GET', `/transfers/${unknown}`, { source: payer.name });
  t.deepEqual((await payer.waitFor(isPut(`/transfers/${unknown}/error`))).body.errorInformation, {
    errorCode: '3208',
    errorDescription: 'Transfer ID not found - Provided Transfer ID was not found on the server.',
  });
});

test("an error callback whose errorCode is a number is taken, as Mojaloop's validator coerces it, and the payer gets it as sent", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  refusing(payee, { errorCode: 5100, errorDescription: 'Generic Payee rejection' });
  const body = transferBody(payer.name, payee.name, '3');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.is(error.body.errorInformation.errorCode, 5100, "the payee's message, unchanged");
  t.is(await hub.position(payer), 0, 'the reservation is released');
});

test("a repeated transfer with other details is 'Modified request', and a payee unknown or inactive is named in central-ledger's words", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = transferBody(payer.name, payee.name, '4');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: { ...body, amount: { amount: '5', currency: 'USD' } } });
  t.deepEqual((await payer.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation, {
    errorCode: '3106',
    errorDescription: 'Modified request',
  });

  const toNobody = transferBody(payer.name, 'nosuchfsp', '1');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: 'nosuchfsp', body: toNobody });
  t.deepEqual((await payer.waitFor(isPut(`/transfers/${toNobody.transferId}/error`))).body.errorInformation, {
    errorCode: '3203',
    errorDescription: 'Payee FSP ID not found - Participant nosuchfsp not found',
  });

  const dormant = await hub.provision();
  await hub.admin.call('PUT', `/participants/${dormant.name}`, { isActive: false });
  const toDormant = transferBody(payer.name, dormant.name, '1');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: dormant.name, body: toDormant });
  t.regex(
    (await payer.waitFor(isPut(`/transfers/${toDormant.transferId}/error`))).body.errorInformation.errorDescription,
    new RegExp(`- Participant ${dormant.name} is inactive$`),
  );
});

test('PUT with an empty ID is an unknown URI (404, 3002), as at Mojaloop, not a method the path refuses', async (t) => {
  const payee = await hub.provision();
  for (const path of ['/transfers/', '/quotes/']) {
    const answer = await hub.fspiop('PUT', path, { source: payee.name, destination: payee.name, body: { transferState: 'COMMITTED' } });
    t.is(answer.status, 404, path);
    t.deepEqual(answer.body.errorInformation, { errorCode: '3002', errorDescription: 'Unknown URI - Not Found' }, path);
  }
});

test('a bulk fulfil whose completedTimestamp lies in the future is taken (200) and ends the bulk REJECTED: every item released, payer and payee told 3100', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const items = [bulkItem('6'), bulkItem('7')];
  const body = bulkTransferBody(payer.name, payee.name, items);
  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor(isBulkPost);
  t.is(await hub.position(payer), 13, 'reserved while waiting');

  const answer = await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, {
    source: payee.name,
    destination: HUB_ID,
    body: {
      bulkTransferState: 'COMPLETED',
      completedTimestamp: new Date(Date.now() + 3_600_000).toISOString(),
      individualTransferResults: items.map((item) => ({ transferId: item.transfer.transferId, fulfilment: item.fulfilment })),
    },
  });
  t.is(answer.status, 200);
  const refused = {
    errorCode: '3100',
    errorDescription: 'Generic validation error - Bulk fulfil failed validation - completedTimestamp fails because future timestamp was provided',
  };
  t.deepEqual((await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation, refused);
  t.deepEqual((await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation, refused);
  t.is(await hub.position(payer), 0, 'nothing stays reserved until the expiration');
  t.is(await hub.position(payee), 0);

  payer.received.length = 0;
  await hub.fspiop('GET', `/bulkTransfers/${body.bulkTransferId}`, { source: payer.name });
  t.is((await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))).body.bulkTransferState, 'REJECTED');
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

test("a bulk whose FSPIOP-Destination is unknown is refused 3203 though its body names a payee, as central-ledger's bulk prepare checks both", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = bulkTransferBody(payer.name, payee.name, [bulkItem('1')]);
  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: 'nosuchfsp', body });
  t.deepEqual((await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}/error`))).body.errorInformation, {
    errorCode: '3203',
    errorDescription: 'Payee FSP ID not found - Participant nosuchfsp not found',
  });
  t.false(payee.received.some(isBulkPost), 'the payee named in the body hears nothing');
  t.is(await hub.position(payer), 0);
});

test("a GET /parties from a sender that is no participant is malformed (400, 3101), in the account lookup service's words (mojaloop/project#4109)", async (t) => {
  const payee = await hub.provision();
  const { status, body } = await hub.fspiop('GET', '/parties/MSISDN/2567123', { source: 'nosuchfsp', destination: payee.name });
  t.is(status, 400);
  t.deepEqual(body.errorInformation, { errorCode: '3101', errorDescription: 'Malformed syntax - invalid fspiop-source header' });
  t.false(
    payee.received.some((r) => r.path === '/parties/MSISDN/2567123'),
    'nothing is passed on',
  );
});

test("a party registered by a sender that is no participant: without a SubId 400 3200 'Requester FSP not found', with one 202 and nothing registered", async (t) => {
  const owner = await hub.provision();
  const body = { fspId: 'nosuchfsp', currency: 'USD' };
  const direct = await hub.fspiop('POST', '/participants/MSISDN/2567124', { source: 'nosuchfsp', body });
  t.is(direct.status, 400);
  t.deepEqual(direct.body.errorInformation, { errorCode: '3200', errorDescription: 'Generic ID not found - Requester FSP not found' });

  const withSubId = await hub.fspiop('POST', '/participants/MSISDN/2567124/home', { source: 'nosuchfsp', body });
  t.is(withSubId.status, 202, 'accepted; the error callback has no endpoint of the sender to go to');
  await hub.fspiop('GET', '/participants/MSISDN/2567124/home', { source: owner.name });
  const lookup = await owner.waitFor((r) => r.method === 'PUT' && r.path.startsWith('/participants/MSISDN/2567124/home'));
  t.is(lookup.path, '/participants/MSISDN/2567124/home/error', 'the party was not registered');
  t.is(lookup.body.errorInformation.errorCode, '3204');
});

test("a transfer not sent by the payer it names is refused in central-ledger's fixed words (a bulk in its own: bulkTransfers.test.ts)", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const transfer = transferBody(payee.name, payer.name, '1');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });
  const error = await payer.waitFor(isPut(`/transfers/${transfer.transferId}/error`));
  t.deepEqual(error.body.errorInformation, { errorCode: '3100', errorDescription: 'Generic validation error - FSPIOP-Source header should match Payer' });
});
