import crypto from 'node:crypto';
import test from 'ava';
import { validateIso20022 } from '../../activities/shared/contracts/schemas';
import type { TransferTrace } from '../../activities/shared/contracts/trace';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { iso20022Headers, iso20022MediaType, iso20022Payment, partiesAnswer, type Iso20022Payment } from '../helpers/iso20022Messages';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

// A hub in ISO 20022 mode (API_TYPE=iso20022), between DFSPs that speak ISO 20022 as Mojaloop's ISO 20022 schemes do:
// what they send one another passes through byte for byte; what the hub says itself is ISO 20022 too.

let hub: SwitchHarness;
useSwitch(
  test,
  (started) => {
    hub = started;
  },
  { apiType: 'iso20022' },
);

const received = (method: string, path: string) => (r: ReceivedRequest) => r.method === method && r.path === path;

/** An ISO 20022 message from `source`, its text exactly `text`. */
function send(method: string, path: string, source: string, destination: string | undefined, text?: string) {
  const resource = path.split('/')[1];
  return hub.fspiop(method, path, { source, destination, body: text, headers: iso20022Headers(resource, method === 'POST' || method === 'GET') });
}

/** The payee answers as an ISO 20022 DFSP: the quote with the payment's pacs.082, the transfer with its pacs.002. */
function answering(payee: SimulatedDfsp, payment: Iso20022Payment, fulfil = payment.fulfil): void {
  const { quote, transfer } = payment;
  payee.react(async (request) => {
    if (request.method === 'POST' && request.path === '/quotes') {
      await send('PUT', `/quotes/${quote.quoteId}`, payee.name, transfer.payerFsp, JSON.stringify(payment.quoteAnswer));
    }
    if (request.method === 'POST' && request.path === '/transfers') {
      await send('PUT', `/transfers/${transfer.transferId}`, payee.name, transfer.payerFsp, JSON.stringify(fulfil));
    }
  });
}

/** A message the hub made: from the hub, in ISO 20022 at version 2.0, of the schema its path takes. */
function fromHub(t: { is: (a: unknown, b: unknown, m?: string) => void }, message: ReceivedRequest, resource: string): void {
  t.is(message.headers['fspiop-source'], HUB_ID);
  t.is(message.headers['content-type'], iso20022MediaType(resource));
}

test("a lookup: a party registered with the ISO 20022 participants media type, and GET /parties reaches the party's FSP, whose acmt.024 the requester receives byte for byte", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const msisdn = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;
  // /participants has no ISO 20022 form, but carries the ISO 20022 media type in that mode, its bodies FSPIOP, as the
  // account lookup service takes and answers it (MojaloopRequests in ISO 20022 mode sends it so).
  const fspiopMediaType = await hub.fspiop('POST', `/participants/MSISDN/${msisdn}`, { source: payee.name, body: { fspId: payee.name } });
  t.is(fspiopMediaType.status, 400);
  t.is(fspiopMediaType.body.errorInformation.errorCode, '3101');
  const registered = await send('POST', `/participants/MSISDN/${msisdn}`, payee.name, undefined, JSON.stringify({ fspId: payee.name }));
  t.is(registered.status, 202);
  const answer = await payee.waitFor(received('PUT', `/participants/MSISDN/${msisdn}`));
  t.deepEqual(answer.body, { fspId: payee.name });
  fromHub(t, answer, 'participants');

  const path = `/parties/MSISDN/${msisdn}`;
  t.is((await send('GET', path, payer.name, undefined)).status, 202);
  const asked = await payee.waitFor(received('GET', path));
  t.is(asked.headers.accept, iso20022MediaType('parties'));

  const text = JSON.stringify(await partiesAnswer(payee.name, payer.name, msisdn), null, 1);
  t.is((await send('PUT', path, payee.name, payer.name, text)).status, 200);
  const answered = await payer.waitFor(received('PUT', path));
  t.is(answered.raw, text, "the requester receives the payee's bytes");
  t.is(answered.headers['content-type'], iso20022MediaType('parties'));
});

