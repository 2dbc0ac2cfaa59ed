import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { BulkTransfersIDPutResponse, BulkTransfersPostRequest } from '../../../activities/shared/contracts/bodies';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { bulkTransferAnswerSignal, repeatedBulkTransferSignal, type bulkTransfer, type BulkTransferInput } from '../../../workflows/hub/bulkTransfer';
import { bulkItem, bulkTransferBody, type BulkItem } from '../../helpers/fspiopBodies';
import { failedWorkflowTasks } from '../../helpers/histories';
import { errorCodesTo, hubMessages, receivedCallback, receivedRequest, deliveredByHub } from '../../helpers/hubMessages';
import { gate, meanwhile, rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, DAY } from '../../helpers/stubbedWorkflows';

// The hub's bulk transfer workflow (Document 2, /bulkTransfers) on the time-skipping server, with stub ledger and
// delivery activities: what it asks the ledger to commit or release, per item, and whom it tells. Serial: each test
// moves the one server clock the file shares.
const PAYER = 'payerfsp';
const PAYEE = 'payeefsp';
const HUB = 'Hub';

const stubs = new StubActivities({
  prepareBulkTransfer: async ({ body }: { body: BulkTransfersPostRequest }) => ({ outcome: 'prepared', accepted: body.individualTransfers.length, hubId: HUB }),
  forwardBulkTransfer: async () => undefined,
  // The items the payee left without a result stay open.
  fulfilBulkTransfer: async () => ({ open: 0 }),
  releaseBulkTransfer: async () => undefined,
  completeBulkTransfer: async () => undefined,
  deliverBulkTransferResults: async () => undefined,
  answerFollowUp: async () => undefined,
  ...deliveredByHub,
});
const test = stubbedWorkflowTest('hub', stubs);

/** A bulk of three items from the payer to the payee expiring a day past the server's clock. */
async function prepared(t: { context: StubbedWorkflows }) {
  const items = [bulkItem('5'), bulkItem('6'), bulkItem('7')];
  const body: BulkTransfersPostRequest = { ...bulkTransferBody(PAYER, PAYEE, items), expiration: await t.context.expiration(DAY) };
  const { rawBody: _bytes, ...input } = receivedRequest(body, PAYER, PAYEE);
  const handle = await t.context.start<typeof bulkTransfer>('bulkTransfer', workflowIds.bulkTransfer(body.bulkTransferId), input satisfies BulkTransferInput);
  return { body, items, input, handle };
}

/** The payee's PUT /bulkTransfers/{ID} with a fulfilment for each of `items`. */
function results(items: BulkItem[], from = PAYEE, to = PAYER) {
  const body: BulkTransfersIDPutResponse = {
    bulkTransferState: 'COMPLETED',
    individualTransferResults: items.map((item) => ({ transferId: item.transfer.transferId, fulfilment: item.fulfilment })),
  };
  const { rawBody: _bytes, ...callback } = receivedCallback(body, from, to);
  return { kind: 'results' as const, callback };
}

const forwarded = (bulkTransferId: string) => stubs.next('forwardBulkTransfer', (f) => f.bulkTransferId === bulkTransferId);
const resultsTo = () => stubs.inputs('deliverBulkTransferResults').map((d) => d.party);

test.serial('a bulk goes to the payee as the hub records it; results for every item are handed to the ledger, and both sides get theirs', async (t) => {
  const { body, items, input, handle } = await prepared(t);
  t.deepEqual(await forwarded(body.bulkTransferId), { bulkTransferId: body.bulkTransferId, version: '1.1' });
  t.deepEqual(stubs.inputs('prepareBulkTransfer'), [{ body, source: PAYER, destination: PAYEE, requestHash: input.requestHash }]);
  const answer = results(items);
  await handle.signal(bulkTransferAnswerSignal, answer);
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.deepEqual(stubs.inputs('fulfilBulkTransfer'), [{ bulkTransferId: body.bulkTransferId, results: answer.callback.body.individualTransferResults }]);
  t.deepEqual(stubs.inputs('releaseBulkTransfer'), [], 'nothing left to release');
  t.like(stubs.inputs('completeBulkTransfer'), [{ bulkTransferId: body.bulkTransferId, state: 'COMPLETED' }]);
  t.deepEqual(resultsTo(), ['payer', 'payee']);
});

