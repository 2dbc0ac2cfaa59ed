import crypto from 'node:crypto';
import test from 'ava';
import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { startTestDfsp } from '../helpers/connectors';
import { pollUntil } from '../helpers/polling';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

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
async function outbound(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${payerDfsp.connector.outboundUrl}${path}`, {
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
    userId: `dora@${payeeDfsp.name}`,
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
