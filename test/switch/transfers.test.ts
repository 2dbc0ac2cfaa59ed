import crypto from 'node:crypto';
import test from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair, transferBody, ulid } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { pollUntil } from '../helpers/polling';
import { workflowIds } from '../../activities/shared/contracts/conversations';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const position = (dfsp: SimulatedDfsp) => hub.position(dfsp);

/** The payee fulfils every transfer it is asked for, in the state given. */
function fulfilling(payee: SimulatedDfsp, fulfilment: string, transferState: 'COMMITTED' | 'RESERVED' = 'COMMITTED') {
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transfers') return;
    await hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
      source: payee.name,
      destination: request.body.payerFsp,
      body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState },
    });
  });
}

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

test("a fulfilled transfer commits: the payer gets the fulfilment, its position rises and the payee's falls by the amount", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  const body = transferBody(payer.name, payee.name, '125.5', { condition });
  // Indented JSON: the switch must pass the payer's bytes on, not a re-serialisation of them.
  const sent = JSON.stringify(body, null, 2);
  const ack = await hub.fspiop('POST', '/transfers', {
    source: payer.name,
    destination: payee.name,
    body: sent,
    headers: { 'fspiop-signature': 'sig-of-payer', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  });
  t.is(ack.status, 202);

  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.path === '/transfers');
  t.is(forwarded.raw, sent, "the payee receives the payer's body byte for byte");
  t.is(forwarded.headers['fspiop-source'], payer.name);
  t.is(forwarded.headers['fspiop-destination'], payee.name);
  t.is(forwarded.headers['fspiop-signature'], 'sig-of-payer', 'signatures pass through the switch');
  t.is(forwarded.headers.traceparent, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');

  const callback = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(callback.body.transferState, 'COMMITTED');
  t.is(callback.body.fulfilment, fulfilment);
  t.truthy(callback.body.completedTimestamp);
  t.is(callback.headers['fspiop-source'], payee.name);
  t.is(callback.headers.accept, undefined, 'a callback carries no Accept header (Document 2), whatever the payee sent');
  t.is(await position(payer), 125.5);
  t.is(await position(payee), -125.5);
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

test('a committed transfer is found by its payer and its State, which the workflow records once, when decided, and never a patch marker', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  const body = transferBody(payer.name, payee.name, '10', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));

  const client = hub.worker.client;
  const run = client.workflow.getHandle(workflowIds.transfer(body.transferId));
  await run.result();
  const events = (await run.fetchHistory()).events ?? [];
  const upserts = events.flatMap((event) => {
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {};
    return Object.entries(fields).map(([key, payload]) => `${key}=${Buffer.from(payload.data ?? []).toString()}`);
  });
  t.deepEqual(upserts, ['State="COMMITTED"']);
  const markers = events.flatMap((event) => event.markerRecordedEventAttributes?.markerName ?? []);
  t.false(markers.includes('core_patch'), 'a transfer the gateway starts asks no patch marker: it was started at the current code revision');
  const query = `PayerFsp = '${payer.name}' AND State = 'COMMITTED'`;
  const found = await pollUntil(
    async () => {
      const ids: string[] = [];
      for await (const run of client.workflow.list({ query })) ids.push(run.workflowId);
      return ids;
    },
    (ids) => ids.length > 0,
  );
  t.deepEqual(found, [workflowIds.transfer(body.transferId)]);
});

test("the hub's worker records no stack for each promise of workflow code: a waiting transfer's stack trace query answers that stack traces are off", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = transferBody(payer.name, payee.name, '10', { condition: ilpPair().condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST' && r.path === '/transfers');
  const waiting = hub.worker.client.workflow.getHandle(workflowIds.transfer(body.transferId));
  const error = await t.throwsAsync(waiting.query<string>('__stack_trace'));
  t.regex(error?.message ?? '', /stack traces are not enabled/);
  await waiting.terminate();
});

test('a payee that answers RESERVED gets a PATCH with the final state COMMITTED, and the payer hears COMMITTED', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment, 'RESERVED');
  const body = transferBody(payer.name, payee.name, '10', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });

  const patch = await payee.waitFor((r) => r.method === 'PATCH' && r.path === `/transfers/${body.transferId}`);
  t.is(patch.body.transferState, 'COMMITTED');
  t.truthy(patch.body.completedTimestamp);
  t.is(patch.headers['fspiop-source'], HUB_ID);
  t.is(patch.headers['fspiop-uri'], `/transfers/${body.transferId}`);
  t.is(patch.headers['fspiop-http-method'], 'PATCH');
  t.is(patch.headers.accept, undefined);
  const callback = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(callback.body.transferState, 'COMMITTED');
  t.is(await position(payer), 10);
});

test('a payee rejection releases the reservation and reaches the payer unchanged', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const rejection = { errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } };
  payee.react(async (request) => {
    if (request.method === 'POST')
      await hub.fspiop('PUT', `/transfers/${request.body.transferId}/error`, { source: payee.name, destination: payer.name, body: rejection });
  });
  const body = transferBody(payer.name, payee.name, '99');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.deepEqual(error.body, rejection);
  t.is(error.headers['fspiop-source'], payee.name);
  t.is(await position(payer), 0);
  t.is(await position(payee), 0);
});

