import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { TransfersIDPutResponse, TransfersPostRequest } from '../../../activities/shared/contracts/bodies';
import { fulfilSignal, rejectSignal, repeatedTransferSignal, type transfer } from '../../../workflows/hub/transfer';
import { ilpPair, transferBody } from '../../helpers/fspiopBodies';
import { errorCodesTo, hubMessages, receivedCallback, receivedRequest, deliveredByHub } from '../../helpers/hubMessages';
import { failedWorkflowTasks } from '../../helpers/histories';
import { gate, meanwhile, rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, HOUR } from '../../helpers/stubbedWorkflows';

// The hub's transfer workflow (Document 2, /transfers) on the time-skipping server, with stub ledger and delivery
// activities: what it asks of the ledger and whom it tells what, for each way a transfer ends. Serial: each test
// moves the one server clock the file shares.
const PAYER = 'payerfsp';
const PAYEE = 'payeefsp';
const COMPLETED = '2030-01-01T00:00:00.000Z';

const stubs = new StubActivities({
  prepareTransfer: async () => ({ outcome: 'reserved' }),
  commitTransfer: async () => ({ completedTimestamp: COMPLETED }),
  abortTransfer: async () => ({ completedTimestamp: COMPLETED }),
  ...deliveredByHub,
  lateTransferCallback: async () => undefined,
  repeatedTransfer: async () => undefined,
});
const test = stubbedWorkflowTest('hub', stubs);

/** A transfer of 10 USD from the payer to the payee expiring `aheadMs` past the server's clock, and its fulfilment. */
async function prepared(t: { context: StubbedWorkflows }, aheadMs = HOUR) {
  const { fulfilment, condition } = ilpPair();
  const body: TransfersPostRequest = { ...transferBody(PAYER, PAYEE, '10', { condition }), expiration: await t.context.expiration(aheadMs) };
  const input = receivedRequest(body, PAYER, PAYEE);
  const handle = await t.context.start<typeof transfer>('transfer', workflowIds.transfer(body.transferId), input);
  return { body, input, fulfilment, handle };
}

/** The prepare as the payee receives it. */
const forwarded = () => stubs.next('deliver', (d) => d.to === PAYEE && d.method === 'POST');

const fulfil = (fulfilment: string, transferState: 'COMMITTED' | 'RESERVED' = 'COMMITTED', from = PAYEE) =>
  receivedCallback<TransfersIDPutResponse>({ fulfilment, completedTimestamp: new Date().toISOString(), transferState }, from, PAYER);

test.serial(
  "a prepare reserves the payer's funds and is forwarded to the payee byte for byte; the payee's COMMITTED fulfil commits it and goes to the payer as it came",
  async (t) => {
    const { body, input, fulfilment, handle } = await prepared(t);
    const post = await forwarded();
    t.deepEqual(stubs.inputs('prepareTransfer'), [{ body, source: PAYER, requestHash: input.requestHash }]);
    t.like(post, { to: PAYEE, method: 'POST', path: '/transfers', rawBody: input.rawBody, headers: input.headers });

    const answer = fulfil(fulfilment);
    await handle.signal(fulfilSignal, answer);
    t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
    t.deepEqual(stubs.inputs('commitTransfer'), [{ transferId: body.transferId, fulfilment, payeeWantsNotification: false }]);
    t.deepEqual(stubs.inputs('abortTransfer'), []);
    const toPayer = hubMessages(stubs).filter((m) => m.to === PAYER);
    t.is(toPayer.length, 1);
    t.like(toPayer[0], { method: 'PUT', path: `/transfers/${body.transferId}`, fromHub: false, rawBody: answer.rawBody, headers: answer.headers });
    t.false(
      hubMessages(stubs).some((m) => m.method === 'PATCH'),
      'no commit notification: the payee did not ask for one',
    );
  },
);

test.serial('a payee that answers RESERVED gets PATCH COMMITTED once the ledger commits, and the payer hears COMMITTED from the hub', async (t) => {
  const { body, fulfilment, handle } = await prepared(t);
  await forwarded();
  await handle.signal(fulfilSignal, fulfil(fulfilment, 'RESERVED'));
  t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
  t.deepEqual(stubs.inputs('commitTransfer'), [{ transferId: body.transferId, fulfilment, payeeWantsNotification: true }]);
  const [toPayer, toPayee] = hubMessages(stubs).slice(1);
  t.like(toPayer, {
    to: PAYER,
    method: 'PUT',
    path: `/transfers/${body.transferId}`,
    fromHub: true,
    body: { transferState: 'COMMITTED', completedTimestamp: COMPLETED, fulfilment },
  });
  t.like(toPayee, {
    to: PAYEE,
    method: 'PATCH',
    path: `/transfers/${body.transferId}`,
    fromHub: true,
    body: { transferState: 'COMMITTED', completedTimestamp: COMPLETED },
  });
});

