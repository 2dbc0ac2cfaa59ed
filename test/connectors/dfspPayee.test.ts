import crypto from 'node:crypto';
import type http from 'node:http';
import test from 'ava';
import { CoreBankingClient } from '../../activities/dfsp/backend/coreBankingClient';
import { simulatedBackends } from '../../activities/dfsp/simulator/simulated';
import { SimulatedBank } from '../../activities/dfsp/simulator/simulatedBank';
import { transactionIn } from '../../activities/hub/conversations/transactionDetails';
import { startDfspConnector } from '../../worker/dfspConnector';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { MAX_ASKS_ON_PEER_WORD } from '../../workflows/dfsp/payeeTransfer';
import type { QuotesIDPutResponse } from '../../activities/shared/contracts/bodies';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { connectorBundle, connectorConfig, onboardConnector, startTestDfsp, testLog } from '../helpers/connectors';
import { uniqueName } from '../helpers/database';
import { ilpPair, quoteBody, transferBody } from '../helpers/fspiopBodies';
import { jsonOrUndefined, serveLocally } from '../helpers/http';
import { pollUntil } from '../helpers/polling';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let payee: Awaited<ReturnType<typeof startTestDfsp>>;
let payer: SimulatedDfsp;
const stops: Array<() => Promise<void>> = [];

useSwitch(test, async (started) => {
  hub = started;
  payee = await startTestDfsp(hub);
  stops.push(() => payee.connector.stop());
  payer = await hub.provision();
});

test.after.always(async () => {
  for (const stop of stops) await stop();
});

/** Bob, the payee bank's customer the payer pays (the MSISDN quoteBody names as payee). */
const BOB = '27713803912';

const received = (method: string, path: string) => (r: ReceivedRequest) => r.method === method && r.path === path;

const balanceOf = (bank: SimulatedBank, msisdn: string) => bank.customerByMsisdn(msisdn)!.accounts[0].balance;

const sha256 = (fulfilment: string) => crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url');

/** The payer asks the payee for a quote through the switch and gets its PUT /quotes/{ID}. */
async function quoted(from: SimulatedDfsp, to: string, amount: string): Promise<QuotesIDPutResponse> {
  const quote = quoteBody(from.name, to, amount);
  const sent = await hub.fspiop('POST', '/quotes', { source: from.name, destination: to, body: quote });
  if (sent.status !== 202) throw new Error(`POST /quotes answered ${sent.status}`);
  return (await from.waitFor(received('PUT', `/quotes/${quote.quoteId}`), 20_000, 'quote answer')).body;
}

test('GET /parties for a customer of the bank is answered with the party, named as the bank names it', async (t) => {
  await hub.fspiop('GET', `/parties/MSISDN/${BOB}`, { source: payer.name, destination: payee.name });
  const answer = await payer.waitFor(received('PUT', `/parties/MSISDN/${BOB}`), 20_000);
  t.deepEqual(answer.body.party.partyIdInfo, { partyIdType: 'MSISDN', partyIdentifier: BOB, fspId: payee.name });
  t.is(answer.body.party.name, 'Bob Bonobo');
  t.deepEqual(answer.body.party.personalInfo.complexName, { firstName: 'Bob', lastName: 'Bonobo' });
});

test('GET /parties for an identifier the bank does not hold is answered 3204 Party not found', async (t) => {
  await hub.fspiop('GET', '/parties/MSISDN/255000000001', { source: payer.name, destination: payee.name });
  const answer = await payer.waitFor(received('PUT', '/parties/MSISDN/255000000001/error'), 20_000);
  t.is(answer.body.errorInformation.errorCode, '3204');
});

test('a quote is answered with the ILP packet of the agreed transaction and a condition', async (t) => {
  const quote = quoteBody(payer.name, payee.name, '12');
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body: quote });
  const answer = await payer.waitFor(received('PUT', `/quotes/${quote.quoteId}`), 20_000);
  t.deepEqual(answer.body.transferAmount, { amount: '12', currency: 'USD' });
  t.deepEqual(answer.body.payeeReceiveAmount, { amount: '12', currency: 'USD' }, 'the simulated bank charges no fee');
  t.regex(answer.body.condition, /^[A-Za-z0-9_-]{43}$/);
  const transaction = transactionIn(answer.body.ilpPacket) as Record<string, any>;
  t.is(transaction.quoteId, quote.quoteId);
  t.is(transaction.transactionId, quote.transactionId);
  t.deepEqual(transaction.payee, quote.payee);
  t.deepEqual(transaction.amount, { amount: '12', currency: 'USD' });
  t.is(transaction.expiration, answer.body.expiration);
});

