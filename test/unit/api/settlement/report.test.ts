import test from 'ava';
import { reportCsv } from '../../../../api/settlement/report';

// The settlement report a finance team opens in a spreadsheet: a participant named before names were held to
// central-ledger's rule (=B1234) must not run as a formula, and each net amount must stay a number.

test("a participant's name that would be a formula is shown as text, and negative net amounts stay numbers", (t) => {
  const line = { participantId: 7, accountId: 12, currency: 'USD', transferCount: 2, state: 'PENDING_SETTLEMENT' as const };
  const csv = reportCsv([
    { ...line, participant: '=B1234', netSettlementAmount: '-10.5' },
    { ...line, participant: 'dfspb', participantId: 8, accountId: 14, netSettlementAmount: '10.5' },
  ]);
  t.deepEqual(csv.split('\r\n'), [
    'participant,participantId,accountId,currency,netSettlementAmount,transferCount,state',
    "'=B1234,7,12,USD,-10.5,2,PENDING_SETTLEMENT",
    'dfspb,8,14,USD,10.5,2,PENDING_SETTLEMENT',
    '',
  ]);
});