test.serial("the payee's error aborts the transfer: the reservation is released with its error, which reaches the payer unchanged", async (t) => {
  const { body, handle } = await prepared(t);
  await forwarded();
  const refusal = receivedCallback({ errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } }, PAYEE, PAYER);
  await handle.signal(rejectSignal, refusal);
  t.deepEqual(await handle.result(), { transferState: 'ABORTED', errorInformation: refusal.body.errorInformation });
  t.deepEqual(stubs.inputs('abortTransfer'), [{ transferId: body.transferId, errorInformation: refusal.body.errorInformation }]);
  t.deepEqual(stubs.inputs('commitTransfer'), []);
  t.like(hubMessages(stubs)[1], { to: PAYER, method: 'PUT', path: `/transfers/${body.transferId}/error`, fromHub: false, rawBody: refusal.rawBody });
  t.deepEqual(errorCodesTo(stubs, PAYEE), [], 'the payee said it, and is told nothing');
});

test.serial('no answer by the expiration an hour ahead: the reservation is released and payer and payee both get 3303 from the hub', async (t) => {
  const { body, handle } = await prepared(t);
  await forwarded();
  await t.context.environment.sleep(HOUR - 60_000);
  t.deepEqual(stubs.inputs('abortTransfer'), [], 'a minute before the expiration the transfer still waits');

  t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '3303' } });
  t.like(stubs.inputs('abortTransfer'), [{ transferId: body.transferId, errorInformation: { errorCode: '3303' } }]);
  t.deepEqual(errorCodesTo(stubs, PAYEE), ['3303']);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3303']);
  t.true(
    hubMessages(stubs)
      .slice(1)
      .every((m) => m.fromHub && m.path === `/transfers/${body.transferId}/error`),
  );
  t.deepEqual(stubs.inputs('commitTransfer'), []);
});

test.serial("a fulfil in the expiration's last minute still commits", async (t) => {
  const { fulfilment, handle } = await prepared(t);
  await forwarded();
  await t.context.environment.sleep(HOUR - 60_000);
  await handle.signal(fulfilSignal, fulfil(fulfilment));
  t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
  t.deepEqual(stubs.inputs('abortTransfer'), []);
});

test.serial(
  'a fulfilment the ledger refuses (3100: it does not match the condition) aborts the transfer: both sides are told, and a RESERVED payee gets PATCH ABORTED',
  async (t) => {
    stubs.script({
      commitTransfer: async () => {
        throw rejection('validationError', 'invalid fulfilment');
      },
    });
    const { body, handle } = await prepared(t);
    await forwarded();
    await handle.signal(fulfilSignal, fulfil(ilpPair().fulfilment, 'RESERVED'));
    t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '3100' } });
    t.like(stubs.inputs('abortTransfer'), [{ transferId: body.transferId, errorInformation: { errorCode: '3100' }, payeeWantsNotification: true }]);
    t.deepEqual(errorCodesTo(stubs, PAYEE), ['3100']);
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3100']);
    t.like(
      hubMessages(stubs).find((m) => m.method === 'PATCH'),
      { to: PAYEE, body: { transferState: 'ABORTED' } },
    );
  },
);

test.serial(
  'a fulfilment the ledger handles only after the expiration (3303: a worker that was down, a fulfil taken with the expiry) commits nothing: both sides get 3303, and a RESERVED payee PATCH ABORTED',
  async (t) => {
    stubs.script({
      commitTransfer: async () => {
        throw rejection('transferExpired');
      },
    });
    const { fulfilment, handle } = await prepared(t);
    await forwarded();
    await handle.signal(fulfilSignal, fulfil(fulfilment, 'RESERVED'));
    t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '3303' } });
    t.deepEqual(errorCodesTo(stubs, PAYEE), ['3303']);
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3303']);
    t.like(
      hubMessages(stubs).find((m) => m.method === 'PATCH'),
      { to: PAYEE, body: { transferState: 'ABORTED' } },
    );
    t.false(
      hubMessages(stubs).some((m) => m.to === PAYER && !m.path.endsWith('/error')),
      'the payer hears no COMMITTED',
    );
  },
);

test.serial('a fulfil that arrives after the expiry, while the hub is still telling the payee, is answered as a late one and never committed', async (t) => {
  // The payee's 3303 fails once and its retry is held, so the fulfil reaches a workflow that has decided but not closed.
  const telling = gate();
  let attempts = 0;
  stubs.script({
    deliverFromHub: async (delivery: { to: string }) => {
      if (delivery.to !== PAYEE) return;
      if (attempts++ === 0) throw new Error('503 Service Unavailable');
      await telling.held;
    },
  });
  const { body, fulfilment, handle } = await prepared(t);
  await forwarded();
  // Time skips only while the test sleeps; the held retry then waits in real time.
  await t.context.environment.sleep(HOUR);
  const first = await stubs.next('deliverFromHub', (d) => d.to === PAYEE);
  await stubs.next('deliverFromHub', (d) => d.to === PAYEE && d !== first);
  const late = fulfil(fulfilment);
  await handle.signal(fulfilSignal, late);
  telling.release();
  t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '3303' } });
  t.deepEqual(stubs.inputs('commitTransfer'), []);
  t.deepEqual(stubs.inputs('lateTransferCallback'), [{ transferId: body.transferId, callback: late, version: '1.1' }]);
});

