import test from 'ava';
import { serializeIlpPayment, serializeIlpPrepare } from 'ilp-packet';
import { quoteBody, transferBody } from '../helpers/fspiopBodies';
import { withSwitch } from '../helpers/switchHarness';

const fixture = withSwitch(test);

/** The transaction a fixture.payee FSP puts in the ILP packet it returns with its quote (Document 2, "ILP Packet"). */
function transactionOf(amount: string) {
  const quote = quoteBody(fixture.payer, fixture.payee, amount);
  return {
    transactionId: quote.transactionId,
    quoteId: quote.quoteId,
    payee: quote.payee,
    payer: quote.payer,
    amount: quote.amount,
    transactionType: quote.transactionType,
    note: 'for the admin API',
  };
}

const dataOf = (transaction: unknown) => Buffer.from(Buffer.from(JSON.stringify(transaction)).toString('base64url'));

async function sendTransfer(ilpPacket: string): Promise<string> {
  const body = { ...transferBody(fixture.payer, fixture.payee, '7'), ilpPacket };
  const sent = await fixture.hub.fspiop('POST', '/transfers', { source: fixture.payer, destination: fixture.payee, body });
  if (sent.status !== 202) throw new Error(`the transfer was refused: ${JSON.stringify(sent.body)}`);
  await fixture.hub.dfsps.find((dfsp) => dfsp.name === fixture.payee)!.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
  return body.transferId;
}

test('GET /transactions/{id} shows the transaction a transfer carries in its ILP v1 packet, as central-ledger does', async (t) => {
  const transaction = transactionOf('7');
  const packet = serializeIlpPayment({ amount: '700', account: `g.${fixture.payee}.msisdn.27713803912`, data: dataOf(transaction) }).toString('base64url');
  const transferId = await sendTransfer(packet);
  const { status, body } = await fixture.hub.admin.call('GET', `/transactions/${transferId}`);
  t.is(status, 200);
  t.deepEqual(body, transaction);
});

test('an ILP v4 prepare packet is read the same way', async (t) => {
  const transaction = transactionOf('7');
  const packet = serializeIlpPrepare({
    amount: '700',
    destination: `g.${fixture.payee}.msisdn.27713803912`,
    executionCondition: Buffer.alloc(32, 1),
    expiresAt: new Date(Date.now() + 60_000),
    data: dataOf(transaction),
  }).toString('base64');
  const transferId = await sendTransfer(packet);
  t.deepEqual((await fixture.hub.admin.call('GET', `/transactions/${transferId}`)).body, transaction);
});

test('GET /transactions/{id} of an unknown transfer, or of one whose packet holds no transaction, is 400 with 3200', async (t) => {
  const unknown = await fixture.hub.admin.call('GET', '/transactions/4f5c3fd2-3b7a-4a47-9a4e-7e7f5bd5a7c1');
  t.is(unknown.status, 400);
  t.is(unknown.body.errorInformation.errorCode, '3200');
  const opaque = await sendTransfer(Buffer.from('not an ILP packet').toString('base64url'));
  const unreadable = await fixture.hub.admin.call('GET', `/transactions/${opaque}`);
  t.is(unreadable.status, 400);
  t.is(unreadable.body.errorInformation.errorCode, '3200');
});