test.serial(
  "items the payee leaves out stay reserved until the bulk's expiration a day ahead, then are released with 3303 (Transfer expired) and both sides get the results",
  async (t) => {
    stubs.script({ fulfilBulkTransfer: async () => ({ open: 1 }) });
    const { body, items, handle } = await prepared(t);
    await forwarded(body.bulkTransferId);
    await handle.signal(bulkTransferAnswerSignal, results(items.slice(0, 2)));
    await stubs.next('fulfilBulkTransfer');
    await t.context.environment.sleep(DAY - 60_000);
    t.deepEqual(stubs.inputs('releaseBulkTransfer'), [], 'a minute before the expiration the item is still reserved');
    t.deepEqual(resultsTo(), [], 'and no one has the results yet');

    t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
    t.deepEqual(stubs.inputs('releaseBulkTransfer'), [
      { bulkTransferId: body.bulkTransferId, errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } },
    ]);
    t.deepEqual(resultsTo(), ['payer', 'payee']);
  },
);

test.serial('a bulk the payee never answers: at its expiration every item is released with 3303 and both sides get each result', async (t) => {
  const { body, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.deepEqual(stubs.inputs('fulfilBulkTransfer'), []);
  t.deepEqual(stubs.inputs('releaseBulkTransfer'), [{ bulkTransferId: body.bulkTransferId, errorInformation: errorInformation('transferExpired') }]);
  t.deepEqual(resultsTo(), ['payer', 'payee']);
});

test.serial("the payee's error for the whole bulk releases every item with it; the payer hears it from the hub and the bulk is REJECTED", async (t) => {
  const { body, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  const refusal = { errorCode: '5105', errorDescription: 'Payee FSP rejected transaction' };
  const { rawBody: _bytes, ...callback } = receivedCallback({ errorInformation: refusal }, PAYEE, PAYER);
  await handle.signal(bulkTransferAnswerSignal, { kind: 'error', callback });
  t.deepEqual(await handle.result(), { bulkTransferState: 'REJECTED', errorInformation: refusal });
  t.deepEqual(stubs.inputs('releaseBulkTransfer'), [{ bulkTransferId: body.bulkTransferId, errorInformation: refusal }]);
  t.like(hubMessages(stubs), [{ to: PAYER, fromHub: true, path: `/bulkTransfers/${body.bulkTransferId}/error`, body: { errorInformation: refusal } }]);
  t.deepEqual(resultsTo(), []);
});

test.serial('results that fail the checks of a bulk fulfil abort the bulk: every item released with the error, which payer and payee both hear', async (t) => {
  const { body, items, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  const invalid = errorInformation('validationError', 'completedTimestamp lies in the future');
  await handle.signal(bulkTransferAnswerSignal, { ...results(items), kind: 'invalid', error: invalid });
  t.deepEqual(await handle.result(), { bulkTransferState: 'REJECTED', errorInformation: invalid });
  t.deepEqual(stubs.inputs('releaseBulkTransfer'), [{ bulkTransferId: body.bulkTransferId, errorInformation: invalid }]);
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3100']);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3100']);
  t.deepEqual(stubs.inputs('fulfilBulkTransfer'), []);
});

test.serial('a bulk whose every item the ledger refused is REJECTED at once: the payer gets each error, the payee nothing', async (t) => {
  stubs.script({ prepareBulkTransfer: async () => ({ outcome: 'prepared', accepted: 0, hubId: HUB }) });
  const { handle } = await prepared(t);
  t.deepEqual(await handle.result(), { bulkTransferState: 'REJECTED' });
  t.deepEqual(stubs.inputs('forwardBulkTransfer'), []);
  t.deepEqual(resultsTo(), ['payer']);
});

test.serial('a bulk refused as a whole (the payer is not its sender) is answered to its sender and nothing is reserved or forwarded', async (t) => {
  stubs.script({
    prepareBulkTransfer: async () => {
      throw rejection('validationError', 'FSPIOP-Source must be the payerFsp');
    },
  });
  const { handle } = await prepared(t);
  t.like(await handle.result(), { bulkTransferState: 'REJECTED', errorInformation: { errorCode: '3100' } });
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3100']);
  t.deepEqual(stubs.inputs('forwardBulkTransfer'), []);
  t.deepEqual(stubs.inputs('releaseBulkTransfer'), []);
});

test.serial('only the payee may answer, addressed to the payer or the hub: any other answer gets 3100 and changes nothing', async (t) => {
  const { body, items, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  await handle.signal(bulkTransferAnswerSignal, results(items, 'mallory'));
  await handle.signal(bulkTransferAnswerSignal, results(items, PAYEE, 'otherfsp'));
  await stubs.next('deliverFromHub', (d) => d.to === PAYEE);
  t.deepEqual(errorCodesTo(stubs, 'mallory'), ['3100']);
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3100']);
  await handle.signal(bulkTransferAnswerSignal, results(items, PAYEE, HUB));
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.is(stubs.inputs('fulfilBulkTransfer').length, 1);
});

test.serial("the payee's answer repeated unchanged is ignored; a different one gets 3106; neither changes what the ledger was told", async (t) => {
  stubs.script({ fulfilBulkTransfer: async () => ({ open: 1 }) });
  const { body, items, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  await handle.signal(bulkTransferAnswerSignal, results(items.slice(0, 2)));
  await stubs.next('fulfilBulkTransfer');
  await handle.signal(bulkTransferAnswerSignal, results(items.slice(0, 2)));
  await handle.signal(bulkTransferAnswerSignal, results(items));
  await stubs.next('deliverFromHub', (d) => d.to === PAYEE);
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3106']);
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.is(stubs.inputs('fulfilBulkTransfer').length, 1);
});

test.serial('an answer that comes once the bulk has expired is answered with the recorded results, never handed to the ledger', async (t) => {
  // The payer's results fail once and the retry is held, so the answer reaches a bulk that has expired but not closed.
  const telling = gate();
  let attempts = 0;
  stubs.script({
    deliverBulkTransferResults: async ({ party }: { party: string }) => {
      if (party !== 'payer') return;
      if (attempts++ === 0) throw new Error('503 Service Unavailable');
      await telling.held;
    },
  });
  const { body, items, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  await t.context.environment.sleep(DAY);
  const first = await stubs.next('deliverBulkTransferResults');
  await stubs.next('deliverBulkTransferResults', (d) => d !== first);
  const late = results(items);
  await handle.signal(bulkTransferAnswerSignal, late);
  telling.release();
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.deepEqual(stubs.inputs('fulfilBulkTransfer'), []);
  t.like(stubs.inputs('answerFollowUp'), [{ kind: 'bulkTransferStatus', bulkTransferId: body.bulkTransferId, requester: { source: PAYEE, version: '1.1' } }]);
});

test.serial(
  'an answer that reaches the hub while it releases the expired bulk is answered with the recorded results, never handed to the ledger; no workflow task fails',
  async (t) => {
    const { body, items, handle } = await prepared(t);
    await forwarded(body.bulkTransferId);
    // The answer is signalled while the ledger releases the items, in the very workflow task that carries out the expiry.
    stubs.script({
      releaseBulkTransfer: meanwhile(
        () => handle.signal(bulkTransferAnswerSignal, results(items)),
        () => undefined,
      ),
    });
    t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
    t.deepEqual(await failedWorkflowTasks(t.context.client, handle.workflowId), []);
    t.is(stubs.inputs('releaseBulkTransfer').length, 1, 'released once');
    t.deepEqual(stubs.inputs('fulfilBulkTransfer'), []);
    t.deepEqual(resultsTo(), ['payer', 'payee'], 'each side gets its results once');
    t.like(stubs.inputs('answerFollowUp'), [{ kind: 'bulkTransferStatus', bulkTransferId: body.bulkTransferId, requester: { source: PAYEE, version: '1.1' } }]);
  },
);

test.serial('a duplicate POST while the bulk is in progress: the same one is ignored, a changed one gets 3106', async (t) => {
  const { body, items, input, handle } = await prepared(t);
  await forwarded(body.bulkTransferId);
  await handle.signal(repeatedBulkTransferSignal, { requestHash: input.requestHash, headers: input.headers });
  const changed = receivedRequest({ ...body, expiration: new Date(Date.parse(body.expiration) + 1_000).toISOString() }, PAYER, PAYEE);
  await handle.signal(repeatedBulkTransferSignal, { requestHash: changed.requestHash, headers: changed.headers });
  await stubs.next('deliverFromHub', (d) => d.to === PAYER);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3106']);
  await handle.signal(bulkTransferAnswerSignal, results(items));
  t.deepEqual(await handle.result(), { bulkTransferState: 'COMPLETED' });
  t.is(stubs.inputs('forwardBulkTransfer').length, 1);
});
