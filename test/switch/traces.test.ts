import crypto from 'node:crypto';
import test from 'ava';
import type { MessagePage, TransferTrace } from '../../activities/shared/contracts/trace';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { QuotedPayments } from '../helpers/quotedPayments';
import { answering } from '../helpers/bulkPayees';
import { bulkItem, bulkTransferBody, transferBody } from '../helpers/fspiopBodies';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
  payments = new QuotedPayments(hub);
});

const TRACE_ID = () => crypto.randomBytes(16).toString('hex');
let payments: QuotedPayments;

const pay = async (payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string, traceId: string) =>
  (await payments.pay(payer, payee, amount, traceId)).transferId;

/**
 * The transfer's trace once it holds `count` messages: the switch logs a delivery once its answer is in, which may be
 * just after the participant has acted on it.
 */
async function traceWith(transferId: string, count: number): Promise<TransferTrace> {
  for (let attempt = 0; ; attempt++) {
    await hub.hub.messageLog!.flush();
    const answer = await hub.admin.call('GET', `/transfers/${transferId}/trace`);
    if (answer.status === 200 && (answer.body.messages.length >= count || attempt >= 50)) return answer.body as TransferTrace;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("a transfer's trace shows each of its messages and its quote's, in and out, in order, with headers and bodies; its postings and its states", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  payments.quotes(payee);
  const traceId = TRACE_ID();
  const transferId = await pay(payer, payee, '42', traceId);
  const trace = await traceWith(transferId, 8);
  t.like(trace.transfer, { transferId, payerFsp: payer.name, payeeFsp: payee.name, amount: { amount: '42', currency: 'USD' }, state: 'COMMITTED' });
  const quoteId = (trace.transaction as { quoteId: string }).quoteId;
  t.deepEqual(
    trace.conversations.map(({ kind, id, workflowId, state }) => ({ kind, id, workflowId, state })),
    [
      { kind: 'transfer', id: transferId, workflowId: `transfer/${transferId}`, state: 'COMMITTED' },
      { kind: 'quote', id: quoteId, workflowId: `quote/${quoteId}`, state: 'ACCEPTED' },
    ],
  );
  t.deepEqual(
    trace.messages.map((m) => `${m.direction} ${m.method} ${m.conversation} ${m.source}→${m.destination} ${m.status}`),
    [
      `in POST quotes/${quoteId} ${payer.name}→${payee.name} 202`,
      `out POST quotes/${quoteId} ${payer.name}→${payee.name} 202`,
      `in PUT quotes/${quoteId} ${payee.name}→${payer.name} 200`,
      `out PUT quotes/${quoteId} ${payee.name}→${payer.name} 200`,
      `in POST transfers/${transferId} ${payer.name}→${payee.name} 202`,
      `out POST transfers/${transferId} ${payer.name}→${payee.name} 202`,
      `in PUT transfers/${transferId} ${payee.name}→${payer.name} 200`,
      `out PUT transfers/${transferId} ${payee.name}→${payer.name} 200`,
    ],
  );
  const [posted, forwarded] = trace.messages.filter((m) => m.conversation === `transfers/${transferId}` && m.method === 'POST');
  t.is(posted.headers.traceparent.split('-')[1], traceId, "the payer's traceparent is kept with its message");
  t.like(posted.body, { transferId, amount: { amount: '42', currency: 'USD' } });
  t.is(forwarded.headers.traceparent, posted.headers.traceparent, 'and passed on unchanged');
  t.regex(forwarded.target, /\/transfers$/, 'where the switch delivered it');
  t.deepEqual(
    trace.journal.map(({ phase, participant, ledgerAccountType, postedAmount, reservedAmount }) => ({
      phase,
      participant,
      ledgerAccountType,
      postedAmount,
      reservedAmount,
    })),
    [
      { phase: 'RESERVE', participant: payer.name, ledgerAccountType: 'POSITION', postedAmount: '0', reservedAmount: '42' },
      { phase: 'COMMIT', participant: payer.name, ledgerAccountType: 'POSITION', postedAmount: '42', reservedAmount: '-42' },
      { phase: 'COMMIT', participant: payee.name, ledgerAccountType: 'POSITION', postedAmount: '-42', reservedAmount: '0' },
    ],
  );
  t.deepEqual(
    trace.timeline.map((step) => step.state),
    ['RECEIVED', 'RESERVED', 'COMMITTED'],
  );
  t.true(trace.timeline.every((step, i) => i === 0 || step.at >= trace.timeline[i - 1].at));
});

test('an operator finds transfers by payer, payee, state, currency, time and by the trace ID a participant sent, newest first', async (t) => {
  const [payer, payee, other] = [await hub.provision(), await hub.provision(), await hub.provision()];
  payments.quotes(payee);
  payments.quotes(other);
  const since = new Date();
  const traceId = TRACE_ID();
  const first = await pay(payer, payee, '11', TRACE_ID());
  const second = await pay(payer, other, '12', traceId);
  await hub.hub.messageLog!.flush();
  const found = async (query: string) => ((await hub.admin.call('GET', `/transfers?${query}`)).body as Array<{ transferId: string }>).map((s) => s.transferId);

  t.deepEqual(await found(`payerFsp=${payer.name}`), [second, first]);
  t.deepEqual(await found(`payeeFsp=${other.name}`), [second]);
  t.deepEqual(await found(`payerFsp=${payer.name}&state=COMMITTED&currency=USD&fromDateTime=${since.toISOString()}`), [second, first]);
  t.deepEqual(await found(`payerFsp=${payer.name}&toDateTime=${since.toISOString()}`), []);
  t.deepEqual(await found(`traceId=${traceId}`), [second]);
  t.deepEqual(await found(`transferId=${first}`), [first]);
  t.deepEqual(await found(`payerFsp=${payer.name}&limit=1`), [second]);
  const [summary] = (await hub.admin.call('GET', `/transfers?transferId=${first}`)).body;
  t.like(summary, { payerFsp: payer.name, payeeFsp: payee.name, amount: { amount: '11', currency: 'USD' }, state: 'COMMITTED' });
});

test('a search it cannot read is refused 3101, and a transfer the switch never saw has no trace (3200)', async (t) => {
  const badDate = await hub.admin.call('GET', '/transfers?fromDateTime=yesterday');
  t.is(badDate.status, 400);
  t.is(badDate.body.errorInformation.errorCode, '3101');
  const badState = await hub.admin.call('GET', '/transfers?state=LOST');
  t.is(badState.body.errorInformation.errorCode, '3101');
  const unknown = await hub.admin.call('GET', `/transfers/${crypto.randomUUID()}/trace`);
  t.is(unknown.status, 400);
  t.is(unknown.body.errorInformation.errorCode, '3200');
});

test("any conversation has a trace of its own: a quote's messages; a bulk's, with the transfers it holds, each of which traces back to it", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  payments.quotes(payee);
  const transferId = await pay(payer, payee, '3', TRACE_ID());
  const quoteId = ((await traceWith(transferId, 8)).transaction as { quoteId: string }).quoteId;
  const quote = await hub.admin.call('GET', `/conversations/quotes/${quoteId}/trace`);
  t.is(quote.status, 200);
  t.deepEqual(
    quote.body.messages.map((m: { direction: string; method: string }) => `${m.direction} ${m.method}`),
    ['in POST', 'out POST', 'in PUT', 'out PUT'],
  );

  const bulkPayee = await hub.provision();
  const items = [bulkItem('1'), bulkItem('2')];
  const fulfilments = new Map(items.map((item) => [item.transfer.transferId, item.fulfilment]));
  answering(hub, bulkPayee, (id) => ({ fulfilment: fulfilments.get(id)! }));
  const bulk = bulkTransferBody(payer.name, bulkPayee.name, items);
  await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: bulkPayee.name, body: bulk });
  await payer.waitFor((r) => r.method === 'PUT' && r.path === `/bulkTransfers/${bulk.bulkTransferId}`);
  await hub.hub.messageLog!.flush();
  const traced = await hub.admin.call('GET', `/conversations/bulkTransfers/${bulk.bulkTransferId}/trace`);
  t.deepEqual(
    traced.body.transfers,
    items.map((item) => item.transfer.transferId),
  );
  t.true(traced.body.messages.length >= 3, 'the POST in and out, the PUT in (and out once logged)');
  const item = await traceWith(items[1].transfer.transferId, 3);
  t.like(item.conversations[0], { kind: 'bulkTransfer', id: bulk.bulkTransferId, workflowId: `bulkTransfer/${bulk.bulkTransferId}` });

  const unknown = await hub.admin.call('GET', `/conversations/thirdpartyRequests/transactions/${crypto.randomUUID()}/trace`);
  t.is(unknown.status, 400);
  t.is(unknown.body.errorInformation.errorCode, '3200');
});