test.serial(
  'a transfer on the quote commits end to end: the fulfilment satisfies the condition, positions move, the payee is credited once though the switch repeats the POST',
  async (t) => {
    const before = { payer: await hub.position(payer), payee: await hub.position({ name: payee.name } as SimulatedDfsp), bob: balanceOf(payee.bank, BOB) };
    const quote = await quoted(payer, payee.name, '7');
    const transfer = { ...transferBody(payer.name, payee.name, '7', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

    const fulfil = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`), 20_000, 'transfer answer');
    t.is(fulfil.body.transferState, 'COMMITTED');
    t.is(sha256(fulfil.body.fulfilment), quote.condition, 'the payee produced the fulfilment of its own condition');
    t.is(await hub.position(payer), before.payer + 7);
    t.is(await hub.position({ name: payee.name } as SimulatedDfsp), before.payee - 7);
    t.is(balanceOf(payee.bank, BOB), String(Number(before.bob) + 7));

    // The switch delivers the POST again (its acknowledgement was lost): the payee answers it again, and credits nothing more.
    const repeated = await fetch(`${payee.connector.inboundUrl}/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.interoperability.transfers+json;version=1.1', 'fspiop-source': payer.name, 'fspiop-destination': payee.name },
      body: JSON.stringify(transfer),
    });
    t.is(repeated.status, 202);
    const handle = payee.connector.client.workflow.getHandle(`payeeTransfer/${transfer.transferId}`);
    const answersSent = async () =>
      (await handle.fetchHistory()).events?.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'sendToSwitch').length;
    t.is(await pollUntil(answersSent, (count) => count === 2), 2, 'the repeat is answered');
    const credits = (await handle.fetchHistory()).events?.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'creditPayee').length;
    t.is(credits, 1, 'the bank is asked to credit once');
    t.is(balanceOf(payee.bank, BOB), String(Number(before.bob) + 7));
  },
);

test.serial('a transfer whose condition is not the quote’s is refused with 3100 and credits nothing', async (t) => {
  const bob = balanceOf(payee.bank, BOB);
  const positionBefore = await hub.position(payer);
  const quote = await quoted(payer, payee.name, '9');
  const transfer = { ...transferBody(payer.name, payee.name, '9', { condition: ilpPair().condition }), ilpPacket: quote.ilpPacket };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

  const refusal = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}/error`), 20_000, 'transfer error');
  t.is(refusal.body.errorInformation.errorCode, '3100');
  t.is(balanceOf(payee.bank, BOB), bob);
  t.is(
    await pollUntil(
      () => hub.position(payer),
      (position) => position === positionBefore,
    ),
    positionBefore,
    'the reservation is released',
  );
});

test.serial('a transfer of another amount than the quote’s, on the quote’s packet and condition, is refused with 3100', async (t) => {
  const bob = balanceOf(payee.bank, BOB);
  const quote = await quoted(payer, payee.name, '4');
  const transfer = { ...transferBody(payer.name, payee.name, '40', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

  const refusal = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}/error`), 20_000, 'transfer error');
  t.is(refusal.body.errorInformation.errorCode, '3100');
  t.regex(refusal.body.errorInformation.errorDescription, /quoted 4 USD/);
  t.is(balanceOf(payee.bank, BOB), bob);
});

test.serial('the switch’s PATCH /transfers/{ID} with the final state reaches the bank as the SDK’s transfer notification', async (t) => {
  const quote = await quoted(payer, payee.name, '2');
  const transfer = { ...transferBody(payer.name, payee.name, '2', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });
  await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`), 20_000, 'transfer answer');

  const completedTimestamp = new Date().toISOString();
  const patched = await fetch(`${payee.connector.inboundUrl}/transfers/${transfer.transferId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/vnd.interoperability.transfers+json;version=1.1', 'fspiop-source': 'Hub', 'fspiop-destination': payee.name },
    body: JSON.stringify({ completedTimestamp, transferState: 'COMMITTED' }),
  });
  t.is(patched.status, 200);
  const notified = await pollUntil(
    async () => payee.backends.coreBanking.notifications.find((n) => n.transferId === transfer.transferId),
    (found) => found !== undefined,
  );
  t.like(notified?.notification, {
    transferId: transfer.transferId,
    currentState: 'COMPLETED',
    finalNotification: { completedTimestamp, transferState: 'COMMITTED' },
  });
});

