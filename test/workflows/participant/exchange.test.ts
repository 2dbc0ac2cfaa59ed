import crypto from 'node:crypto';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import type { exchange, ExchangeInput } from '../../../workflows/participant/exchange';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The participant kit's exchange workflow (one request a connector sends and the one callback that answers it,
// Document 2 "Endpoints", rule 1: the result of a request arrives as a PUT on the callback path) on the
// time-skipping server, in the DFSP connector's bundle, with a stub sendToSwitch. Answers reach it as the inbound
// gateway hands them over: a signal to the workflow named after the answer's resource and ID. REQUEST_TIMEOUT_MS is a
// minute. Serial: each test moves the one server clock the file shares.
const ME = 'payerfsp';
const PAYEE_FSP = 'payeefsp';
const HUB = 'Hub';

const stubs = new StubActivities({ sendToSwitch: async () => undefined });
const test = stubbedWorkflowTest('dfsp', stubs);

/** A callback on quotes or parties, in `source`'s name. */
const callback = (request: OutgoingMessage, id: string, name: 'answer' | 'error', source: string, fromSwitch = false): PeerMessage => ({
  resource: request.resource,
  name,
  id,
  source,
  fromSwitch,
  headers: { 'fspiop-source': source, 'fspiop-destination': ME },
  body: name === 'error' ? { errorInformation: errorInformation('destinationCommunicationError') } : { answeredBy: source },
});

/** The payer's POST /quotes to the payee FSP, as an exchange waiting a minute for PUT /quotes/{ID}. */
async function quoting(t: { context: StubbedWorkflows }, changes: Partial<ExchangeInput> = {}) {
  const quoteId = crypto.randomUUID();
  const request: OutgoingMessage = { to: PAYEE_FSP, resource: 'quotes', name: 'request', body: { quoteId } };
  const input: ExchangeInput = { request, answerId: quoteId, waitMs: MINUTE, ...changes };
  const handle = await t.context.start<typeof exchange>('exchange', participantWorkflowIds.exchange(input.request.resource, input.answerId), input);
  return { request: input.request, id: input.answerId, handle };
}

/** How long the workflow ran, on the server's clock. */
async function ranFor(handle: { describe(): Promise<{ startTime: Date; closeTime?: Date }> }): Promise<number> {
  const { startTime, closeTime } = await handle.describe();
  return closeTime!.getTime() - startTime.getTime();
}

test.serial("the request goes to the switch once, and the addressee's PUT on the callback path is the exchange's answer", async (t) => {
  const { request, id, handle } = await quoting(t);
  const answer = callback(request, id, 'answer', PAYEE_FSP);
  await handle.signal(peerMessageSignal, answer);
  t.deepEqual(await handle.result(), { kind: 'answered', message: answer });
  t.deepEqual(stubs.inputs('sendToSwitch'), [request]);
});

test.serial(
  "a callback in another participant's name does not answer a request addressed to the payee FSP; the switch's own error does (it speaks for an addressee it cannot reach)",
  async (t) => {
    const { request, id, handle } = await quoting(t);
    await handle.signal(peerMessageSignal, callback(request, id, 'answer', 'mallory'));
    await handle.signal(peerMessageSignal, callback(request, id, 'error', 'mallory'));
    const switchError = callback(request, id, 'error', HUB, true);
    await handle.signal(peerMessageSignal, switchError);
    t.deepEqual(await handle.result(), { kind: 'answered', message: switchError });
  },
);

test.serial('no callback within the wait: the exchange ends timedOut once REQUEST_TIMEOUT_MS has passed, not before', async (t) => {
  const { handle } = await quoting(t);
  t.deepEqual(await handle.result(), { kind: 'timedOut' });
  const ran = await ranFor(handle);
  t.true(ran >= MINUTE && ran < 2 * MINUTE, `ran ${ran} ms`);
});

test.serial("the switch refusing the request (a 4xx) ends the exchange at once with the switch's ErrorInformation: no callback will come", async (t) => {
  stubs.script({
    sendToSwitch: async () => {
      throw rejection('payeeFspRejectedQuote', 'no endpoint');
    },
  });
  const { handle } = await quoting(t);
  t.like(await handle.result(), { kind: 'refused', errorInformation: { errorCode: '5103' } });
  t.is(stubs.inputs('sendToSwitch').length, 1, 'a refusal is not retried');
  t.true((await ranFor(handle)) < MINUTE);
});

test.serial(
  'a send that keeps failing otherwise (timeouts, 5xx) may have reached the switch: after its retries the callback is still awaited and taken',
  async (t) => {
    stubs.script({
      sendToSwitch: async () => {
        throw new Error('503 Service Unavailable');
      },
    });
    const { request, id, handle } = await quoting(t);
    const answer = callback(request, id, 'answer', PAYEE_FSP);
    await handle.signal(peerMessageSignal, answer);
    t.deepEqual(await handle.result(), { kind: 'answered', message: answer });
    t.true(stubs.inputs('sendToSwitch').length > 1, 'the send was retried');
  },
);

test.serial('GET /parties names no destination (the switch finds the FSP): the PUT /parties of whichever FSP holds the party answers it', async (t) => {
  const partyId = `MSISDN/2557${crypto.randomInt(10 ** 7, 10 ** 8)}`;
  const { request, handle } = await quoting(t, { request: { resource: 'parties', name: 'get', id: partyId }, answerId: partyId });
  const answer = callback(request, partyId, 'answer', 'some-other-fsp');
  await handle.signal(peerMessageSignal, answer);
  t.deepEqual(await handle.result(), { kind: 'answered', message: answer });
});

test.serial('an exchange only the switch answers (GET /transfers/{ID}, from: []) takes no PUT in the payee FSP’s name', async (t) => {
  const transferId = crypto.randomUUID();
  const { request, handle } = await quoting(t, { request: { resource: 'transfers', name: 'get', id: transferId }, answerId: transferId, from: [] });
  await handle.signal(peerMessageSignal, callback(request, transferId, 'answer', PAYEE_FSP));
  const fromTheSwitch = callback(request, transferId, 'answer', HUB, true);
  await handle.signal(peerMessageSignal, fromTheSwitch);
  t.deepEqual(await handle.result(), { kind: 'answered', message: fromTheSwitch });
});

test.serial('a message of a kind that does not answer the request (a PATCH) is not taken for its answer', async (t) => {
  const { request, id, handle } = await quoting(t);
  await handle.signal(peerMessageSignal, { ...callback(request, id, 'answer', PAYEE_FSP), name: 'patch' });
  t.deepEqual(await handle.result(), { kind: 'timedOut' });
});
