import test from 'ava';
import { checkpointCut, describeViolation } from '../../../../../activities/hub/ledger/ledgerChecks';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

test('without a margin (SQLite, one writer at a time) the checkpoint takes every journal row read', (t) => {
  t.is(
    checkpointCut(
      [
        { id: 11, createdDate: ago(0) },
        { id: 12, createdDate: ago(0) },
      ],
      10,
      NOW,
      0,
    ),
    12,
  );
  t.is(checkpointCut([], 10, NOW, 0), 10, 'with nothing read it stays where it was');
});

test('with a margin (MySQL) the checkpoint stops before the first row made within twice the margin, though later IDs be older', (t) => {
  const rows = [
    { id: 11, createdDate: ago(300) },
    { id: 12, createdDate: ago(121) },
    { id: 14, createdDate: ago(119) },
    // A row made earlier but inserted later (a step that waited for its locks): still after the cut.
    { id: 15, createdDate: ago(200) },
  ];
  t.is(checkpointCut(rows, 10, NOW, 60_000), 12);
  t.is(checkpointCut([{ id: 11, createdDate: ago(10) }], 10, NOW, 60_000), 10, 'nothing old enough: it stays');
});

test("the operator's e-mail names the account, its balance and what it should be", (t) => {
  t.is(
    describeViolation({
      invariant: 'positionsMatchTransfers',
      accountId: 9,
      participant: 'payerfsp',
      ledgerAccountType: 'POSITION',
      currency: 'USD',
      balance: 'value',
      held: '1.0000',
      expected: '0.0000',
    }),
    'positionsMatchTransfers: payerfsp POSITION USD (account 9) value is 1.0000, expected 0.0000',
  );
  t.is(describeViolation({ invariant: 'currenciesSumToZero', currency: 'EUR', sum: '0.0001' }), 'currenciesSumToZero: EUR accounts sum to 0.0001, not zero');
});
