import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { simulatedBackends } from '../../activities/dfsp/simulator/simulated';
import { SimulatedBank } from '../../activities/dfsp/simulator/simulatedBank';
import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import { startDfspConnector } from '../../worker/dfspConnector';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { connectorBundle, connectorConfig, onboardConnector, startTestDfsp, testLog } from '../helpers/connectors';
import type { RunningConnector } from '../../worker/connector';
import { uniqueName } from '../helpers/database';
import { ilpPair } from '../helpers/fspiopBodies';
import { pollUntil } from '../helpers/polling';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

type TestDfsp = Awaited<ReturnType<typeof startTestDfsp>>;

let hub: SwitchHarness;
let payerDfsp: TestDfsp;
let payeeDfsp: TestDfsp;

useSwitch(test, async (started) => {
  hub = started;
  payerDfsp = await startTestDfsp(hub);
  payeeDfsp = await startTestDfsp(hub);
});

test.after.always(async () => {
  await payerDfsp?.connector.stop();
  await payeeDfsp?.connector.stop();
});

const ALICE = '27713803911';
const BOB = '27713803912';

const positionOf = (dfsp: TestDfsp) => hub.position({ name: dfsp.name } as SimulatedDfsp);
const balanceOf = (dfsp: TestDfsp, msisdn: string) => dfsp.bank.customerByMsisdn(msisdn)!.accounts[0].balance;

