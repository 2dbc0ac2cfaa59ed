import test from 'ava';
import { iso20022MediaOf, iso20022TextOf } from '../../../../../activities/hub/delivery/iso20022Messages';
import { validateIso20022 } from '../../../../../activities/shared/contracts/schemas';

// What the hub says itself in ISO 20022 mode: its FSPIOP body made the ISO 20022 message Mojaloop's services send,
// one an ISO 20022 DFSP's validation (the published schemas) takes.

const hub = { source: 'Hub', destination: 'payerfsp' };
const error = { errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } };

test('an error callback is a pacs.002 error, of the schema PUT /transfers/{ID}/error takes', async (t) => {
  const text = await iso20022TextOf({ ...hub, resource: 'transfers', method: 'PUT', body: error });
  const iso = validateIso20022<any>('PacsError_FIToFIPaymentStatusReportV15', JSON.parse(text!));
  t.is(iso.TxInfAndSts.StsRsnInf.Rsn.Prtry, '3303');
});

test('an error the record kept as FSPIOP text is made ISO 20022 as it is sent again', async (t) => {
  const text = await iso20022TextOf({ ...hub, resource: 'quotes', method: 'PUT', rawBody: JSON.stringify(error) });
  t.is(validateIso20022<any>('PacsError_FIToFIPaymentStatusReportV15', JSON.parse(text!)).TxInfAndSts.StsRsnInf.Rsn.Prtry, '3303');
});

test("the PATCH that tells a payee the outcome is a pacs.002 status, and a transfer's state from the record too", async (t) => {
  const completedTimestamp = '2025-03-01T10:00:00.000Z';
  const patch = JSON.parse(
    (await iso20022TextOf({ ...hub, resource: 'transfers', method: 'PATCH', body: { transferState: 'COMMITTED', completedTimestamp } }))!,
  );
  t.like(validateIso20022<any>('PacsStatus_FIToFIPaymentStatusReportV15', patch).TxInfAndSts, { TxSts: 'COMM', PrcgDt: { DtTm: completedTimestamp } });
  const put = JSON.parse((await iso20022TextOf({ ...hub, resource: 'transfers', method: 'PUT', body: { transferState: 'ABORTED', completedTimestamp } }))!);
  t.is(validateIso20022<any>('PacsStatus_FIToFIPaymentStatusReportV15', put).TxInfAndSts.TxSts, 'ABOR');
});

test("a lookup's error is an acmt.024 of the schema PUT /parties/{Type}/{ID}/error takes", async (t) => {
  const params = { partyIdType: 'MSISDN', partyIdentifier: '27713803912' };
  const text = await iso20022TextOf({
    ...hub,
    resource: 'parties',
    method: 'PUT',
    params,
    body: { errorInformation: { errorCode: '3204', errorDescription: 'x' } },
  });
  t.is(validateIso20022<any>('GetPartiesError_IdentificationVerificationReportV03', JSON.parse(text!)).Rpt.Rsn.Cd, '3204');
});

test('a message without a body (a GET) has no text to make', async (t) => {
  t.is(await iso20022TextOf({ ...hub, resource: 'transfers', method: 'GET' }), undefined);
});

test('every such message carries the ISO 20022 media type at version 2.0, whatever its requester spoke', (t) => {
  t.deepEqual(iso20022MediaOf('quotes'), { mediaTypeName: 'iso20022.quotes', version: '2.0' });
});