/** The transfer's payee conversation: what it sent the switch (each sendToSwitch's message) and which bank steps it took. */
async function payeeConversationOf(transferId: string) {
  const events = (await payee.connector.client.workflow.getHandle(`payeeTransfer/${transferId}`).fetchHistory()).events ?? [];
  const scheduled = events.map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a !== null && a !== undefined);
  const inputOf = (a: (typeof scheduled)[number]) => JSON.parse(Buffer.from(a.input!.payloads![0].data!).toString('utf-8'));
  return {
    sent: scheduled.filter((a) => a.activityType?.name === 'sendToSwitch').map(inputOf) as Array<{ name: string; body: any }>,
    steps: scheduled.map((a) => a.activityType?.name),
  };
}

/**
 * Replaces the simulated bank's answer to POST /transfers for one transfer, for the rest of the test: `credit` is
 * called with the bank's own credit (which moves the money and answers as the bank does).
 */
function bankTransferOf(t: { teardown(fn: () => void): void }, transferId: string, credit: (bankCredits: () => Promise<any>) => Promise<any>): void {
  const bank = payee.backends.coreBanking;
  const original = bank.transfer.bind(bank);
  bank.transfer = (request) => (request.transferId === transferId ? credit(() => original(request)) : original(request));
  t.teardown(() => void (bank.transfer = original));
}

const notificationsOf = (transferId: string) => payee.backends.coreBanking.notifications.filter((n) => n.transferId === transferId);

test.serial(
  'a fulfilment that reaches the switch after the transfer’s expiration: the switch aborts (3303), and the payee’s balance ends where it started',
  async (t) => {
    const bob = balanceOf(payee.bank, BOB);
    const positionBefore = await hub.position(payer);
    const quote = await quoted(payer, payee.name, '3');
    const transfer = { ...transferBody(payer.name, payee.name, '3', { condition: quote.condition, expiresInMs: 5_000 }), ilpPacket: quote.ilpPacket };
    // The bank credits Bob only once the switch has aborted the transfer: the payee's fulfilment reaches the switch late.
    let switchAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (switchAborted = resolve));
    let creditedLate = false;
    bankTransferOf(t, transfer.transferId, async (bankCredits) => {
      await aborted;
      const answer = await bankCredits();
      creditedLate = true;
      return answer;
    });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

    const expired = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}/error`), 20_000, 'transfer error');
    t.is(expired.body.errorInformation.errorCode, '3303');
    switchAborted();
    t.true(await pollUntil(async () => creditedLate, Boolean), 'the bank credited Bob after the switch aborted');

    t.is(
      await pollUntil(
        async () => balanceOf(payee.bank, BOB),
        (balance) => balance === bob,
      ),
      bob,
      'the bank took the credit back',
    );
    t.like(notificationsOf(transfer.transferId)[0]?.notification, { currentState: 'ABORTED', finalNotification: { transferState: 'ABORTED' } });
    t.is(await hub.position(payer), positionBefore, 'the switch moved nothing');
  },
);

test.serial('a transfer the payee receives past its expiration is refused with 3303 and credits nothing', async (t) => {
  const bob = balanceOf(payee.bank, BOB);
  const quote = await quoted(payer, payee.name, '6');
  const transfer = { ...transferBody(payer.name, payee.name, '6', { condition: quote.condition, expiresInMs: -1_000 }), ilpPacket: quote.ilpPacket };
  // The switch refuses an expired POST itself, so it is delivered as the switch would have delivered it, late.
  const delivered = await fetch(`${payee.connector.inboundUrl}/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.interoperability.transfers+json;version=1.1', 'fspiop-source': payer.name, 'fspiop-destination': payee.name },
    body: JSON.stringify(transfer),
  });
  t.is(delivered.status, 202);

  const conversation = await pollUntil(
    () => payeeConversationOf(transfer.transferId),
    ({ sent }) => sent.length > 0,
  );
  t.like(conversation.sent[0], { name: 'error', body: { errorInformation: { errorCode: '3303' } } });
  t.false(conversation.steps.includes('creditPayee'), 'the bank is not asked to credit');
  t.is(balanceOf(payee.bank, BOB), bob);
});