test('the alarms read transfers still open past a given expiration, and the participants the switch fails to deliver to', async (t) => {
  const [payer, silent, gone] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const open = transferBody(payer.name, silent.name, '4', { expiresInMs: 60_000 });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: silent.name, body: open });
  await silent.waitFor((r) => r.method === 'POST' && r.path === '/transfers');
  const found = async (query: string) => ((await hub.admin.call('GET', `/transfers?${query}`)).body as Array<{ transferId: string }>).map((s) => s.transferId);
  t.true((await found(`state=RESERVED&expiredBefore=${new Date(Date.now() + 120_000).toISOString()}`)).includes(open.transferId));
  t.false((await found(`state=RESERVED&expiredBefore=${new Date().toISOString()}`)).includes(open.transferId));

  // A payee whose endpoint no longer answers: the forward fails, and goes on being retried.
  await gone.close();
  const lost = transferBody(payer.name, gone.name, '5');
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: gone.name, body: lost });
  let failing: Array<{ participant: string; failures: number; latest: { conversation: string; error: string } }> = [];
  for (let attempt = 0; attempt < 50 && !failing.some((f) => f.participant === gone.name); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await hub.hub.messageLog!.flush();
    failing = (await hub.admin.call('GET', '/deliveries/failing')).body;
  }
  const entry = failing.find((f) => f.participant === gone.name);
  t.truthy(entry, JSON.stringify(failing));
  t.true(entry!.failures >= 1);
  t.is(entry!.latest.conversation, `transfers/${lost.transferId}`);
  t.regex(entry!.latest.error, /failed/);
});

