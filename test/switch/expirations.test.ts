import type { TestWorkflowEnvironment } from '@temporalio/testing';
import anyTest, { type TestFn } from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { answering, codesOf, isBulkPost, sum } from '../helpers/bulkPayees';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkQuoteBody, bulkTransferBody, ilpPair, transactionRequestBody, transferBody } from '../helpers/fspiopBodies';
import { pollUntil } from '../helpers/polling';
import { HUB_ID, startSwitch, type SwitchHarness } from '../helpers/switchHarness';
import { startTimeSkipping } from '../helpers/timeSkipping';

// Expirations as DFSPs set them, an hour or a day ahead, on Temporal's time-skipping test server: the switch's
// workflows wait out the whole of it while the test takes milliseconds. Each test moves the server's clock on, so they
// run one at a time and each reckons its expiration from the server's clock.
const test = anyTest as TestFn<{ environment: TestWorkflowEnvironment; hub: SwitchHarness }>;
const HOUR = 3_600_000;

test.before(async (t) => {
  const environment = await startTimeSkipping();
  t.context = { environment, hub: await startSwitch({ timeSkipping: environment }) };
});
test.after.always(async (t) => {
  await t.context.hub?.close();
  await t.context.environment?.teardown();
});

/** Milliseconds from now (this process's clock, as the gateway checks it) to `aheadMs` past the server's clock. */
async function expiresIn(environment: TestWorkflowEnvironment, aheadMs: number): Promise<number> {
  return (await environment.currentTimeMs()) - Date.now() + aheadMs;
}

/** Lets the server skip to the end of a conversation's workflow: the test awaits it while no one else does anything. */
function waitOutWorkflow(hub: SwitchHarness, workflowId: string): Promise<unknown> {
  return hub.worker.client.workflow.getHandle(workflowId).result();
}

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

test.serial(
  'a transfer not fulfilled within the hour before its expiration is aborted: 3303 to payer and payee, and a late PUT gets 3303 and PATCH ABORTED',
  async (t) => {
    const { hub, environment } = t.context;
    const payer = await hub.provision();
    const payee = await hub.provision();
    const { fulfilment, condition } = ilpPair();
    const body = transferBody(payer.name, payee.name, '20', { condition, expiresInMs: await expiresIn(environment, HOUR) });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST');
    t.is(await hub.position(payer), 20, 'reserved while waiting');
    const accounts = (await hub.admin.call('GET', `/participants/${payer.name}/accounts`)).body;
    t.like(
      accounts.find((a: { ledgerAccountType: string }) => a.ledgerAccountType === 'POSITION'),
      { value: 20, reservedValue: 0 },
      'accounts and positions agree, as in central-ledger',
    );

    const before = await environment.currentTimeMs();
    t.like(await waitOutWorkflow(hub, workflowIds.transfer(body.transferId)), { transferState: 'ABORTED', errorInformation: { errorCode: '3303' } });
    t.true((await environment.currentTimeMs()) - before >= HOUR - 60_000, 'the switch waited for the expiration, not less');
    const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));
    t.is(error.body.errorInformation.errorCode, '3303');
    t.is(error.headers['fspiop-source'], HUB_ID);
    t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3303');
    t.is(await hub.position(payer), 0);

    payee.received.length = 0;
    const late = await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
      source: payee.name,
      destination: payer.name,
      body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'RESERVED' },
    });
    t.is(late.status, 200);
    t.is((await payee.waitFor(isPut(`/transfers/${body.transferId}/error`))).body.errorInformation.errorCode, '3303');
    t.is((await payee.waitFor((r) => r.method === 'PATCH')).body.transferState, 'ABORTED');
    t.is(await hub.position(payer), 0);
  },
);