/** A call of the payer bank's own systems on its connector's outbound API (the sdk-scheme-adapter's). */
async function outbound(method: string, path: string, body?: unknown, connector = payerDfsp.connector): Promise<{ status: number; body: any }> {
  const response = await fetch(`${connector.outboundUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** An outbound transferRequest from Alice at the payer bank to `to`. */
const transferRequest = (to: Record<string, string>, amount: string) => ({
  homeTransactionId: crypto.randomUUID(),
  from: { idType: 'MSISDN', idValue: ALICE, displayName: 'Alice Alpaca' },
  to,
  amountType: 'SEND',
  currency: 'USD',
  amount,
  transactionType: 'TRANSFER',
  note: 'lunch',
});

test.serial('POST /transfers on the outbound API looks the payee up, quotes and transfers between two DFSP connectors, and answers COMPLETED', async (t) => {
  const before = { payer: await positionOf(payerDfsp), payee: await positionOf(payeeDfsp), bob: balanceOf(payeeDfsp, BOB) };
  const sent = await outbound('POST', '/transfers', transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payeeDfsp.name }, '25'));

  t.is(sent.status, 200, JSON.stringify(sent.body));
  const transfer = sent.body;
  t.is(transfer.currentState, 'COMPLETED');
  t.is(transfer.getPartiesResponse.body.party.name, 'Bob Bonobo');
  t.is(transfer.to.fspId, payeeDfsp.name);
  t.deepEqual(transfer.quoteResponse.body.transferAmount, { amount: '25', currency: 'USD' });
  t.is(transfer.fulfil.body.transferState, 'COMMITTED');
  const condition = crypto.createHash('sha256').update(Buffer.from(transfer.fulfil.body.fulfilment, 'base64url')).digest('base64url');
  t.is(condition, transfer.quoteResponse.body.condition, 'the payee fulfilled the condition of its quote');

  t.is(await positionOf(payerDfsp), before.payer + 25);
  t.is(await positionOf(payeeDfsp), before.payee - 25);
  t.is(balanceOf(payeeDfsp, BOB), String(Number(before.bob) + 25));

  const status = await outbound('GET', `/transfers/${transfer.transferId}`);
  t.is(status.status, 200);
  t.like(status.body, { transferId: transfer.transferId, currentState: 'COMPLETED', fulfil: { body: { transferState: 'COMMITTED' } } });
});

test.serial('the payee’s FSP is found through the switch’s account lookup when the request does not name it', async (t) => {
  const msisdn = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;
  payeeDfsp.bank.customers.push({
    userId: `dora.${payeeDfsp.name}`,
    msisdn,
    firstName: 'Dora',
    lastName: 'Dormouse',
    dateOfBirth: '1990-03-03',
    authChannels: ['OTP'],
    accounts: [{ accountId: `${payeeDfsp.name}.dora.1`, nickname: 'Dora', currency: 'USD', balance: '0' }],
  });
  const party = { partyIdType: 'MSISDN', partyIdentifier: msisdn };
  await hub.fspiop('POST', `/participants/MSISDN/${msisdn}`, { source: payeeDfsp.name, body: { fspId: payeeDfsp.name } });
  const lookup = new AccountLookup(hub.services.db);
  await pollUntil(
    () => lookup.owners(party),
    (owners) => owners.includes(payeeDfsp.name),
  );

  const sent = await outbound('POST', '/transfers', transferRequest({ idType: 'MSISDN', idValue: msisdn }, '3'));
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.currentState, 'COMPLETED');
  t.is(sent.body.to.fspId, payeeDfsp.name);
  t.is(balanceOf(payeeDfsp, msisdn), '3');
});

test('a transfer to a party the payee bank does not hold ends ERROR_OCCURRED with the payee’s 3204', async (t) => {
  const sent = await outbound('POST', '/transfers', transferRequest({ idType: 'MSISDN', idValue: '255000000009', fspId: payeeDfsp.name }, '1'));
  t.is(sent.status, 500);
  t.is(sent.body.statusCode, '3204');
  t.is(sent.body.transferState.currentState, 'ERROR_OCCURRED');
  t.is(sent.body.transferState.lastError.mojaloopError.errorInformation.errorCode, '3204');
});

test('a transferRequest missing a required field is refused 400 before anything is sent', async (t) => {
  const { amount: _amount, ...withoutAmount } = transferRequest({ idType: 'MSISDN', idValue: BOB }, '1');
  const sent = await outbound('POST', '/transfers', withoutAmount);
  t.is(sent.status, 400);
  t.regex(sent.body.message, /amount is required/);
});

test('GET /transfers/{transferId} for a transfer the connector never made is 404', async (t) => {
  const status = await outbound('GET', `/transfers/${crypto.randomUUID()}`);
  t.is(status.status, 404);
  t.is(status.body.statusCode, '3208');
});

test.serial('the same transferId asked for again is answered from its transfer: nothing is quoted or transferred twice', async (t) => {
  const before = { payer: await positionOf(payerDfsp), payee: await positionOf(payeeDfsp) };
  const request = { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payeeDfsp.name }, '7'), transferId: crypto.randomUUID() };
  const first = await outbound('POST', '/transfers', request);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(first.body.transferId, request.transferId);

  // The bank's system asks again, as after a 504: the answer is the transfer's, not a new one's.
  const again = await outbound('POST', '/transfers', request);
  t.is(again.status, 200, JSON.stringify(again.body));
  t.like(again.body, { transferId: request.transferId, currentState: 'COMPLETED', quoteId: first.body.quoteId });
  t.is(await positionOf(payerDfsp), before.payer + 7);
  t.is(await positionOf(payeeDfsp), before.payee - 7);
  const status = await outbound('GET', `/transfers/${request.transferId}`);
  t.like(status.body, { transferId: request.transferId, currentState: 'COMPLETED' });
});

test('a transferId that is not a CorrelationId is refused 400, and no transfer is made', async (t) => {
  for (const transferId of [{ not: 'an id' }, 'transfer-1']) {
    const sent = await outbound('POST', '/transfers', { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payeeDfsp.name }, '1'), transferId });
    t.is(sent.status, 400, JSON.stringify(transferId));
    t.regex(sent.body.message, /transferId must be a CorrelationId/);
  }
});

/**
 * The switch as a connector reaches it through a proxy that refuses (400 with an error) the first GET /transfers/{ID}
 * it is sent, as a switch refuses a request it cannot take at that moment; `onRefused` runs once it has.
 */
async function refusingFirstGet(onRefused: (transferId: string) => Promise<void>) {
  let refused = 0;
  const server = http.createServer((incoming, reply) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => void relay(incoming, Buffer.concat(chunks), reply));
  });
  async function relay(incoming: http.IncomingMessage, body: Buffer, reply: http.ServerResponse): Promise<void> {
    const path = incoming.url ?? '/';
    const transfer = /^\/transfers\/([^/]+)$/.exec(path);
    if (incoming.method === 'GET' && transfer && refused++ === 0) {
      reply.writeHead(400, { 'content-type': 'application/json' });
      reply.end(JSON.stringify({ errorInformation: { errorCode: '3100', errorDescription: 'Generic validation error - refused by the test' } }));
      await onRefused(transfer[1]!);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(incoming.headers).filter(([name, value]) => typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)),
    ) as Record<string, string>;
    const answered = await fetch(`${hub.url}${path}`, { method: incoming.method, headers, body: body.length ? body : undefined });
    reply.writeHead(answered.status, { 'content-type': answered.headers.get('content-type') ?? 'application/json' });
    reply.end(Buffer.from(await answered.arrayBuffer()));
  }
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refusals: () => refused, close: () => server.close() };
}

/**
 * A payee DFSP played by the test: it quotes through the switch with a condition of its own and hands each POST
 * /transfers it is sent to `onTransfer`, with the fulfilment of that condition and the payer that sent it.
 */
async function quotingPayee(onTransfer: (transfer: { transferId: string; fulfilment: string; payer: string }) => Promise<void>): Promise<SimulatedDfsp> {
  const payee = await hub.provision();
  const fulfilments = new Map<string, string>();
  payee.react(async (request) => {
    const payer = request.headers['fspiop-source'] as string;
    if (request.method === 'POST' && request.path === '/quotes') {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      const quote = {
        transferAmount: request.body.amount,
        payeeReceiveAmount: request.body.amount,
        expiration: new Date(Date.now() + 60_000).toISOString(),
        ilpPacket: Buffer.from(`ilp packet of quote ${request.body.quoteId}`).toString('base64url'),
        condition,
      };
      await hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, { source: payee.name, destination: payer, body: quote });
    }
    if (request.method === 'POST' && request.path === '/transfers') {
      await onTransfer({ transferId: request.body.transferId, fulfilment: fulfilments.get(request.body.condition)!, payer });
    }
  });
  return payee;
}

/** The payee's PUT /transfers/{ID} with the fulfilment, through the switch, which commits the transfer on it. */
const fulfilAtSwitch = (payee: SimulatedDfsp, transfer: { transferId: string; fulfilment: string; payer: string }) =>
  hub.fspiop('PUT', `/transfers/${transfer.transferId}`, {
    source: payee.name,
    destination: transfer.payer,
    body: { fulfilment: transfer.fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
  });

/** A message the payee sends straight to the payer's connector, bypassing the switch, as the switch would deliver it. */
function straightToPayer(connector: RunningConnector, from: SimulatedDfsp, path: string, body: unknown): Promise<Response> {
  return fetch(`${connector.inboundUrl}${path}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': from.name,
      'fspiop-destination': connector.config.participantId,
    },
    body: JSON.stringify(body),
  });
}

