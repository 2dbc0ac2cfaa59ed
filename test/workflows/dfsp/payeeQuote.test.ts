import crypto from 'node:crypto';
import type { QuotesIDPutResponse, QuotesPostRequest } from '../../../activities/shared/contracts/bodies';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import type { payeeQuote } from '../../../workflows/dfsp/payeeQuote';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { ilpPair, quoteBody } from '../../helpers/fspiopBodies';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The DFSP connector's payeeQuote workflow (Document 2, "Quotes", the payee FSP's side) on the time-skipping server,
// fed the switch's POST /quotes as the inbound gateway feeds it (a signal with the start), with a stub bank that
// quotes (quoteAsPayee) and a stub sendToSwitch that records the answers. Quotes expire a minute ahead. Serial: each
// test moves the one server clock the file shares.
const PAYER_FSP = 'payerfsp';
const ME = 'payeefsp';
/** How long a refused quote's repeats are still answered (REFUSAL_KEPT_MS). */
const REFUSAL_KEPT = MINUTE;

/** The bank's terms: the amount asked, no fees, standing until the quote's expiration, with a packet and condition. */
const termsOf = (request: QuotesPostRequest): QuotesIDPutResponse => ({
  transferAmount: request.amount,
  payeeReceiveAmount: request.amount,
  expiration: request.expiration!,
  ilpPacket: Buffer.from(`ilp packet of quote ${request.quoteId}`).toString('base64url'),
  condition: ilpPair().condition,
});

const stubs = new StubActivities({
  quoteAsPayee: async (request: QuotesPostRequest) => ({ ok: true, body: termsOf(request) }),
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

/** The switch's POST /quotes for 10 USD from the payer FSP, expiring a minute past the server's clock, as the inbound gateway hands it over. */
async function asked(t: { context: StubbedWorkflows }) {
  const expiration = await t.context.expiration(MINUTE);
  const quote: QuotesPostRequest = { ...quoteBody(PAYER_FSP, ME, '10'), expiration };
  const post: PeerMessage = { resource: 'quotes', name: 'request', source: PAYER_FSP, fromSwitch: false, headers: { 'fspiop-source': PAYER_FSP }, body: quote };
  const handle = await t.context.client.workflow.signalWithStart<typeof payeeQuote, [PeerMessage]>('payeeQuote', {
    workflowId: participantWorkflowIds.payeeQuote(quote.quoteId),
    taskQueue: t.context.taskQueue,
    args: [],
    signal: peerMessageSignal,
    signalArgs: [post],
  });
  return { quote, post, handle };
}

const answers = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];
/** Skips the server's clock to `ms` (the clock moves on by itself while the test works, so not by a fixed amount). */
async function sleepUntil(t: { context: StubbedWorkflows }, ms: number) {
  await t.context.environment.sleep(ms - (await t.context.environment.currentTimeMs()));
}

test.serial(
  "a quote the bank prices: the payer FSP gets PUT /quotes/{ID} with the bank's terms, the ILP packet and the condition, and the conversation ends at the quote's expiration",
  async (t) => {
    const { quote, handle } = await asked(t);
    const answer = await stubs.next('sendToSwitch');
    t.deepEqual(stubs.inputs('quoteAsPayee'), [quote]);
    t.deepEqual(answer, {
      to: PAYER_FSP,
      resource: 'quotes',
      name: 'answer',
      id: quote.quoteId,
      body: { ...termsOf(quote), condition: answer.body.condition },
    });
    t.regex(answer.body.condition, /^[A-Za-z0-9_-]{43}$/);

    await sleepUntil(t, Date.parse(quote.expiration!) - 3_000);
    t.is((await handle.describe()).status.name, 'RUNNING', 'a few seconds before the expiration it still answers repeats');
    await handle.result();
    t.is(answers().length, 1);
  },
);

test.serial(
  'a repeated POST /quotes (rule 3): the same quote is answered again without asking the bank twice, one with other terms is refused 3106',
  async (t) => {
    const { quote, post, handle } = await asked(t);
    const first = await stubs.next('sendToSwitch');
    await handle.signal(peerMessageSignal, post);
    await stubs.next('sendToSwitch', (m) => m !== first);
    await handle.signal(peerMessageSignal, { ...post, body: { ...quote, amount: { amount: '11', currency: 'USD' } } });
    const refused = await stubs.next('sendToSwitch', (m) => m.name === 'error');
    t.deepEqual(answers()[1], first);
    t.like(refused, { to: PAYER_FSP, id: quote.quoteId, body: { errorInformation: { errorCode: '3106' } } });
    t.is(stubs.inputs('quoteAsPayee').length, 1);
    await handle.result();
    t.is(answers().length, 3);
  },
);

test.serial(
  "a quote the bank refuses goes to the payer FSP as PUT /quotes/{ID}/error with the bank's code, and a repeat within a minute gets the same refusal",
  async (t) => {
    stubs.script({ quoteAsPayee: async () => ({ ok: false, errorInformation: errorInformation('payeeRejectedQuote') }) });
    const { quote, post, handle } = await asked(t);
    const refusal = await stubs.next('sendToSwitch');
    t.like(refusal, { to: PAYER_FSP, resource: 'quotes', name: 'error', id: quote.quoteId, body: { errorInformation: { errorCode: '5101' } } });
    await handle.signal(peerMessageSignal, post);
    await stubs.next('sendToSwitch', (m) => m !== refusal);
    t.deepEqual(answers()[1], refusal);
    await handle.result();
    t.true((await ranFor(handle)) >= REFUSAL_KEPT);
    t.is(stubs.inputs('quoteAsPayee').length, 1);
  },
);

test.serial('a bank that cannot be reached, after its retries, is answered 2001 to the payer FSP', async (t) => {
  stubs.script({
    quoteAsPayee: async () => {
      throw new Error('connect ECONNREFUSED');
    },
  });
  const { quote, handle } = await asked(t);
  await handle.result();
  t.true(stubs.inputs('quoteAsPayee').length > 1, 'the bank was asked again before giving up');
  t.like(answers(), [{ name: 'error', id: quote.quoteId, body: { errorInformation: { errorCode: '2001' } } }]);
});

test.serial('a conversation started without its POST ends after a minute, having asked the bank nothing and sent nothing', async (t) => {
  const handle = await t.context.start<typeof payeeQuote>('payeeQuote', participantWorkflowIds.payeeQuote(crypto.randomUUID()));
  await handle.result();
  t.true((await ranFor(handle)) >= REFUSAL_KEPT);
  t.deepEqual(stubs.calls, []);
});

/** How long the workflow ran, on the server's clock. */
async function ranFor(handle: { describe(): Promise<{ startTime: Date; closeTime?: Date }> }): Promise<number> {
  const { startTime, closeTime } = await handle.describe();
  return closeTime!.getTime() - startTime.getTime();
}