test('an invalid fulfilment aborts the transfer: nothing moves and both sides are told', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  fulfilling(payee, ilpPair().fulfilment);
  const body = transferBody(payer.name, payee.name, '50');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.is(error.body.errorInformation.errorCode, '3100');
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.is(error.headers['fspiop-destination'], payer.name);
  t.is(error.headers['fspiop-uri'], `/transfers/${body.transferId}/error`, 'the hub names the request it sends, as Mojaloop does');
  t.is(error.headers['fspiop-http-method'], 'PUT');
  t.is(error.headers.accept, undefined);
  t.is(error.headers['content-type'], 'application/vnd.interoperability.transfers+json;version=1.1');
  const toPayee = await payee.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.is(toPayee.body.errorInformation.errorCode, '3100');
  t.is(await position(payer), 0);
  t.is(await position(payee), 0);
});

test("a transfer beyond the payer's Net Debit Cap is refused with 4200, beyond its deposited funds with 4001", async (t) => {
  const payee = await hub.provision();
  const capped = await hub.provision({ netDebitCap: 100, fundsIn: 1_000 });
  const capBody = transferBody(capped.name, payee.name, '100.01');
  await hub.fspiop('POST', '/transfers', { source: capped.name, destination: payee.name, body: capBody });
  t.is((await capped.waitFor(isPut(`/transfers/${capBody.transferId}/error`))).body.errorInformation.errorCode, '4200');

  const poor = await hub.provision({ netDebitCap: 1_000, fundsIn: 50 });
  const poorBody = transferBody(poor.name, payee.name, '60');
  await hub.fspiop('POST', '/transfers', { source: poor.name, destination: payee.name, body: poorBody });
  t.is((await poor.waitFor(isPut(`/transfers/${poorBody.transferId}/error`))).body.errorInformation.errorCode, '4001');
  t.is(await position(capped), 0);
  t.is(await position(poor), 0);
  t.false(
    payee.received.some((r) => r.method === 'POST'),
    'a refused transfer is never forwarded',
  );
});

