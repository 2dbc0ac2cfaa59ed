import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { QuotesPostRequest } from '../../../activities/shared/contracts/bodies';
import type { quote } from '../../../workflows/hub/quote';
import { quoteResponseSignal, repeatedQuoteSignal } from '../../../workflows/kit/quoteConversation';
import { ilpPair, quoteBody } from '../../helpers/fspiopBodies';
import { failedWorkflowTasks } from '../../helpers/histories';
import { errorCodesTo, hubMessages, receivedCallback, receivedRequest, deliveredByHub } from '../../helpers/hubMessages';
import { meanwhile, rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, HOUR } from '../../helpers/stubbedWorkflows';

// The hub's quote workflow (Document 2, /quotes) on the time-skipping server, with stub record and delivery
// activities: the request goes to the payee FSP, its answer or error back to the payer, 3302 if the expiration passes
// first. Serial: each test moves the one server clock the file shares.
const PAYER = 'payerfsp';
const PAYEE = 'payeefsp';

const stubs = new StubActivities({
  registerQuote: async ({ payeeFsp }: { payeeFsp: string }) => ({ payeeFsp, repeat: false }),
  completeQuote: async () => undefined,
  repeatedQuote: async () => undefined,
  ...deliveredByHub,
});
const test = stubbedWorkflowTest('hub', stubs);

/** A quote from the payer to the payee expiring `aheadMs` past the server's clock (or naming no expiration). */
async function requested(t: { context: StubbedWorkflows }, aheadMs: number | null = HOUR) {
  const { expiration: _none, ...withoutExpiration } = quoteBody(PAYER, PAYEE, '10');
  const body: QuotesPostRequest = aheadMs === null ? withoutExpiration : { ...withoutExpiration, expiration: await t.context.expiration(aheadMs) };
  const input = receivedRequest(body, PAYER, PAYEE);
  const handle = await t.context.start<typeof quote>('quote', workflowIds.quote(body.quoteId), input);
  return { body, input, handle };
}

const forwarded = () => stubs.next('deliver', (d) => d.to === PAYEE && d.method === 'POST');

/** The payee FSP's PUT /quotes/{ID}. */
const answerOf = (from = PAYEE) =>
  receivedCallback(
    {
      transferAmount: { amount: '10', currency: 'USD' },
      expiration: new Date(Date.now() + HOUR).toISOString(),
      ilpPacket: Buffer.from('ilp packet of the quote').toString('base64url'),
      condition: ilpPair().condition,
    },
    from,
    PAYER,
  );

test.serial(
  "a quote goes to the payee FSP byte for byte and the payee's answer back to the payer as it came; the answer is recorded for repeats and GETs",
  async (t) => {
    const { body, input, handle } = await requested(t);
    const post = await forwarded();
    t.like(post, { path: '/quotes', rawBody: input.rawBody, headers: input.headers });
    t.deepEqual(stubs.inputs('registerQuote'), [{ resource: 'quotes', id: body.quoteId, payerFsp: PAYER, payeeFsp: PAYEE, requestHash: input.requestHash }]);

    const answer = answerOf();
    await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answer });
    t.deepEqual(await handle.result(), { state: 'ACCEPTED' });
    t.like(hubMessages(stubs)[1], {
      to: PAYER,
      method: 'PUT',
      path: `/quotes/${body.quoteId}`,
      fromHub: false,
      rawBody: answer.rawBody,
      headers: answer.headers,
    });
    t.deepEqual(stubs.inputs('completeQuote'), [{ resource: 'quotes', id: body.quoteId, state: 'ACCEPTED', headers: answer.headers, body: answer.rawBody }]);
  },
);

test.serial("the payee FSP's error is relayed to the payer unchanged, and recorded", async (t) => {
  const { body, handle } = await requested(t);
  await forwarded();
  const refusal = receivedCallback({ errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } }, PAYEE, PAYER);
  await handle.signal(quoteResponseSignal, { kind: 'error', callback: refusal });
  t.deepEqual(await handle.result(), { state: 'REJECTED', errorInformation: refusal.body.errorInformation });
  t.like(hubMessages(stubs)[1], { to: PAYER, path: `/quotes/${body.quoteId}/error`, fromHub: false, rawBody: refusal.rawBody });
  t.like(stubs.inputs('completeQuote'), [{ state: 'REJECTED', body: refusal.rawBody }]);
});

test.serial('a quote the payee FSP does not answer by its expiration an hour ahead gets 3302 from the hub, and is recorded EXPIRED', async (t) => {
  const { body, handle } = await requested(t);
  await forwarded();
  await t.context.environment.sleep(HOUR - 60_000);
  t.deepEqual(errorCodesTo(stubs, PAYER), [], 'a minute before the expiration the quote still waits');

  t.like(await handle.result(), { state: 'EXPIRED', errorInformation: { errorCode: '3302' } });
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3302']);
  t.like(hubMessages(stubs)[1], { fromHub: true, path: `/quotes/${body.quoteId}/error` });
  t.like(stubs.inputs('completeQuote'), [{ state: 'EXPIRED' }]);
  t.deepEqual(errorCodesTo(stubs, PAYEE), [], 'the payee FSP is not told');
});