/** A payer DFSP connector of its own that waits `requestTimeoutMs` for each answer, and asks the switch as often. */
async function quickPayer(t: { teardown(fn: () => Promise<void> | void): void }, overrides: { peerEndpoint?: string; requestTimeoutMs?: number } = {}) {
  const name = uniqueName();
  const connector = await startDfspConnector(
    connectorConfig(hub, name, { requestTimeoutMs: 2_000, ...overrides }),
    testLog(),
    simulatedBackends(new SimulatedBank(name)),
    { workflowBundlePath: connectorBundle('dfsp') },
  );
  t.teardown(() => connector.stop());
  await onboardConnector(hub, connector);
  return connector;
}

test('a GET /transfers/{ID} the switch refuses does not end the transfer: the payer asks again until the switch says it COMMITTED', async (t) => {
  // The payee takes the transfer but answers only later, once the payer has asked after it.
  const pending = new Map<string, { transferId: string; fulfilment: string; payer: string }>();
  const payee = await quotingPayee(async (transfer) => void pending.set(transfer.transferId, transfer));
  const proxy = await refusingFirstGet(async (transferId) => void (await fulfilAtSwitch(payee, pending.get(transferId)!)));
  t.teardown(() => proxy.close());
  const connector = await quickPayer(t, { peerEndpoint: proxy.url });

  const request = { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payee.name }, '4'), skipPartyLookup: true };
  const sent = await outbound('POST', '/transfers', request, connector);
  t.true(proxy.refusals() >= 1, 'the switch refused a GET');
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.currentState, 'COMPLETED');
  t.is(sent.body.fulfil.body.transferState, 'COMMITTED');
});

