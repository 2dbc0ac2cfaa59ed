import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import { type AccountBalances, type JournalAmounts, ledgerViolations } from '../../../../../activities/hub/ledger/invariants';
import { type Amount, signedAmount, positiveAmount, textOf } from '../../../../helpers/amounts';

/** Two accounts in each of two currencies; a movement debits one account of a currency and credits the other. */
const ACCOUNTS = [
  { id: 1, participant: 'payerfsp', ledgerAccountType: 'POSITION', currency: 'USD' },
  { id: 2, participant: 'payeefsp', ledgerAccountType: 'POSITION', currency: 'USD' },
  { id: 3, participant: 'payerfsp', ledgerAccountType: 'POSITION', currency: 'EUR' },
  { id: 4, participant: 'payeefsp', ledgerAccountType: 'POSITION', currency: 'EUR' },
];

interface Movement {
  pair: number;
  forward: boolean;
  reserved: boolean;
  amount: Amount;
}

const movement = fc.record({ pair: fc.integer({ min: 0, max: 1 }), forward: fc.boolean(), reserved: fc.boolean(), amount: positiveAmount });

/** The journal the movements write and the balances a sound ledger holds after them. */
function ledgerOf(movements: Movement[]): { accounts: AccountBalances[]; rows: JournalAmounts[] } {
  const rows: JournalAmounts[] = [];
  const posted = new Map<number, bigint>();
  const reserved = new Map<number, bigint>();
  for (const { pair, forward, reserved: isReserved, amount } of movements) {
    const [debit, credit] = forward ? [2 * pair + 1, 2 * pair + 2] : [2 * pair + 2, 2 * pair + 1];
    for (const [accountId, units] of [
      [debit, amount.units],
      [credit, -amount.units],
    ] as const) {
      const sums = isReserved ? reserved : posted;
      sums.set(accountId, (sums.get(accountId) ?? 0n) + units);
      rows.push({ accountId, postedAmount: textOf(isReserved ? 0n : units), reservedAmount: textOf(isReserved ? units : 0n) });
    }
  }
  const accounts = ACCOUNTS.map((account) => ({
    ...account,
    value: textOf(posted.get(account.id) ?? 0n),
    reservedValue: textOf(reserved.get(account.id) ?? 0n),
  }));
  return { accounts, rows };
}

const movements = fc.array(movement, { minLength: 1, maxLength: 200 });

test('a ledger whose balances are the exact sums of many 18-digit journal rows shows no violation', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(movements, (moved) => {
        const { accounts, rows } = ledgerOf(moved);
        assert.deepEqual(ledgerViolations(accounts, rows), []);
      }),
    ),
  );
});

test('an account value off by any amount, down to 0.0001, is reported naming the account, with the sum of its currency', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(
        movements,
        fc.integer({ min: 0, max: ACCOUNTS.length - 1 }),
        signedAmount.filter((error) => error.units !== 0n),
        (moved, index, error) => {
          const { accounts, rows } = ledgerOf(moved);
          const wrong = accounts[index];
          const value = textOf(BigInt(wrong.value.replace('.', '')) + error.units);
          const violations = ledgerViolations(
            accounts.map((account) => (account === wrong ? { ...account, value } : account)),
            rows,
          );
          assert.deepEqual(violations, [
            {
              invariant: 'balancesMatchJournal',
              accountId: wrong.id,
              participant: wrong.participant,
              ledgerAccountType: 'POSITION',
              currency: wrong.currency,
              balance: 'value',
              held: value,
              journal: wrong.value,
            },
            { invariant: 'currenciesSumToZero', currency: wrong.currency, sum: textOf(error.units) },
          ]);
        },
      ),
    ),
  );
});

test('a journal row off by 0.0001 is reported against its account', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(movements, fc.nat(), fc.constantFrom(-1n, 1n), (moved, pick, error) => {
        const { accounts, rows } = ledgerOf(moved);
        const index = pick % rows.length;
        const row = rows[index];
        const field = BigInt(row.postedAmount.replace('.', '')) !== 0n ? 'postedAmount' : 'reservedAmount';
        const changed = { ...row, [field]: textOf(BigInt(row[field].replace('.', '')) + error) };
        const violations = ledgerViolations(
          accounts,
          rows.map((each, i) => (i === index ? changed : each)),
        );
        const balance = field === 'postedAmount' ? 'value' : 'reservedValue';
        assert.deepEqual(
          violations.map((violation) => violation.invariant === 'balancesMatchJournal' && [violation.accountId, violation.balance, violation.held]),
          [[row.accountId, balance, accounts[row.accountId - 1][balance]]],
        );
      }),
    ),
  );
});

test('two deposits of 5000000000000000.0001 recorded as -10000000000000000 are reported, not rounded away', (t) => {
  const deposit = { accountId: 1, postedAmount: '-5000000000000000.0001', reservedAmount: '0.0000' };
  const mirror = { accountId: 2, postedAmount: '5000000000000000.0001', reservedAmount: '0.0000' };
  const accounts = [
    { ...ACCOUNTS[0], value: '-10000000000000000.0000', reservedValue: '0.0000' },
    { ...ACCOUNTS[1], value: '10000000000000000.0002', reservedValue: '0.0000' },
  ];
  t.deepEqual(ledgerViolations(accounts, [deposit, mirror, deposit, mirror]), [
    {
      invariant: 'balancesMatchJournal',
      accountId: 1,
      participant: 'payerfsp',
      ledgerAccountType: 'POSITION',
      currency: 'USD',
      balance: 'value',
      held: '-10000000000000000.0000',
      journal: '-10000000000000000.0002',
    },
    { invariant: 'currenciesSumToZero', currency: 'USD', sum: '0.0002' },
  ]);
});

test('an amount that is no decimal of at most 4 places is reported where it is held, and counts as nothing in the sums', (t) => {
  const accounts = [
    { ...ACCOUNTS[0], value: '10.00001', reservedValue: '0.0000' },
    { ...ACCOUNTS[1], value: '-10.0000', reservedValue: '0.0000' },
  ];
  const rows = [
    { accountId: 1, postedAmount: '10.0000', reservedAmount: '0.0000' },
    { accountId: 2, postedAmount: '-10.0000', reservedAmount: '1e-4' },
  ];
  t.deepEqual(ledgerViolations(accounts, rows), [
    { invariant: 'amountsExact', accountId: 2, participant: 'payeefsp', ledgerAccountType: 'POSITION', currency: 'USD', held: '1e-4', in: 'journal' },
    { invariant: 'amountsExact', accountId: 1, participant: 'payerfsp', ledgerAccountType: 'POSITION', currency: 'USD', held: '10.00001', in: 'account' },
    { invariant: 'currenciesSumToZero', currency: 'USD', sum: '-10.0000' },
  ]);
});