test.serial('a v1.0 fulfil with RESERVED is ignored, as by central-ledger: no PATCH (a v1.0 payee cannot read one), and the transfer expires', async (t) => {
  const { hub, environment } = t.context;
  const payer = await hub.provision();
  const payee = await hub.provision();
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '14', { condition, expiresInMs: await expiresIn(environment, HOUR) });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body, version: '1.0' });
  await payee.waitFor((r) => r.method === 'POST');
  const put = await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'RESERVED' },
    version: '1.0',
  });
  t.is(put.status, 200);
  t.like(await waitOutWorkflow(hub, workflowIds.transfer(body.transferId)), { transferState: 'ABORTED' });
  const error = await payer.waitFor(isPut(`/transfers/${body.transferId}/error`));
  t.is(error.body.errorInformation.errorCode, '3303');
  t.is(error.headers['content-type'], 'application/vnd.interoperability.transfers+json;version=1.0');
  t.false(
    payee.received.some((r) => r.method === 'PATCH'),
    'no PATCH in version 1.0',
  );
  t.is(await hub.position(payer), 0);
});

test.serial(
  'a bulk not answered in the day before its expiration releases every reservation; payer and payee get each item with 3303, and a late PUT gets them again',
  async (t) => {
    const { hub, environment } = t.context;
    const payer: SimulatedDfsp = await hub.provision();
    const payee: SimulatedDfsp = await hub.provision();
    const items = [bulkItem('5'), bulkItem('6'), bulkItem('7')];
    const body = bulkTransferBody(payer.name, payee.name, items, { expiresInMs: await expiresIn(environment, 24 * HOUR) });
    await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
    await payee.waitFor(isBulkPost);
    t.is(await hub.position(payer), 18, 'reserved while waiting');

    await waitOutWorkflow(hub, workflowIds.bulkTransfer(body.bulkTransferId));
    const toPayer = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
    t.is(toPayer.body.bulkTransferState, 'COMPLETED');
    t.deepEqual(codesOf(toPayer), ['3303', '3303', '3303']);
    t.deepEqual(
      toPayer.body.individualTransferResults[0].errorInformation,
      { errorCode: '3303', errorDescription: 'Transfer expired' },
      "central-ledger's words alone",
    );
    t.deepEqual(codesOf(await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))), ['3303', '3303', '3303']);
    t.is(await hub.position(payer), 0);
    t.is(await hub.position(payee), 0);

    payee.received.length = 0;
    const late = await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, {
      source: payee.name,
      destination: payer.name,
      body: {
        bulkTransferState: 'COMPLETED',
        individualTransferResults: items.map((item) => ({ transferId: item.transfer.transferId, fulfilment: item.fulfilment })),
      },
    });
    t.is(late.status, 200);
    t.deepEqual(codesOf(await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))), ['3303', '3303', '3303']);
    t.is(await hub.position(payer), 0, 'nothing commits after expiry');
    t.deepEqual((await checkLedger(hub.services.db)).violations, []);
  },
);

test.serial(
  'a bulk quote the payee FSP does not answer in the day before its expiration gets 3302 from the switch, in the bulk quote media type',
  async (t) => {
    const { hub, environment } = t.context;
    const payer = await hub.provision();
    const payee = await hub.provision();
    const body = bulkQuoteBody(payer.name, payee.name, 2, { expiresInMs: await expiresIn(environment, 24 * HOUR) });
    await hub.fspiop('POST', '/bulkQuotes', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST' && r.path === '/bulkQuotes');
    t.like(await waitOutWorkflow(hub, workflowIds.bulkQuote(body.bulkQuoteId)), { state: 'EXPIRED' });
    const error = await payer.waitFor(isPut(`/bulkQuotes/${body.bulkQuoteId}/error`));
    t.is(error.body.errorInformation.errorCode, '3302');
    t.is(error.headers['fspiop-source'], HUB_ID);
    t.is(error.headers['fspiop-destination'], payer.name);
    t.is(error.headers['content-type'], 'application/vnd.interoperability.bulkQuotes+json;version=1.1');
    t.is(error.headers['fspiop-uri'], `/bulkQuotes/${body.bulkQuoteId}/error`);
  },
);

test.serial(
  'a transaction request nobody answers in the hour before its expiration gets 3301 from the switch; a late answer is told 3301 and not passed on',
  async (t) => {
    const { hub, environment } = t.context;
    const payee = await hub.provision();
    const payer = await hub.provision();
    const body = transactionRequestBody(payee.name, payer.name, '1', { expiresInMs: await expiresIn(environment, HOUR) });
    const id = body.transactionRequestId;
    await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
    await payer.waitFor((r) => r.method === 'POST' && r.path === '/transactionRequests');
    t.like(await waitOutWorkflow(hub, workflowIds.transactionRequest(id)), { state: 'EXPIRED' });
    const error = await payee.waitFor(isPut(`/transactionRequests/${id}/error`));
    t.is(error.body.errorInformation.errorCode, '3301');
    t.is(error.headers['fspiop-source'], HUB_ID);

    await hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState: 'RECEIVED' } });
    t.is((await payer.waitFor(isPut(`/transactionRequests/${id}/error`))).body.errorInformation.errorCode, '3301');
    t.is(payee.received.filter(isPut(`/transactionRequests/${id}`)).length, 0);
  },
);