test('a transfer error the payee sends straight to the payer’s connector while the switch commits is not the outcome: the payer reports COMMITTED', async (t) => {
  const connector = await quickPayer(t);
  const payee = await quotingPayee(async (transfer) => {
    const forged = await straightToPayer(connector, payee, `/transfers/${transfer.transferId}/error`, {
      errorInformation: { errorCode: '5000', errorDescription: 'Generic payee error' },
    });
    if (forged.status !== 200) throw new Error(`the payer's connector did not take the payee's error: ${forged.status}`);
    await fulfilAtSwitch(payee, transfer);
  });
  const before = await hub.position({ name: connector.config.participantId });

  const request = { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payee.name }, '6'), skipPartyLookup: true };
  const sent = await outbound('POST', '/transfers', request, connector);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.currentState, 'COMPLETED', 'the payer reports what the switch did');
  t.is(sent.body.fulfil.body.transferState, 'COMMITTED');
  t.is(await hub.position({ name: connector.config.participantId }), before + 6, 'the switch moved the money');
});

test('a COMMITTED whose fulfilment does not hash to the condition is not taken for a commit: the payer asks the switch, which aborted the transfer', async (t) => {
  const connector = await quickPayer(t, { requestTimeoutMs: 3_000 });
  const payee = await quotingPayee(async (transfer) => {
    // Straight to the payer: the switch, which checks a fulfilment, would have refused it. The switch hears nothing.
    const body = { fulfilment: crypto.randomBytes(32).toString('base64url'), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' };
    const forged = await straightToPayer(connector, payee, `/transfers/${transfer.transferId}`, body);
    if (forged.status !== 200) throw new Error(`the payer's connector did not take the payee's answer: ${forged.status}`);
  });
  const before = await hub.position({ name: connector.config.participantId });

  const request = { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payee.name }, '5'), skipPartyLookup: true, prepareExpirySeconds: 3 };
  const sent = await outbound('POST', '/transfers', request, connector);
  t.is(sent.status, 500, JSON.stringify(sent.body));
  t.is(sent.body.transferState.currentState, 'ERROR_OCCURRED');
  t.is(await hub.position({ name: connector.config.participantId }), before, 'the switch moved nothing');
});

/**
 * What the switch delivers to a payer connector, through a proxy in front of its inbound API that drops the payee's
 * relayed fulfilment and takes the fulfilment out of the switch's own answers: a hub whose answer to GET /transfers
 * states COMMITTED without one, as the API allows.
 */
async function fulfilmentsLeftOut(connector: () => RunningConnector) {
  const server = http.createServer((incoming, reply) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => void relay(incoming, Buffer.concat(chunks), reply));
  });
  async function relay(incoming: http.IncomingMessage, body: Buffer, reply: http.ServerResponse): Promise<void> {
    const answer = incoming.method === 'PUT' && /^\/transfers\/[^/]+$/.test(incoming.url ?? '');
    const fromSwitch = incoming.headers['fspiop-source'] === HUB_ID;
    if (answer && !fromSwitch) return void reply.writeHead(200).end();
    let sent = body;
    if (answer) {
      const { fulfilment: _left, ...rest } = JSON.parse(body.toString('utf-8')) as Record<string, unknown>;
      sent = Buffer.from(JSON.stringify(rest));
    }
    const headers = Object.fromEntries(
      Object.entries(incoming.headers).filter(([name, value]) => typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)),
    ) as Record<string, string>;
    const answered = await fetch(`${connector().inboundUrl}${incoming.url}`, { method: incoming.method, headers, body: sent.length ? sent : undefined });
    reply.writeHead(answered.status, { 'content-type': 'application/json' }).end(Buffer.from(await answered.arrayBuffer()));
  }
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test('the switch’s own COMMITTED ends the transfer at the payer even without a fulfilment: the payer does not ask for ever', async (t) => {
  const name = uniqueName();
  let connector: RunningConnector | undefined;
  const proxy = await fulfilmentsLeftOut(() => connector!);
  t.teardown(() => proxy.close());
  connector = await startDfspConnector(connectorConfig(hub, name, { requestTimeoutMs: 2_000 }), testLog(), simulatedBackends(new SimulatedBank(name)), {
    workflowBundlePath: connectorBundle('dfsp'),
  });
  t.teardown(() => connector!.stop());
  await hub.onboard(name, proxy.url);
  const payee = await quotingPayee(async (transfer) => void (await fulfilAtSwitch(payee, transfer)));

  const request = { ...transferRequest({ idType: 'MSISDN', idValue: BOB, fspId: payee.name }, '3'), skipPartyLookup: true };
  const sent = await outbound('POST', '/transfers', request, connector);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.currentState, 'COMPLETED');
  t.is(sent.body.fulfil.body.transferState, 'COMMITTED');
  t.is(sent.body.fulfil.body.fulfilment, undefined, 'the switch’s answer, as it came');
});