test.serial('a bank that answers RESERVED: the payee answers RESERVED, and the switch’s PATCH COMMITTED reaches the bank', async (t) => {
  const quote = await quoted(payer, payee.name, '5');
  const transfer = { ...transferBody(payer.name, payee.name, '5', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
  bankTransferOf(t, transfer.transferId, async (bankCredits) => ({ ...(await bankCredits()), transferState: 'RESERVED' }));
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

  const fulfil = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`), 20_000, 'transfer answer');
  t.is(fulfil.body.transferState, 'COMMITTED', 'the payer hears the switch’s COMMITTED');
  t.like((await payeeConversationOf(transfer.transferId)).sent[0], { name: 'answer', body: { transferState: 'RESERVED' } });
  const notified = await pollUntil(
    async () => notificationsOf(transfer.transferId),
    (found) => found.length > 0,
  );
  t.like(notified[0]?.notification, { currentState: 'COMPLETED', finalNotification: { transferState: 'COMMITTED' } });
});

test.serial(
  'a credit whose answer the bank never gives (it credited, then failed every retry): the payee answers 2001 and the bank is told ABORTED',
  async (t) => {
    const bob = balanceOf(payee.bank, BOB);
    const quote = await quoted(payer, payee.name, '8');
    const transfer = { ...transferBody(payer.name, payee.name, '8', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
    let credited = false;
    bankTransferOf(t, transfer.transferId, async (bankCredits) => {
      await bankCredits();
      credited = true;
      throw new Error('the connection to the bank was reset');
    });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });

    const refusal = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}/error`), 60_000, 'transfer error');
    t.is(refusal.body.errorInformation.errorCode, '2001');
    t.true(credited, 'the bank did credit Bob');
    t.is(
      await pollUntil(
        async () => balanceOf(payee.bank, BOB),
        (balance) => balance === bob,
      ),
      bob,
      'the bank took the credit back',
    );
    t.like(notificationsOf(transfer.transferId)[0]?.notification, { finalNotification: { transferState: 'ABORTED' } });
  },
);

