import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { BulkQuotesPostRequest } from '../../../activities/shared/contracts/bodies';
import type { bulkQuote } from '../../../workflows/hub/bulkQuote';
import { quoteResponseSignal } from '../../../workflows/kit/quoteConversation';
import { bulkQuoteAnswer, bulkQuoteBody } from '../../helpers/fspiopBodies';
import { errorCodesTo, hubMessages, receivedCallback, receivedRequest, deliveredByHub } from '../../helpers/hubMessages';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, DAY } from '../../helpers/stubbedWorkflows';

// The hub's bulk quote workflow (Document 2, /bulkQuotes) on the time-skipping server, with stub record and delivery
// activities. Serial: each test moves the one server clock the file shares.
const PAYER = 'payerfsp';
const PAYEE = 'payeefsp';

const stubs = new StubActivities({
  registerQuote: async ({ payeeFsp }: { payeeFsp?: string }) => {
    if (!payeeFsp) throw rejection('validationError', 'FSPIOP-Destination must name the payee FSP');
    return { payeeFsp, repeat: false };
  },
  completeQuote: async () => undefined,
  repeatedQuote: async () => undefined,
  ...deliveredByHub,
});
const test = stubbedWorkflowTest('hub', stubs);

/** A bulk quote of three individual quotes expiring a day past the server's clock, sent to `destination` (FSPIOP-Destination). */
async function requested(t: { context: StubbedWorkflows }, destination: string | undefined, payeeFspOf?: (index: number) => string) {
  const body: BulkQuotesPostRequest = { ...bulkQuoteBody(PAYER, PAYEE, 3, { payeeFspOf }), expiration: await t.context.expiration(DAY) };
  const input = receivedRequest(body, PAYER, destination);
  const handle = await t.context.start<typeof bulkQuote>('bulkQuote', workflowIds.bulkQuote(body.bulkQuoteId), input);
  return { body, input, handle };
}

test.serial('a bulk quote goes to the payee FSP byte for byte and its answer back to the payer as it came', async (t) => {
  const { body, input, handle } = await requested(t, PAYEE);
  t.like(await stubs.next('deliver', (d) => d.to === PAYEE), { method: 'POST', path: '/bulkQuotes', rawBody: input.rawBody });
  const answer = receivedCallback(bulkQuoteAnswer(body), PAYEE, PAYER);
  await handle.signal(quoteResponseSignal, { kind: 'quote', callback: answer });
  t.like(await handle.result(), { state: 'ACCEPTED' });
  t.like(hubMessages(stubs)[1], { to: PAYER, method: 'PUT', path: `/bulkQuotes/${body.bulkQuoteId}`, fromHub: false, rawBody: answer.rawBody });
  t.like(stubs.inputs('completeQuote'), [{ resource: 'bulkQuotes', id: body.bulkQuoteId, state: 'ACCEPTED', body: answer.rawBody }]);
});

test.serial('a bulk quote the payee FSP does not answer by its expiration a day ahead gets 3302 from the hub', async (t) => {
  const { body, handle } = await requested(t, PAYEE);
  await stubs.next('deliver', (d) => d.to === PAYEE);
  await t.context.environment.sleep(DAY - 60_000);
  t.deepEqual(errorCodesTo(stubs, PAYER), [], 'a minute before the expiration it still waits');
  t.like(await handle.result(), { state: 'EXPIRED', errorInformation: { errorCode: '3302' } });
  t.like(hubMessages(stubs)[1], { to: PAYER, fromHub: true, path: `/bulkQuotes/${body.bulkQuoteId}/error` });
  t.like(stubs.inputs('completeQuote'), [{ resource: 'bulkQuotes', state: 'EXPIRED' }]);
});

test.serial("the payee FSP's error is relayed to the payer unchanged", async (t) => {
  const { body, handle } = await requested(t, PAYEE);
  await stubs.next('deliver', (d) => d.to === PAYEE);
  const refusal = receivedCallback({ errorInformation: { errorCode: '5103', errorDescription: 'Payee FSP rejected quote' } }, PAYEE, PAYER);
  await handle.signal(quoteResponseSignal, { kind: 'error', callback: refusal });
  t.like(await handle.result(), { state: 'REJECTED', errorInformation: { errorCode: '5103' } });
  t.like(hubMessages(stubs)[1], { to: PAYER, path: `/bulkQuotes/${body.bulkQuoteId}/error`, fromHub: false, rawBody: refusal.rawBody });
});

test.serial(
  'without FSPIOP-Destination the payee FSP is the one every individual quote names; with several named, none is, and the switch refuses it',
  async (t) => {
    const one = await requested(t, undefined);
    await stubs.next('deliver', (d) => d.to === PAYEE);
    t.like(stubs.inputs('registerQuote'), [{ resource: 'bulkQuotes', payeeFsp: PAYEE }]);
    await one.handle.signal(quoteResponseSignal, { kind: 'quote', callback: receivedCallback(bulkQuoteAnswer(one.body), PAYEE, PAYER) });
    t.like(await one.handle.result(), { state: 'ACCEPTED' });

    stubs.reset();
    const several = await requested(t, undefined, (index) => (index === 0 ? PAYEE : 'otherfsp'));
    t.like(await several.handle.result(), { state: 'REJECTED', errorInformation: { errorCode: '3100' } });
    t.like(stubs.inputs('registerQuote'), [{ payeeFsp: undefined }]);
    t.deepEqual(stubs.inputs('deliver'), []);
    t.deepEqual(errorCodesTo(stubs, PAYER), ['3100']);
  },
);
