import test from 'ava';
import {
  addToFlows,
  flowTotals,
  initiationTotals,
  payOrReceive,
  periodBalances,
  type WindowFlow,
} from '../../../../../../activities/hub/settlement/reports/reportMoney';

test('a net amount above zero is paid, below zero received, exactly', (t) => {
  t.deepEqual(payOrReceive('90.2499'), { toPay: '90.2499', toReceive: '0' });
  t.deepEqual(payOrReceive('-0.0001'), { toPay: '0', toReceive: '0.0001' });
  t.deepEqual(payOrReceive('0'), { toPay: '0', toReceive: '0' });
});

test("a settlement's totals per currency: what is paid equals what is received, with no float drift", (t) => {
  const lines = [
    { currency: 'USD', netSettlementAmount: '0.1' },
    { currency: 'USD', netSettlementAmount: '0.2' },
    { currency: 'USD', netSettlementAmount: '-0.3' },
    { currency: 'EUR', netSettlementAmount: '-999999999999999.9999' },
    { currency: 'EUR', netSettlementAmount: '999999999999999.9999' },
  ];
  t.deepEqual(initiationTotals(lines), [
    { currency: 'EUR', toPay: '999999999999999.9999', toReceive: '999999999999999.9999', net: '0' },
    { currency: 'USD', toPay: '0.3', toReceive: '0.3', net: '0' },
  ]);
});

test("a participant's flows add its sent and received payments per window and currency, and total per currency", (t) => {
  const flows = addToFlows(
    [
      { settlementWindowId: 1, currency: 'USD', amount: '60', sent: true },
      { settlementWindowId: 1, currency: 'USD', amount: '10.0001', sent: false },
      { settlementWindowId: 2, currency: 'USD', amount: '0.1', sent: true },
      { settlementWindowId: 2, currency: 'USD', amount: '0.2', sent: true },
    ],
    new Map<string, WindowFlow>(),
  );
  const windows = [...flows.values()];
  t.deepEqual(windows, [
    { settlementWindowId: 1, currency: 'USD', sentAmount: '60', sentCount: 1, receivedAmount: '10.0001', receivedCount: 1, netAmount: '49.9999' },
    { settlementWindowId: 2, currency: 'USD', sentAmount: '0.3', sentCount: 2, receivedAmount: '0', receivedCount: 0, netAmount: '0.3' },
  ]);
  t.deepEqual(flowTotals(windows), [{ currency: 'USD', sentAmount: '60.3', sentCount: 3, receivedAmount: '10.0001', receivedCount: 1, netAmount: '50.2999' }]);
});

test("an account's opening balance is today's less what was posted since the start; opening + movements = closing", (t) => {
  // 100 now; 30.5 posted since the start, of which -4.25 since the end.
  t.deepEqual(periodBalances('100', '30.5', '-4.25'), { opening: '69.5', movements: '34.75', closing: '104.25' });
  t.deepEqual(periodBalances('-10000', '0', '0'), { opening: '-10000', movements: '0', closing: '-10000' }, 'a quiet period opens where it closes');
});