test.serial('a transfer error a peer sends straight to the payee’s connector after the switch committed does not take the credit back', async (t) => {
  const bob = balanceOf(payee.bank, BOB);
  const quote = await quoted(payer, payee.name, '4');
  const transfer = { ...transferBody(payer.name, payee.name, '4', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer });
  const fulfil = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`), 20_000, 'transfer answer');
  t.is(fulfil.body.transferState, 'COMMITTED');

  // The payer, not the switch, tells the payee the transfer failed: a PUT …/error as the switch would deliver it.
  const forged = await fetch(`${payee.connector.inboundUrl}/transfers/${transfer.transferId}/error`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': payer.name,
      'fspiop-destination': payee.name,
    },
    body: JSON.stringify({ errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } }),
  });
  t.is(forged.status, 200, 'the conversation has the message');

  // The bank hears the transfer's final state as the switch states it.
  const notified = await pollUntil(
    async () => notificationsOf(transfer.transferId),
    (found) => found.length > 0,
  );
  t.like(notified[0]?.notification, { finalNotification: { transferState: 'COMMITTED' } });
  t.is(balanceOf(payee.bank, BOB), String(Number(bob) + 4), 'Bob keeps the credit the switch committed');
});

/** The switch as a payee connector reaches it through a proxy that takes its fulfilments (200) and passes them on to nobody. */
async function fulfilmentsSwallowed(): Promise<{ url: string; swallowed: string[]; close(): Promise<void> }> {
  const swallowed: string[] = [];
  const { server, port } = await serveLocally((request, body, reply) => {
    const fulfilment = request.method === 'PUT' ? /^\/transfers\/([^/]+)$/.exec(request.url ?? '') : null;
    if (fulfilment) {
      swallowed.push(fulfilment[1]!);
      return void reply.writeHead(200).end();
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name, value]) => typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)),
    ) as Record<string, string>;
    void fetch(`${hub.url}${request.url}`, { method: request.method, headers, body: body.length ? body : undefined }).then(
      async (answered) => reply.writeHead(answered.status, { 'content-type': 'application/json' }).end(Buffer.from(await answered.arrayBuffer())),
      () => reply.writeHead(502).end(),
    );
  });
  return { url: `http://127.0.0.1:${port}`, swallowed, close: () => new Promise<void>((resolve) => (server as http.Server).close(() => resolve())) };
}

test.serial(
  'a peer repeating its transfer error while the switch has not decided makes the payee ask the switch a few times, not once per message',
  async (t) => {
    const proxy = await fulfilmentsSwallowed();
    stops.push(proxy.close);
    const held = await startTestDfsp(hub, { config: { peerEndpoint: proxy.url } });
    stops.push(() => held.connector.stop());
    const quote = await quoted(payer, held.name, '3');
    const transfer = { ...transferBody(payer.name, held.name, '3', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: held.name, body: transfer });
    // The payee fulfilled, and the switch never heard: it holds the transfer RESERVED, and says so when asked.
    await pollUntil(
      async () => proxy.swallowed.includes(transfer.transferId),
      (found) => found,
    );
    const straightToPayee = (path: string, method: string, body: unknown) =>
      fetch(`${held.connector.inboundUrl}${path}`, {
        method,
        headers: {
          'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
          date: new Date().toUTCString(),
          'fspiop-source': payer.name,
          'fspiop-destination': held.name,
        },
        body: JSON.stringify(body),
      });
    const error = { errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } };
    const handle = held.connector.client.workflow.getHandle(participantWorkflowIds.payeeTransfer(transfer.transferId));
    /** The conversation's history once it is idle (its last task done, nothing pending) holding `signals` messages. */
    const idleWith = async (signals: number) => {
      let seen = '';
      const events = await pollUntil(
        async () => {
          const [history, described] = await Promise.all([handle.fetchHistory(), handle.describe()]);
          const all = history.events ?? [];
          const lastTaskDone = all.map((event) => Boolean(event.workflowTaskCompletedEventAttributes)).lastIndexOf(true);
          const taskToCome = all.slice(lastTaskDone).some((event) => event.workflowTaskScheduledEventAttributes);
          const idle = !described.raw.pendingActivities?.length && !described.raw.pendingChildren?.length && lastTaskDone >= 0 && !taskToCome;
          const taken = all.filter((event) => event.workflowExecutionSignaledEventAttributes).length;
          seen = `${described.status.name}, ${taken} messages, idle: ${idle}`;
          return idle && taken >= signals ? all : undefined;
        },
        (found) => found !== undefined,
        30_000,
      );
      if (!events) throw new Error(`the payee conversation did not take ${signals} messages and go idle (${seen})`);
      return events;
    };
    // One error at a time, each once the conversation is idle: while it asks the switch, an error would go to that ask.
    let events = await idleWith(1);
    for (let sent = 1; sent <= 10; sent++) {
      t.is((await straightToPayee(`/transfers/${transfer.transferId}/error`, 'PUT', error)).status, 200);
      events = await idleWith(1 + sent);
    }
    const asks = events.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes).length;
    t.true(asks >= 1, 'the payee asked the switch');
    t.true(asks <= MAX_ASKS_ON_PEER_WORD, `${asks} asks for 10 messages`);
  },
);

/** A core-banking system behind the sdk-scheme-adapter's backend API, as a real HTTP server that records what it is asked. */
async function startBackend(): Promise<{ url: string; received: Array<{ method: string; path: string; body: any }>; close(): Promise<void> }> {
  const requests: Array<{ method: string; path: string; body: any }> = [];
  const { server, port } = await serveLocally((req, bytes, res) => {
    const body = jsonOrUndefined(bytes.toString('utf-8'));
    requests.push({ method: req.method!, path: req.url!, body });
    const reply = (status: number, answer?: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer === undefined ? undefined : JSON.stringify(answer));
    if (req.method === 'GET' && req.url === '/parties/MSISDN/4470000001') {
      return void reply(200, { idType: 'MSISDN', idValue: '4470000001', displayName: 'Carol Capybara', firstName: 'Carol', lastName: 'Capybara' });
    }
    if (req.method === 'GET' && req.url?.startsWith('/parties/')) return void reply(404, { statusCode: '3204', message: 'Party not found' });
    if (req.method === 'POST' && req.url === '/quoterequests') {
      return void reply(200, {
        quoteId: body.quoteId,
        transactionId: body.transactionId,
        transferAmount: '5.5',
        transferAmountCurrency: body.currency,
        payeeReceiveAmount: body.amount,
        payeeReceiveAmountCurrency: body.currency,
        payeeFspFeeAmount: '0.5',
        payeeFspFeeAmountCurrency: body.currency,
      });
    }
    if (req.method === 'POST' && req.url === '/transfers') return void reply(200, { homeTransactionId: `home-${body.transferId}` });
    reply(404, { statusCode: '3002', message: 'unknown' });
  });
  return { url: `127.0.0.1:${port}`, received: requests, close: () => new Promise<void>((resolve) => (server as http.Server).close(() => resolve())) };
}

