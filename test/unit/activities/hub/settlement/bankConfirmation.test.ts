import test from 'ava';
import {
  BankConfirmationRefused,
  checkConfirmation,
  type AccountToConfirm,
  type BankConfirmationLine,
} from '../../../../../activities/hub/settlement/bankConfirmation';

const accounts: AccountToConfirm[] = [
  { participantId: 2, participant: 'payerfsp', accountId: 3, currency: 'USD', netAmount: '100.0000' },
  { participantId: 4, participant: 'payeefsp', accountId: 5, currency: 'USD', netAmount: '-60.5000' },
  { participantId: 6, participant: 'twocurrencies', accountId: 7, currency: 'USD', netAmount: '-39.5000' },
  { participantId: 6, participant: 'twocurrencies', accountId: 8, currency: 'EUR', netAmount: '0.0000' },
];

const right: BankConfirmationLine[] = [
  { participant: 'payerfsp', currency: 'USD', amount: '100', reference: 'B-1' },
  { participant: '4', currency: 'USD', amount: '-60.50', reference: 'B-2' },
  { participant: 'twocurrencies', currency: 'USD', amount: '-39.5', reference: 'B-3' },
  { participant: 'twocurrencies', accountId: 8, currency: 'EUR', amount: '0', reference: 'B-4' },
];

const kinds = (lines: BankConfirmationLine[], state = 'PS_TRANSFERS_COMMITTED' as const) =>
  checkConfirmation(state, accounts, lines).problems.map((problem) => `${problem.problem} ${problem.participant ?? ''}`.trim());

test('a confirmation of every account once, in its currency, for exactly its net amount, is no problem; participants by name or ID', (t) => {
  const { problems, references } = checkConfirmation('PS_TRANSFERS_COMMITTED', accounts, right);
  t.deepEqual(problems, []);
  t.deepEqual(
    [...references],
    [
      [3, 'B-1'],
      [5, 'B-2'],
      [7, 'B-3'],
      [8, 'B-4'],
    ],
  );
});

test('amounts are compared as decimals, exactly: one minor unit off is a problem, an exponent or a second sign is no amount', (t) => {
  for (const amount of ['100.0001', '99.9999', '1e2', '+100', '100.00001', '-100', '']) {
    const lines = [{ ...right[0], amount }, ...right.slice(1)];
    t.deepEqual(checkConfirmation('PS_TRANSFERS_COMMITTED', accounts, lines).problems, [
      { problem: 'amount', participant: 'payerfsp', currency: 'USD', expected: '100', sent: amount },
    ]);
  }
});

test('every problem is reported at once: wrong amount, a missing account, a duplicate, an unknown participant, a wrong currency', (t) => {
  const lines: BankConfirmationLine[] = [
    { ...right[0], amount: '10' },
    right[2],
    right[2],
    { participant: 'stranger', currency: 'USD', amount: '1', reference: 'X' },
    { participant: 'payeefsp', currency: 'KES', amount: '-60.5', reference: 'B-2' },
  ];
  t.deepEqual(kinds(lines), ['amount payerfsp', 'duplicate twocurrencies', 'unknown stranger', 'currency payeefsp', 'missing twocurrencies']);
});

test('a settlement not in PS_TRANSFERS_COMMITTED is a problem with the rest of the file still checked', (t) => {
  t.deepEqual(kinds(right, 'PS_TRANSFERS_RESERVED' as never), ['state']);
  t.deepEqual(kinds(right.slice(1), 'SETTLED' as never), ['state', 'missing payerfsp']);
});

test("a line without the bank's reference, or one longer than the column holds, is a problem", (t) => {
  t.deepEqual(kinds([{ ...right[0], reference: '  ' }, ...right.slice(1)]), ['reference payerfsp']);
  t.deepEqual(kinds([{ ...right[0], reference: 'r'.repeat(257) }, ...right.slice(1)]), ['reference payerfsp']);
});

test("a participant's account named by an account it does not have is unknown; in another currency than the account's, a currency problem", (t) => {
  t.deepEqual(kinds([...right.slice(0, 3), { ...right[3], accountId: 3 }]), ['unknown twocurrencies', 'missing twocurrencies']);
  t.deepEqual(kinds([...right.slice(0, 3), { ...right[3], currency: 'USD' }]), ['currency twocurrencies']);
});

test('the refusal lists every problem in its ErrorInformation: who, what was expected, what was sent', (t) => {
  const { problems } = checkConfirmation('PS_TRANSFERS_COMMITTED', accounts, [{ ...right[0], amount: '99' }, right[1]]);
  const refusal = new BankConfirmationRefused(9, problems);
  t.like(refusal.errorInformation, { errorCode: '3100' });
  t.deepEqual(refusal.errorInformation.extensionList?.extension, [
    { key: 'amount', value: 'payerfsp USD: amount expected 100, sent 99' },
    { key: 'missing', value: 'twocurrencies USD: missing expected -39.5, sent no line' },
    { key: 'missing', value: 'twocurrencies EUR: missing expected 0, sent no line' },
  ]);
});