test('a payment: pacs.081 and pacs.082 quote it, pacs.008 and pacs.002 COMMITTED move the money, each passed on byte for byte', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const payment = await iso20022Payment(payer.name, payee.name, '25.5');
  const { quote, transfer } = payment;
  answering(payee, payment);

  const quoteText = JSON.stringify(payment.quoteRequest);
  t.is((await send('POST', '/quotes', payer.name, payee.name, quoteText)).status, 202);
  t.is((await payee.waitFor(received('POST', '/quotes'))).raw, quoteText);
  t.is((await payer.waitFor(received('PUT', `/quotes/${quote.quoteId}`))).raw, JSON.stringify(payment.quoteAnswer));

  const transferText = JSON.stringify(payment.transferRequest, null, 2);
  t.is((await send('POST', '/transfers', payer.name, payee.name, transferText)).status, 202);
  const prepared = await payee.waitFor(received('POST', '/transfers'));
  t.is(prepared.raw, transferText, "the payee receives the payer's pacs.008 byte for byte");
  t.is(prepared.headers['content-type'], iso20022MediaType('transfers'));
  const committed = await payer.waitFor(received('PUT', `/transfers/${transfer.transferId}`));
  t.is(committed.raw, JSON.stringify(payment.fulfil), "the payer receives the payee's pacs.002 byte for byte");
  t.is(await hub.position(payer), 25.5);
  t.is(await hub.position(payee), -25.5);

  // GET /transfers/{ID} is answered from the hub's record: the hub's own pacs.002.
  t.is((await send('GET', `/transfers/${transfer.transferId}`, payer.name, undefined)).status, 202);
  const state = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${transfer.transferId}` && r.headers['fspiop-source'] === HUB_ID);
  fromHub(t, state, 'transfers');
  t.like(validateIso20022<any>('PacsStatus_FIToFIPaymentStatusReportV15', state.body).TxInfAndSts, {
    TxSts: 'COMM',
    ExctnConf: payment.fulfil.TxInfAndSts.ExctnConf,
  });

  // The operator's trace of the transfer holds the pacs.008 both ways: received from the payer, delivered to the payee.
  await hub.hub.messageLog!.flush();
  const trace = await hub.admin.call('GET', `/transfers/${transfer.transferId}/trace`);
  const posts = (trace.body as TransferTrace).messages.filter((message) => message.method === 'POST' && message.target.endsWith('/transfers'));
  t.deepEqual(
    posts.map((message) => [message.direction, message.body]),
    [
      ['in', payment.transferRequest],
      ['out', payment.transferRequest],
    ],
  );
});

test("a payee that answers RESERVED gets the hub's PATCH as a pacs.002, and the payer the hub's COMMITTED as one", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const payment = await iso20022Payment(payer.name, payee.name, '4');
  const reserved = { ...payment.fulfil, TxInfAndSts: { ...payment.fulfil.TxInfAndSts, TxSts: 'RESV' } };
  answering(payee, payment, reserved);
  t.is((await send('POST', '/transfers', payer.name, payee.name, JSON.stringify(payment.transferRequest))).status, 202);

  const patch = await payee.waitFor(received('PATCH', `/transfers/${payment.transfer.transferId}`));
  fromHub(t, patch, 'transfers');
  t.is(validateIso20022<any>('PacsStatus_FIToFIPaymentStatusReportV15', patch.body).TxInfAndSts.TxSts, 'COMM');
  const committed = await payer.waitFor(received('PUT', `/transfers/${payment.transfer.transferId}`));
  fromHub(t, committed, 'transfers');
  t.is(validateIso20022<any>('PacsStatus_FIToFIPaymentStatusReportV15', committed.body).TxInfAndSts.TxSts, 'COMM');
});

test("a transfer to an FSP the hub does not know: the payer gets the hub's error as a pacs.002 error", async (t) => {
  const payer = await hub.provision();
  const payment = await iso20022Payment(payer.name, 'nosuchfsp', '1');
  t.is((await send('POST', '/transfers', payer.name, 'nosuchfsp', JSON.stringify(payment.transferRequest))).status, 202);
  const error = await payer.waitFor(received('PUT', `/transfers/${payment.transfer.transferId}/error`));
  fromHub(t, error, 'transfers');
  const code = validateIso20022<any>('PacsError_FIToFIPaymentStatusReportV15', error.body).TxInfAndSts.StsRsnInf.Rsn.Prtry;
  t.regex(code, /^3\d{3}$/);
});

test('an ISO 20022 body its schema refuses is answered 400 with the FSPIOP error Mojaloop gives (3102 for a missing element)', async (t) => {
  const payer = await hub.provision();
  const payment = await iso20022Payment(payer.name, 'payeefsp', '1');
  const { GrpHdr: _dropped, ...headless } = payment.transferRequest;
  const refused = await send('POST', '/transfers', payer.name, 'payeefsp', JSON.stringify(headless));
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3102');
  t.regex(refused.body.errorInformation.errorDescription, /must have required property 'GrpHdr'/);
});

test('an FSPIOP media type on a resource with an ISO 20022 form is refused as malformed (3101), as Mojaloop refuses it', async (t) => {
  const payer = await hub.provision();
  const payment = await iso20022Payment(payer.name, 'payeefsp', '1');
  const refused = await hub.fspiop('POST', '/transfers', { source: payer.name, destination: 'payeefsp', body: payment.transfer, version: '1.1' });
  t.is(refused.status, 400);
  t.deepEqual(refused.body.errorInformation, { errorCode: '3101', errorDescription: 'Malformed syntax - Invalid accept header' });
});