test.serial(
  'a bulk of 1,000 items: valid fulfilments commit, invalid ones are released with 3100, payee errors with theirs, items left out are released with 3303 at the expiration an hour ahead; positions move by the committed items only',
  async (t) => {
    const { hub, environment } = t.context;
    const payer = await hub.provision({ netDebitCap: 1_000_000, fundsIn: 1_000_000 });
    const payee = await hub.provision();
    const items = Array.from({ length: 1_000 }, (_, i) => bulkItem(`${(i % 7) + 1}.25`));
    // Per item by its position: 0-5 a valid fulfilment, 6-7 a wrong one, 8 the payee's error, 9 left out.
    const kindOf = new Map(items.map((item, i) => [item.transfer.transferId, { kind: i % 10, item }]));
    const payeeError = { errorCode: '5100', errorDescription: 'Payee rejection' };
    answering(hub, payee, (transferId) => {
      const { kind, item } = kindOf.get(transferId)!;
      if (kind <= 5) return { fulfilment: item.fulfilment };
      if (kind <= 7) return { fulfilment: ilpPair().fulfilment };
      return kind === 8 ? { errorInformation: payeeError } : undefined;
    });
    const body = bulkTransferBody(payer.name, payee.name, items, { expiresInMs: await expiresIn(environment, HOUR) });
    t.is((await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body })).status, 202);

    const forwarded = await payee.waitFor(isBulkPost, 30_000);
    t.is(forwarded.body.individualTransfers.length, 1_000);
    t.deepEqual(forwarded.body.individualTransfers[17], items[17].transfer, 'each item reaches the payee as the payer sent it');
    const committed = sum(items.filter((_, i) => i % 10 <= 5));
    const left = sum(items.filter((_, i) => i % 10 === 9));
    const answered = await pollUntil(
      () => hub.position(payer),
      (position) => position === committed.plus(left).toNumber(),
    );
    t.is(answered, committed.plus(left).toNumber(), 'the answered items are settled; the items left out stay reserved until the expiration');

    await waitOutWorkflow(hub, workflowIds.bulkTransfer(body.bulkTransferId));
    const results = await payer.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`));
    t.is(results.body.bulkTransferState, 'COMPLETED');
    t.is(results.headers['fspiop-source'], HUB_ID);
    const byItem = results.body.individualTransferResults;
    t.deepEqual(
      byItem.map((r: { transferId: string }) => r.transferId),
      items.map((item) => item.transfer.transferId),
      'the payer gets every item, in its order',
    );
    const expected = items.map((item, i) => {
      const kind = i % 10;
      return kind <= 5 ? 'fulfilled' : kind <= 7 ? '3100' : kind === 8 ? '5100' : '3303';
    });
    t.deepEqual(codesOf(results), expected);
    t.is(byItem[0].fulfilment, items[0].fulfilment);
    t.deepEqual(codesOf(await payee.waitFor(isPut(`/bulkTransfers/${body.bulkTransferId}`))), expected, 'the payee gets the results of its items');

    t.is(await hub.position(payer), committed.toNumber());
    t.is(await hub.position(payee), committed.negated().toNumber());
    t.deepEqual((await checkLedger(hub.services.db)).violations, []);
  },
);