test.serial('an answer that reaches the hub while it handles the expiry never reaches the payer, who hears 3302 once; no workflow task fails', async (t) => {
  const { handle } = await requested(t);
  await forwarded();
  // The answer is signalled while the expiry is recorded, in the very workflow task that carries out the expiry.
  stubs.script({
    completeQuote: meanwhile(
      () => handle.signal(quoteResponseSignal, { kind: 'quote', callback: answerOf() }),
      () => undefined,
    ),
  });
  t.like(await handle.result(), { state: 'EXPIRED', errorInformation: { errorCode: '3302' } });
  t.deepEqual(await failedWorkflowTasks(t.context.client, handle.workflowId), []);
  t.like(stubs.inputs('completeQuote'), [{ state: 'EXPIRED' }]);
  t.is(stubs.inputs('completeQuote').length, 1, 'recorded once');
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3302']);
  t.is(hubMessages(stubs).filter((m) => m.to === PAYER).length, 1, 'the payer hears the 3302 and nothing else');
});

test.serial('an answer in the last minute before the expiration still reaches the payer', async (t) => {
  const { handle } = await requested(t);
  await forwarded();
  await t.context.environment.sleep(HOUR - 60_000);
  await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answerOf() });
  t.like(await handle.result(), { state: 'ACCEPTED' });
});

test.serial('a quote naming no expiration gets 3302 once the default minute of waiting for an answer has passed', async (t) => {
  const { handle } = await requested(t, null);
  await forwarded();
  await t.context.environment.sleep(50_000);
  t.deepEqual(errorCodesTo(stubs, PAYER), []);
  await t.context.environment.sleep(11_000);
  await stubs.next('deliverFromHub', (d) => d.to === PAYER);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3302']);
  t.like(await handle.result(), { state: 'EXPIRED', errorInformation: { errorCode: '3302' } });
});

test.serial('a quote whose expiration passed before it reached the switch is not forwarded: 3302 at once', async (t) => {
  const { handle } = await requested(t, -1_000);
  t.like(await handle.result(), { state: 'EXPIRED', errorInformation: { errorCode: '3302' } });
  t.deepEqual(stubs.inputs('deliver'), []);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3302']);
});

test.serial('a quote the switch refuses to register (3201, an unknown payee FSP) is answered with that error and never forwarded', async (t) => {
  stubs.script({
    registerQuote: async () => {
      throw rejection('destinationFspError', "Unsupported participant 'payeefsp'");
    },
  });
  const { handle } = await requested(t);
  t.like(await handle.result(), { state: 'REJECTED', errorInformation: { errorCode: '3201' } });
  t.deepEqual(stubs.inputs('deliver'), []);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3201']);
});

test.serial("only the payee FSP may answer: a stranger's answer is refused with 3100 and never reaches the payer", async (t) => {
  const { handle } = await requested(t);
  await forwarded();
  await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answerOf('mallory') });
  await stubs.next('deliverFromHub', (d) => d.to === 'mallory');
  t.deepEqual(errorCodesTo(stubs, 'mallory'), ['3100']);
  const answer = answerOf();
  await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answer });
  t.like(await handle.result(), { state: 'ACCEPTED' });
  t.deepEqual(
    hubMessages(stubs)
      .filter((m) => m.to === PAYER)
      .map((m) => m.rawBody),
    [answer.rawBody],
  );
});

test.serial('a duplicate quote request in progress: the same one is ignored, a changed one gets 3106', async (t) => {
  const { body, input, handle } = await requested(t);
  await forwarded();
  await handle.signal(repeatedQuoteSignal, { requestHash: input.requestHash, headers: input.headers });
  const changed = receivedRequest({ ...body, amount: { amount: '11', currency: 'USD' } }, PAYER, PAYEE);
  await handle.signal(repeatedQuoteSignal, { requestHash: changed.requestHash, headers: changed.headers });
  await stubs.next('deliverFromHub', (d) => d.to === PAYER);
  t.deepEqual(errorCodesTo(stubs, PAYER), ['3106']);
  await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answerOf() });
  t.like(await handle.result(), { state: 'ACCEPTED' });
  t.is(stubs.inputs('deliver').filter((d) => d.method === 'POST').length, 1, 'forwarded once');
});

test.serial('a quote the record shows answered long ago is answered from the record, not forwarded again', async (t) => {
  stubs.script({ registerQuote: async () => ({ payeeFsp: PAYEE, repeat: true }) });
  const { body, input, handle } = await requested(t);
  t.deepEqual(await handle.result(), { state: 'REPEATED' });
  t.deepEqual(stubs.inputs('repeatedQuote'), [{ resource: 'quotes', id: body.quoteId, requestHash: input.requestHash, requester: PAYER, version: '1.1' }]);
  t.deepEqual(hubMessages(stubs), []);
});