test.serial(
  "a fulfil that reaches the hub while it handles the expiry is answered as a late one: no workflow task fails, both sides hear the expiry's 3303 once, nothing commits",
  async (t) => {
    const { body, fulfilment, handle } = await prepared(t);
    await forwarded();
    // The fulfil is signalled while the ledger releases the reservation, in the very workflow task that carries out the expiry.
    const late = fulfil(fulfilment);
    stubs.script({
      abortTransfer: meanwhile(
        () => handle.signal(fulfilSignal, late),
        () => ({ completedTimestamp: COMPLETED }),
      ),
      // The ledger refuses a commit after the expiration, whoever asks.
      commitTransfer: async () => {
        throw rejection('transferExpired');
      },
    });
    t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '3303' } });
    t.deepEqual(await failedWorkflowTasks(t.context.client, handle.workflowId), []);
    t.is(stubs.inputs('abortTransfer').length, 1, 'the reservation is released once');
    t.deepEqual(errorCodesTo(stubs, PAYEE), ['3303']);
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3303']);
    t.deepEqual(stubs.inputs('commitTransfer'), []);
    t.deepEqual(
      stubs.inputs('lateTransferCallback'),
      [{ transferId: body.transferId, callback: late, version: '1.1' }],
      'answered from the record, as a later PUT',
    );
  },
);

test.serial(
  'a duplicate prepare while the transfer is in progress: the same request is ignored, a changed one gets 3106, and the transfer goes on',
  async (t) => {
    const { body, input, fulfilment, handle } = await prepared(t);
    await forwarded();
    await handle.signal(repeatedTransferSignal, { requestHash: input.requestHash, headers: input.headers });
    const changed = receivedRequest({ ...body, amount: { amount: '11', currency: 'USD' } }, PAYER, PAYEE);
    await handle.signal(repeatedTransferSignal, { requestHash: changed.requestHash, headers: changed.headers });
    await stubs.next('deliverFromHub', (d) => d.to === PAYER);
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3106']);
    t.is(stubs.inputs('prepareTransfer').length, 1, 'prepared once');
    t.is(stubs.inputs('deliver').filter((d) => d.method === 'POST').length, 1, 'forwarded once');

    await handle.signal(fulfilSignal, fulfil(fulfilment));
    t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
  },
);

test.serial('a prepare the ledger finds decided long ago is answered from the record: nothing is forwarded, reserved or told anew', async (t) => {
  stubs.script({ prepareTransfer: async () => ({ outcome: 'repeat', transferState: 'COMMITTED' }) });
  const { body, input, handle } = await prepared(t);
  t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
  t.deepEqual(stubs.inputs('repeatedTransfer'), [{ transferId: body.transferId, requestHash: input.requestHash, requester: PAYER, version: '1.1' }]);
  t.deepEqual(hubMessages(stubs), []);
  t.deepEqual(stubs.inputs('commitTransfer'), []);
  t.deepEqual(stubs.inputs('abortTransfer'), []);
});

test.serial('a prepare the ledger refuses (4200, the Net Debit Cap) is answered to its sender with that error and never forwarded', async (t) => {
  stubs.script({
    prepareTransfer: async () => {
      throw rejection('payerLimitError');
    },
  });
  const { handle } = await prepared(t);
  t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '4200' } });
  t.deepEqual(errorCodesTo(stubs, PAYER), ['4200']);
  t.deepEqual(stubs.inputs('deliver'), []);
  t.deepEqual(stubs.inputs('abortTransfer'), [], 'nothing was reserved');
});

test.serial("a fulfil or error from anyone but the payee is refused to its sender with 3100; the payee's fulfil still commits", async (t) => {
  const { fulfilment, handle } = await prepared(t);
  await forwarded();
  await handle.signal(fulfilSignal, fulfil(fulfilment, 'COMMITTED', 'mallory'));
  await handle.signal(rejectSignal, receivedCallback({ errorInformation: { errorCode: '5000', errorDescription: 'Generic Payee error' } }, 'mallory', PAYER));
  await handle.signal(fulfilSignal, fulfil(fulfilment));
  t.deepEqual(await handle.result(), { transferState: 'COMMITTED' });
  t.deepEqual(errorCodesTo(stubs, 'mallory'), ['3100', '3100']);
  t.is(stubs.inputs('commitTransfer').length, 1);
});

test.serial('a payee that cannot be reached after every retry: the transfer is aborted at once with 1001 to the payer, not left to expire', async (t) => {
  stubs.script({
    deliver: async (delivery: { method: string }) => {
      if (delivery.method === 'POST') throw new Error('connect ECONNREFUSED');
    },
  });
  const { body, handle } = await prepared(t);
  t.like(await handle.result(), { transferState: 'ABORTED', errorInformation: { errorCode: '1001' } }, 'not 3303: it did not wait for the expiration');
  t.true(stubs.inputs('deliver').length > 1, 'the forward was retried');
  t.like(stubs.inputs('abortTransfer'), [{ transferId: body.transferId, errorInformation: { errorCode: '1001' } }]);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['1001']);
});