test('a trace comes a page at a time: 100 messages unless asked, each page naming the cursor of the next while more follow', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const transferId = crypto.randomUUID();
  // 120 callbacks the switch refuses (no such state), each numbered in its body.
  for (let chunk = 0; chunk < 12; chunk++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        hub.fspiop('PUT', `/transfers/${transferId}`, { source: payee.name, destination: payer.name, body: { transferState: 'LOST', n: chunk * 10 + i } }),
      ),
    );
  }
  await hub.hub.messageLog!.flush();
  const read = async (path: string) => {
    const pages: MessagePage[] = [];
    for (let cursor: string | undefined = ''; cursor !== undefined; cursor = pages[pages.length - 1].nextCursor) {
      const answer = await hub.admin.call('GET', `${path}${path.includes('?') ? '&' : '?'}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`);
      t.is(answer.status, 200);
      pages.push(answer.body as MessagePage);
    }
    const numbers = pages.flatMap((page) => page.messages.map((message) => (message.body as { n: number }).n));
    return { sizes: pages.map((page) => page.messages.length), numbers: numbers.sort((a, b) => a - b) };
  };
  const all = [...Array(120).keys()];
  t.deepEqual(await read(`/transfers/${transferId}/trace`), { sizes: [100, 20], numbers: all });
  t.deepEqual(await read(`/transfers/${transferId}/trace?limit=50`), { sizes: [50, 50, 20], numbers: all });
  t.deepEqual(await read(`/conversations/transfers/${transferId}/trace?limit=70`), { sizes: [70, 50], numbers: all });
  const first = (await hub.admin.call('GET', `/transfers/${transferId}/trace?limit=10`)).body as MessagePage;
  t.true(
    first.messages.every((message, i) => i === 0 || message.at >= first.messages[i - 1].at),
    'in the order the switch saw them',
  );

  const badCursor = await hub.admin.call('GET', `/transfers/${transferId}/trace?cursor=yesterday`);
  t.is(badCursor.status, 400);
  t.is(badCursor.body.errorInformation.errorCode, '3101');
});
