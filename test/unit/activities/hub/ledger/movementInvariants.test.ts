import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import {
  addCommitted,
  type AccountHeld,
  type CommittedMovement,
  type GrossTerms,
  movementViolations,
  reservedSums,
} from '../../../../../activities/hub/ledger/movementInvariants';
import { positiveAmount } from '../../../../helpers/amounts';

/** Two DFSPs' POSITION and SETTLEMENT accounts in USD, and the hub's reconciliation and multilateral accounts. */
const PLACES = [
  { id: 1, participantId: 2, ledgerAccountType: 'POSITION' },
  { id: 2, participantId: 2, ledgerAccountType: 'SETTLEMENT' },
  { id: 3, participantId: 3, ledgerAccountType: 'POSITION' },
  { id: 4, participantId: 3, ledgerAccountType: 'SETTLEMENT' },
  { id: 5, participantId: 1, ledgerAccountType: 'HUB_RECONCILIATION' },
  { id: 6, participantId: 1, ledgerAccountType: 'HUB_MULTILATERAL_SETTLEMENT' },
];

/** The accounts holding these balances (by ID; every other balance zero). */
function held(values: Record<number, string>, reserved: Record<number, string> = {}): AccountHeld[] {
  return PLACES.map((place) => ({ ...place, currency: 'USD', value: values[place.id] ?? '0.0000', reservedValue: reserved[place.id] ?? '0.0000' }));
}

const deposit = (settlement: number, amount: string): CommittedMovement => ({
  kind: 'FUNDS_IN',
  debitAccountId: 5,
  creditAccountId: settlement,
  amount,
  settlementModelId: null,
});
const payment = (amount: string, settlementModelId: number | null = null): CommittedMovement => ({
  kind: 'TRANSFER',
  debitAccountId: 1,
  creditAccountId: 3,
  amount,
  settlementModelId,
});
const NO_GROSS = new Map<number, GrossTerms>();

test('deposits, a net payment and a pending funds out, as the ledger books them, break no invariant', (t) => {
  const committed = [deposit(2, '1000'), deposit(4, '50'), payment('125.5')];
  const accounts = held({ 1: '125.5000', 2: '-1000.0000', 3: '-125.5000', 4: '-50.0000', 5: '1050.0000' }, { 2: '200.0000' });
  const moved = addCommitted(new Map(), committed, accounts, NO_GROSS);
  t.deepEqual(movementViolations(accounts, moved, reservedSums([{ debitAccountId: 2, amount: '200' }])), []);
});

test('a payment a gross model settles as it commits moves the settlement accounts, and with autoPositionReset leaves the positions where they were', (t) => {
  const committed = [deposit(2, '1000'), payment('40', 7)];
  const reset = new Map([[7, { settlementModelId: 7, settlementAccountType: 'SETTLEMENT', autoPositionReset: true }]]);
  const settledAccounts = held({ 2: '-960.0000', 4: '-40.0000', 5: '1000.0000' });
  t.deepEqual(movementViolations(settledAccounts, addCommitted(new Map(), committed, settledAccounts, reset), new Map()), []);

  const noReset = new Map([[7, { settlementModelId: 7, settlementAccountType: 'SETTLEMENT', autoPositionReset: false }]]);
  const positionsMoved = held({ 1: '40.0000', 2: '-960.0000', 3: '-40.0000', 4: '-40.0000', 5: '1000.0000' });
  t.deepEqual(movementViolations(positionsMoved, addCommitted(new Map(), committed, positionsMoved, noReset), new Map()), []);
});

test('a position or a settlement account off by 0.0001 from its movements breaks its own invariant, naming the account and both figures', (t) => {
  const committed = [deposit(2, '1000'), payment('125.5')];
  const accounts = held({ 1: '125.5001', 2: '-999.9999', 3: '-125.5000', 5: '1000.0000' });
  t.deepEqual(movementViolations(accounts, addCommitted(new Map(), committed, accounts, NO_GROSS), new Map()), [
    { invariant: 'positionsMatchTransfers', accountId: 1, balance: 'value', held: '125.5001', expected: '125.5000' },
    { invariant: 'settlementAccountsMatchFunds', accountId: 2, balance: 'value', held: '-999.9999', expected: '-1000.0000' },
  ]);
});

test('a reservation left standing after its transfer was decided breaks the reservations invariant', (t) => {
  const accounts = held({}, { 1: '10.0000' });
  t.deepEqual(movementViolations(accounts, new Map(), reservedSums([])), [
    { invariant: 'reservationsMatchOpenTransfers', accountId: 1, balance: 'reservedValue', held: '10.0000', expected: '0.0000' },
  ]);
});

test("the movements' sums carried on from a checkpoint are the sums of all of them, wherever the checkpoint falls", (t) => {
  const gross = new Map([[7, { settlementModelId: 7, settlementAccountType: 'SETTLEMENT', autoPositionReset: true }]]);
  const movement = fc.record({
    amount: positiveAmount,
    kind: fc.constantFrom('deposit', 'net', 'gross'),
  });
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 50 }), fc.nat(), (drawn, at) => {
        const movements = drawn.map(({ amount, kind }) => (kind === 'deposit' ? deposit(2, amount.text) : payment(amount.text, kind === 'gross' ? 7 : null)));
        const cut = movements.length === 0 ? 0 : at % movements.length;
        const accounts = held({});
        const carried = addCommitted(addCommitted(new Map(), movements.slice(0, cut), accounts, gross), movements.slice(cut), accounts, gross);
        assert.deepEqual(carried, addCommitted(new Map(), movements, accounts, gross));
      }),
    ),
  );
});