test('prepare checks: FSPIOP-Source must be the payer, payer and payee differ, expiration lies ahead, the payee exists', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const cases: Array<[string, ReturnType<typeof transferBody>, string]> = [
    ['source is not the payer', transferBody(payee.name, payer.name, '1'), '3100'],
    ['payer pays itself', transferBody(payer.name, payer.name, '1'), '3100'],
    ['already expired', transferBody(payer.name, payee.name, '1', { expiresInMs: -1_000 }), '3100'],
    ['unknown payee', transferBody(payer.name, 'nosuchpayee', '1'), '3203'],
  ];
  for (const [what, body, code] of cases) {
    // The error goes to the sender of the request (FSPIOP-Source), whatever payerFsp the body names.
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: body.payeeFsp, body });
    const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`), 15_000, what);
    t.is(error.body.errorInformation.errorCode, code, what);
  }
  t.is(await position(payer), 0);
});

test('duplicate rule: the same request in progress is ignored, after completion the callback is sent again, a changed one gets 3106', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '7', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST');
  t.is((await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body })).status, 202);

  await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
  });
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(payee.received.filter((r) => r.method === 'POST').length, 1, 'the repeat in progress was not forwarded again');

  payer.received.length = 0;
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  const resent = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(resent.body.transferState, 'COMMITTED');
  t.is(resent.body.fulfilment, fulfilment);

  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: { ...body, amount: { amount: '8', currency: 'USD' } } });
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3106');
  t.is(await position(payer), 7, 'money moved exactly once');
});

test('GET /transfers/{ID} answers the payer or payee with the current state, anyone else with 3208', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const stranger = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  const body = transferBody(payer.name, payee.name, '3', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  payer.received.length = 0;

  t.is((await hub.fspiop('GET', `/transfers/${body.transferId}`, { source: payer.name })).status, 202);
  const state = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(state.body.transferState, 'COMMITTED');
  t.is(state.body.fulfilment, fulfilment);
  t.is(state.headers['fspiop-source'], HUB_ID);

  await hub.fspiop('GET', `/transfers/${body.transferId}`, { source: stranger.name });
  t.is((await stranger.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3208');
});

test('many concurrent transfers leave every position equal to its journal and each currency summing to zero', async (t) => {
  const dfsps = await Promise.all([hub.provision(), hub.provision(), hub.provision()]);
  const pair = ilpPair();
  for (const dfsp of dfsps) fulfilling(dfsp, pair.fulfilment);
  const bodies = Array.from({ length: 30 }, (_, i) =>
    transferBody(dfsps[i % 3].name, dfsps[(i + 1) % 3].name, `${(i % 5) + 1}.25`, { condition: pair.condition }),
  );
  await Promise.all(bodies.map((body) => hub.fspiop('POST', '/transfers', { source: body.payerFsp, destination: body.payeeFsp, body })));
  await Promise.all(bodies.map((body) => dfsps.find((d) => d.name === body.payerFsp)!.waitFor(isPut(`/transfers/${body.transferId}`), 60_000)));
  const positions = await Promise.all(dfsps.map(position));
  t.is(
    positions.reduce((sum, value) => sum + value, 0),
    0,
  );
  const check = await checkLedger(hub.services.db);
  t.deepEqual(check.violations, []);
});

test('a DFSP answering 5xx is retried with backoff until the message gets through', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  payee.status = 503;
  const body = transferBody(payer.name, payee.name, '4', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.false(
    payee.received.some((r) => r.method === 'POST'),
    'nothing accepted while the payee fails',
  );
  payee.status = undefined;
  const callback = await payer.waitFor(isPut(`/transfers/${body.transferId}`), 30_000);
  t.is(callback.body.transferState, 'COMMITTED');
  t.is(payee.received.filter((r) => r.method === 'POST').length, 1);
});

test('a transfer identified by a ULID, as current Mojaloop DFSPs send, is accepted and commits', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  const body = transferBody(payer.name, payee.name, '7', { condition, transferId: ulid() });
  for (const version of ['1.0', '1.1']) {
    const check = await hub.fspiop('GET', `/transfers/${ulid()}`, { source: payer.name, version });
    t.is(check.status, 202, `a ULID in the path is a valid ID in version ${version}`);
  }
  t.is((await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body })).status, 202);
  const callback = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(callback.body.transferState, 'COMMITTED');
});

test('an ID that is neither a lower-case UUID nor an upper-case ULID is refused with 3100, as Mojaloop refuses a pattern it does not match', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  for (const transferId of [crypto.randomUUID().toUpperCase(), ulid().toLowerCase(), `${ulid()}X`, 'not-an-id']) {
    const refused = await hub.fspiop('POST', '/transfers', {
      source: payer.name,
      destination: payee.name,
      body: transferBody(payer.name, payee.name, '1', { transferId }),
    });
    t.is(refused.status, 400, transferId);
    t.is(refused.body.errorInformation.errorCode, '3100', transferId);
    const path = await hub.fspiop('GET', `/transfers/${transferId}`, { source: payer.name });
    t.is(path.status, 400, `path ${transferId}`);
  }
});

test('funds in is a transfer its DFSP can GET, as in central-ledger: COMMITTED to that DFSP, 3208 to any other', async (t) => {
  const dfsp = await hub.provision();
  const stranger = await hub.provision();
  const accounts = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body;
  const settlement = accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT').id;
  const transferId = crypto.randomUUID();
  const deposit = { transferId, externalReference: 'ref', action: 'recordFundsIn', reason: 'top up', amount: { amount: '250', currency: 'USD' } };
  t.is((await hub.admin.call('POST', `/participants/${dfsp.name}/accounts/${settlement}`, deposit)).status, 202);

  t.is((await hub.fspiop('GET', `/transfers/${transferId}`, { source: dfsp.name })).status, 202);
  const state = await dfsp.waitFor(isPut(`/transfers/${transferId}`));
  t.is(state.body.transferState, 'COMMITTED');
  t.truthy(state.body.completedTimestamp);
  await hub.fspiop('GET', `/transfers/${transferId}`, { source: stranger.name });
  t.is((await stranger.waitFor(isPut(`/transfers/${transferId}/error`))).body.errorInformation.errorCode, '3208');
});

test("a fulfil repeated after commit gets the transfer's state again; one with another fulfilment gets 3106", async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '11', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST');
  const fulfil = { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' };
  await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee.name, destination: payer.name, body: fulfil });
  await payer.waitFor(isPut(`/transfers/${body.transferId}`));

  t.is((await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee.name, destination: payer.name, body: fulfil })).status, 200);
  const again = await payee.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(again.body.transferState, 'COMMITTED');
  t.is(again.body.fulfilment, fulfilment);
  t.is(again.headers['fspiop-source'], HUB_ID);

  const other = { ...fulfil, fulfilment: ilpPair().fulfilment };
  t.is((await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee.name, destination: payer.name, body: other })).status, 200);
  t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3106');
  t.is(await position(payer), 11, 'money moved exactly once');
});

test('a COMMITTED fulfil without a fulfilment is acknowledged, then aborts the transfer: 3100 to payee and payer, nothing moves', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const body = transferBody(payer.name, payee.name, '12');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST');
  const put = await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
  });
  t.is(put.status, 200);
  t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3100');
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3100');
  t.is(await position(payer), 0, 'the reservation is released at once, not at expiry');
});

test('a fulfil whose completedTimestamp lies in the future is refused at once with 400 (3100); the transfer can still be fulfilled', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '13', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST');
  const future = await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date(Date.now() + 3_600_000).toISOString(), transferState: 'COMMITTED' },
  });
  t.is(future.status, 400);
  t.is(future.body.errorInformation.errorCode, '3100');
  await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
  });
  t.is((await payer.waitFor(isPut(`/transfers/${body.transferId}`))).body.transferState, 'COMMITTED');
});