test.serial('against a real backend over HTTP, the connector asks it for the party, the quote and the transfer in the backend API’s forms', async (t) => {
  const backend = await startBackend();
  stops.push(backend.close);
  const name = uniqueName();
  const backends = { ...simulatedBackends(new SimulatedBank(name)), coreBanking: new CoreBankingClient(backend.url) };
  const connector = await startDfspConnector(connectorConfig(hub, name), testLog(), backends, { workflowBundlePath: connectorBundle('dfsp') });
  stops.push(() => connector.stop());
  await onboardConnector(hub, connector);

  await hub.fspiop('GET', '/parties/MSISDN/4470000001', { source: payer.name, destination: name });
  const party = await payer.waitFor(received('PUT', '/parties/MSISDN/4470000001'), 20_000);
  t.is(party.body.party.name, 'Carol Capybara');
  await hub.fspiop('GET', '/parties/MSISDN/4470000002', { source: payer.name, destination: name });
  const unknown = await payer.waitFor(received('PUT', '/parties/MSISDN/4470000002/error'), 20_000);
  t.is(unknown.body.errorInformation.errorCode, '3204');

  const quoteRequest = {
    ...quoteBody(payer.name, name, '5'),
    payee: { partyIdInfo: { partyIdType: 'MSISDN' as const, partyIdentifier: '4470000001', fspId: name } },
  };
  await hub.fspiop('POST', '/quotes', { source: payer.name, destination: name, body: quoteRequest });
  const quote = (await payer.waitFor(received('PUT', `/quotes/${quoteRequest.quoteId}`), 20_000)).body as QuotesIDPutResponse;
  t.deepEqual(quote.transferAmount, { amount: '5.5', currency: 'USD' });
  t.deepEqual(quote.payeeFspFee, { amount: '0.5', currency: 'USD' });
  const asked = backend.received.find((r) => r.path === '/quoterequests')!.body;
  t.like(asked, { quoteId: quoteRequest.quoteId, amount: '5', currency: 'USD', amountType: 'SEND', transactionType: 'TRANSFER', initiator: 'PAYER' });
  t.like(asked.to, { idType: 'MSISDN', idValue: '4470000001', fspId: name });

  const transfer = { ...transferBody(payer.name, name, '5.5', { condition: quote.condition }), ilpPacket: quote.ilpPacket };
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: name, body: transfer });
  const fulfil = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`), 20_000);
  t.is(sha256(fulfil.body.fulfilment), quote.condition);
  const credited = backend.received.find((r) => r.method === 'POST' && r.path === '/transfers')!.body;
  t.like(credited, { transferId: transfer.transferId, amount: '5.5', currency: 'USD', quote: { quoteId: quoteRequest.quoteId, transferAmount: '5.5' } });
  t.like(credited.to, { idType: 'MSISDN', idValue: '4470000001' });
  t.is(credited.ilpPacket.data.quoteId, quoteRequest.quoteId);
});

test('each lookup of a party is a conversation of its own: a party looked up again and again grows no workflow’s history', async (t) => {
  const party = `2550${crypto.randomInt(10 ** 7, 10 ** 8)}`;
  const answers = async () => payer.received.filter(received('PUT', `/parties/MSISDN/${party}/error`)).length;
  for (let lookup = 1; lookup <= 3; lookup++) {
    await hub.fspiop('GET', `/parties/MSISDN/${party}`, { source: payer.name, destination: payee.name });
    t.is(await pollUntil(answers, (count) => count === lookup), lookup, 'each lookup is answered');
  }
  const lookupsPerWorkflow = async () => {
    const counts: number[] = [];
    for await (const workflow of payee.connector.client.workflow.list({ query: `WorkflowType = 'payeeParty'` })) {
      if (!workflow.workflowId.startsWith(`payeeParty/MSISDN/${party}`)) continue;
      const events = (await payee.connector.client.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory()).events ?? [];
      counts.push(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'partyLookup').length);
    }
    return counts;
  };
  t.deepEqual(await pollUntil(lookupsPerWorkflow, (counts) => counts.length === 3), [1, 1, 1]);
});
