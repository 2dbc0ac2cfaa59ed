import test from 'ava';
import { fspiopOf, iso20022Of } from '../../../../../activities/shared/platform/iso20022Transforms';
import { iso20022Payment, partiesAnswer } from '../../../../helpers/iso20022Messages';

// The edge between ISO 20022 and the hub's FSPIOP model: what the hub reads of a participant's ISO 20022 message, and
// the ISO 20022 message it makes of its own FSPIOP body.

test('a pacs.008 reads as the FSPIOP transfer it stands for: IDs, FSPs, amount, ILP packet, condition and expiration', async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '12.5');
  const read = (await fspiopOf({ resource: 'transfers', operation: 'post' }, payment.transferRequest)) as Record<string, unknown>;
  const { transferId, payerFsp, payeeFsp, amount, ilpPacket, condition, expiration } = payment.transfer;
  t.like(read, { transferId, payerFsp, payeeFsp, amount, ilpPacket, condition, expiration });
});

test("a pacs.002 fulfil reads as the payee's state, fulfilment and completion time", async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '1');
  const read = (await fspiopOf({ resource: 'transfers', operation: 'put' }, payment.fulfil)) as Record<string, unknown>;
  t.is(read.transferState, 'COMMITTED');
  t.is(read.fulfilment, payment.fulfil.TxInfAndSts.ExctnConf);
  t.truthy(read.completedTimestamp);
});

test("a pacs.082 reads as the quote's terms, its condition taken from the ILP packet", async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '3');
  const read = (await fspiopOf({ resource: 'quotes', operation: 'put' }, payment.quoteAnswer)) as Record<string, unknown>;
  t.like(read, { transferAmount: { currency: 'USD', amount: '3' }, ilpPacket: payment.transfer.ilpPacket, condition: payment.transfer.condition });
});

test("an acmt.024 reads as the payee's party", async (t) => {
  const read = (await fspiopOf({ resource: 'parties', operation: 'put' }, await partiesAnswer('payeefsp', 'payerfsp', '27713803912'))) as any;
  t.like(read.party, { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: 'payeefsp' } });
});

test("the hub's error becomes a pacs.002 with its code, which reads back as the same error", async (t) => {
  const error = { errorInformation: { errorCode: '3208', errorDescription: 'Transfer ID not found' } };
  const iso = (await iso20022Of({ resource: 'transfers', operation: 'putError' }, error, { source: 'Hub', destination: 'payerfsp' })) as any;
  t.is(iso.TxInfAndSts.StsRsnInf.Rsn.Prtry, '3208');
  t.deepEqual(await fspiopOf({ resource: 'transfers', operation: 'putError' }, iso), error);
});

test('a lookup error becomes an acmt.024 naming the hub as assigner and the requester as assignee', async (t) => {
  const error = { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } };
  const addressing = { source: 'Hub', destination: 'payerfsp', party: { Type: 'MSISDN', ID: '123' } };
  const iso = (await iso20022Of({ resource: 'parties', operation: 'putError' }, error, addressing)) as any;
  t.is(iso.Rpt.Rsn.Cd, '3204');
  t.is(iso.Assgnmt.Assgnr.Agt.FinInstnId.Othr.Id, 'Hub');
  t.is(iso.Assgnmt.Assgne.Agt.FinInstnId.Othr.Id, 'payerfsp');
});

test('an operation a resource has no ISO 20022 form of is a mistake, not a message', async (t) => {
  await t.throwsAsync(() => fspiopOf({ resource: 'parties', operation: 'post' }, {}), { message: 'no ISO 20022 form of post parties' });
});
