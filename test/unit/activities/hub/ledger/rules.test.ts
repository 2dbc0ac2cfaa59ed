import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import {
  addToNetPositions,
  alarmCrossed,
  alarmThreshold,
  exposure,
  isCommitMovement,
  liquidityCover,
  MOVEMENT_TYPES,
  movementRule,
  netSettlementReset,
  type Legs,
  openingPosition,
  paymentRefusal,
  settleGross,
  withdrawalRefusal,
} from '../../../../../activities/hub/ledger/rules';
import { Decimal } from '../../../../../activities/shared/contracts/money';
import { positiveAmount, textOf } from '../../../../helpers/amounts';

// Document 3's rules at every boundary, with Mojaloop's signs: a payer's POSITION rises as it pays; its SETTLEMENT
// account falls as it deposits (1000 deposited is a value of -1000).

const position = (value: string, reservedValue = '0') => ({ value, reservedValue });
const deposited = (amount: string, withdrawing = '0') => ({ value: `-${amount}`, reservedValue: withdrawing });

test('exposure is the position with its reservations and the amount; cover is the deposits less withdrawals in progress', (t) => {
  t.is(exposure(position('10', '2.5'), '0.0001').toFixed(), '12.5001');
  t.is(exposure(position('-40')).toFixed(), '-40');
  t.is(liquidityCover(deposited('1000', '250')).toFixed(), '750');
  t.is(liquidityCover(deposited('0')).toFixed(), '0');
});

test('a payment that brings the exposure to exactly the Net Debit Cap is allowed; one minor unit more is refused 4200', (t) => {
  const rule = { position: position('900', '50'), settlement: deposited('5000'), netDebitCap: '1000' };
  t.is(paymentRefusal({ ...rule, amount: '50' }), undefined);
  t.like(paymentRefusal({ ...rule, amount: '50.0001' }), { error: 'payerLimitError' });
});

test('a payment that brings the exposure to exactly the liquidity cover is allowed; one minor unit more is refused 4001', (t) => {
  const rule = { position: position('0'), settlement: deposited('100', '20'), netDebitCap: '10000' };
  t.is(paymentRefusal({ ...rule, amount: '80' }), undefined);
  const refused = paymentRefusal({ ...rule, amount: '80.0001' });
  t.is(refused?.error, 'payerInsufficientLiquidity');
  t.regex(refused?.description ?? '', /liquidity cover 80$/);
});

test('liquidity is checked before the cap: a payment beyond both is refused for liquidity, as central-ledger reports it', (t) => {
  t.like(paymentRefusal({ position: position('0'), settlement: deposited('10'), netDebitCap: '5', amount: '20' }), { error: 'payerInsufficientLiquidity' });
});

test('a position in credit (negative, a payee that has received) may pay that much more before its cap binds', (t) => {
  const rule = { position: position('-300'), settlement: deposited('0'), netDebitCap: '100' };
  t.is(paymentRefusal({ ...rule, amount: '300' }), undefined, 'back to zero: nothing owed, nothing to cover');
  t.is(paymentRefusal({ ...rule, amount: '300.0001' })?.error, 'payerInsufficientLiquidity');
  t.is(paymentRefusal({ ...rule, settlement: deposited('1000'), amount: '400' }), undefined, 'the cap binds at 100 over zero');
  t.is(paymentRefusal({ ...rule, settlement: deposited('1000'), amount: '400.0001' })?.error, 'payerLimitError');
});

test('a payer without a Net Debit Cap cannot pay at all, even zero', (t) => {
  const refused = paymentRefusal({ position: position('0'), settlement: deposited('1000'), netDebitCap: undefined, amount: '0' });
  t.is(refused?.error, 'payerLimitError');
  t.regex(refused?.description ?? '', /\(none set\)/);
});

test('a zero cap with zero exposure lets a zero amount through and nothing more', (t) => {
  const rule = { position: position('0'), settlement: deposited('1000'), netDebitCap: '0' };
  t.is(paymentRefusal({ ...rule, amount: '0' }), undefined);
  t.is(paymentRefusal({ ...rule, amount: '0.0001' })?.error, 'payerLimitError');
});

test('a withdrawal may take what was deposited less what covers the position and less other withdrawals, to the minor unit', (t) => {
  const rule = { position: position('300', '100'), settlement: deposited('1000', '100') };
  t.is(withdrawalRefusal({ ...rule, amount: '500' }), undefined);
  const refused = withdrawalRefusal({ ...rule, amount: '500.0001' });
  t.is(refused?.error, 'payerInsufficientLiquidity');
  t.regex(refused?.description ?? '', /available 500$/);
});

test('a position in credit frees no deposit: all of it may be withdrawn, and not one minor unit more', (t) => {
  const rule = { position: position('-700'), settlement: deposited('250') };
  t.is(withdrawalRefusal({ ...rule, amount: '250' }), undefined);
  t.truthy(withdrawalRefusal({ ...rule, amount: '250.0001' }));
});

test('for any balances of 4-decimal amounts, a payment is allowed exactly when the exposure stays within both the cover and the cap', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(positiveAmount, positiveAmount, positiveAmount, positiveAmount, (owed, deposit, cap, amount) => {
        const refusal = paymentRefusal({ position: position(owed.text), settlement: deposited(deposit.text), netDebitCap: cap.text, amount: amount.text });
        const after = owed.units + amount.units;
        const expected = after > deposit.units ? 'payerInsufficientLiquidity' : after > cap.units ? 'payerLimitError' : undefined;
        assert.equal(refusal?.error, expected, `owed ${textOf(owed.units)} + ${textOf(amount.units)} against ${deposit.text} and ${cap.text}`);
      }),
    ),
  );
});

test('net settlement amounts: a net payer owes a positive amount, a net receiver is owed a negative one, each counts its payments', (t) => {
  const nets = addToNetPositions([
    { debitAccountId: 1, creditAccountId: 2, amount: '100' },
    { debitAccountId: 2, creditAccountId: 3, amount: '30.5' },
    { debitAccountId: 3, creditAccountId: 1, amount: '0.0001' },
  ]);
  t.deepEqual(
    [...nets].map(([account, { netAmount, transferCount }]) => [account, netAmount.toFixed(), transferCount]),
    [
      [1, '99.9999', 2],
      [2, '-69.5', 2],
      [3, '-30.4999', 2],
    ],
  );
});

test('net settlement amounts of any payments sum to zero, whatever pages they are read in, and each account moves by exactly its payments', (t) => {
  const payment = fc.record({ debitAccountId: fc.integer({ min: 1, max: 6 }), creditAccountId: fc.integer({ min: 1, max: 6 }), amount: positiveAmount });
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(payment, { maxLength: 60 }), fc.integer({ min: 1, max: 60 }), (payments, pageSize) => {
        const nets = new Map();
        for (let start = 0; start < payments.length; start += pageSize) {
          addToNetPositions(
            payments.slice(start, start + pageSize).map((p) => ({ ...p, amount: p.amount.text })),
            nets,
          );
        }
        const expected = new Map<number, bigint>();
        for (const p of payments) {
          expected.set(p.debitAccountId, (expected.get(p.debitAccountId) ?? 0n) + p.amount.units);
          expected.set(p.creditAccountId, (expected.get(p.creditAccountId) ?? 0n) - p.amount.units);
        }
        let total = 0n;
        for (const [account, units] of expected) {
          assert.equal(nets.get(account)!.netAmount.toFixed(4), textOf(units));
          total += units;
        }
        assert.equal(total, 0n);
      }),
    ),
  );
});

// A net settlement's reset, with Mojaloop's signs: debiting a POSITION raises it (as a payment raises its payer's).
const HUB = 1;
const typeOf = (accountId: number) => (accountId === HUB ? 'HUB_MULTILATERAL_SETTLEMENT' : 'POSITION');
const valueChange = (accountId: number, legs: Legs) =>
  accountId === legs.debitAccountId ? new Decimal(legs.amount) : accountId === legs.creditAccountId ? new Decimal(legs.amount).negated() : new Decimal(0);

test("a net payer's reset debits the hub's multilateral account and credits its position; a net receiver's debits its position", (t) => {
  t.deepEqual(netSettlementReset('99.9999', 7, HUB), { debitAccountId: HUB, creditAccountId: 7, amount: '99.9999' });
  t.deepEqual(netSettlementReset('-69.5', 8, HUB), { debitAccountId: 8, creditAccountId: HUB, amount: '69.5' });
});

test('both ways a reset can go are movements the ledger takes as SETTLEMENT_NET', (t) => {
  for (const net of ['0.0001', '-0.0001']) {
    const legs = netSettlementReset(net, 7, HUB);
    t.is(movementRule('SETTLEMENT_NET', typeOf(legs.debitAccountId), typeOf(legs.creditAccountId)), 'none', `a net amount of ${net}`);
  }
});

test("for any payments, the resets of their net amounts bring every position back to where it stood and leave the hub's account as it was", (t) => {
  const payment = fc.record({ debitAccountId: fc.integer({ min: 2, max: 7 }), creditAccountId: fc.integer({ min: 2, max: 7 }), amount: positiveAmount });
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(payment, { minLength: 1, maxLength: 40 }), (payments) => {
        const nets = addToNetPositions(payments.map((p) => ({ ...p, amount: p.amount.text })));
        const resets = [...nets].map(([account, { netAmount }]) => netSettlementReset(netAmount, account, HUB));
        for (const legs of resets) assert.ok(!new Decimal(legs.amount).isNegative(), `a reset of ${legs.amount}`);
        for (const [account, { netAmount }] of nets) {
          const after = resets.reduce((position, legs) => position.plus(valueChange(account, legs)), netAmount);
          assert.equal(after.toFixed(), '0', `position ${account} after its reset`);
        }
        assert.equal(resets.reduce((hub, legs) => hub.plus(valueChange(HUB, legs)), new Decimal(0)).toFixed(), '0', "the hub's account");
      }),
    ),
  );
});

// A participant's opening position (POST /participants/{name}/initialPositionAndLimits), against the hub's account.
test("an opening position above zero is owed: it debits the participant's position and credits the hub's multilateral account", (t) => {
  t.deepEqual(openingPosition('250.5', 7, HUB), { debitAccountId: 7, creditAccountId: HUB, amount: '250.5' });
  t.is(valueChange(7, openingPosition('0.0001', 7, HUB)!).toFixed(), '0.0001', 'the position rises by it');
});

test("an opening position below zero is in credit: it debits the hub's multilateral account and lowers the position by its size", (t) => {
  t.deepEqual(openingPosition('-1000', 7, HUB), { debitAccountId: HUB, creditAccountId: 7, amount: '1000' });
  t.is(valueChange(7, openingPosition('-0.0001', 7, HUB)!).toFixed(), '-0.0001');
});

test('an opening position of zero moves nothing, and either direction is a movement the ledger takes as INITIAL_POSITION', (t) => {
  t.is(openingPosition('0', 7, HUB), undefined);
  t.is(openingPosition('-0.0000', 7, HUB), undefined);
  for (const opening of ['5', '-5']) {
    const legs = openingPosition(opening, 7, HUB)!;
    t.is(movementRule('INITIAL_POSITION', typeOf(legs.debitAccountId), typeOf(legs.creditAccountId)), 'none', `an opening of ${opening}`);
  }
});

// Gross settlement in a payment's commit: payer's position 11, payee's 12, their settlement accounts 21 and 22.
const GROSS = { payerSettlement: 21, payeeSettlement: 22 };
const PAYMENT = { debitAccountId: 11, creditAccountId: 12 };
const movedBy = (phases: ReturnType<typeof settleGross>) => {
  const moved = new Map<number, string>();
  for (const { changes } of phases) {
    for (const { accountId, posted } of changes) moved.set(accountId, new Decimal(moved.get(accountId) ?? 0).plus(posted ?? 0).toFixed());
  }
  return moved;
};

test("a gross payment's settlement moves the amount from the payer's settlement account to the payee's: the payer's cover shrinks", (t) => {
  const phases = settleGross(PAYMENT, '40.25', { ...GROSS, resetPositions: false });
  t.deepEqual(
    phases.map((phase) => phase.phase),
    ['GROSS_SETTLEMENT'],
  );
  t.deepEqual(
    movedBy(phases),
    new Map([
      [21, '40.25'],
      [22, '-40.25'],
    ]),
    "the payer's deposit (its value negated) falls by the amount, the payee's rises",
  );
});

test('with autoPositionReset the payment is also taken back out of both positions, so they stand where they stood before it', (t) => {
  const phases = settleGross(PAYMENT, '40.25', { ...GROSS, resetPositions: true });
  t.deepEqual(
    phases.map((phase) => phase.phase),
    ['GROSS_SETTLEMENT', 'POSITION_RESET'],
  );
  const moved = movedBy(phases);
  t.is(new Decimal(moved.get(11)!).plus('40.25').toFixed(), '0', "the payer's position, risen by the payment, falls back");
  t.is(new Decimal(moved.get(12)!).minus('40.25').toFixed(), '0', "the payee's position, fallen by the payment, rises back");
  t.is(moved.get(21), '40.25');
});

test("each phase of a gross settlement debits exactly what it credits, and is a movement the ledger posts in a payment's commit", (t) => {
  const typeOfAccount = (accountId: number) => (accountId > 20 ? 'SETTLEMENT' : 'POSITION');
  for (const phase of settleGross(PAYMENT, '0.0001', { ...GROSS, resetPositions: true })) {
    t.is(phase.changes.reduce((sum, change) => sum.plus(change.posted ?? 0), new Decimal(0)).toFixed(), '0', phase.phase);
    t.true(
      phase.changes.every((change) => change.reserved === undefined),
      `${phase.phase} reserves nothing`,
    );
    const debited = phase.changes.find((change) => change.posted!.isPositive())!;
    const credited = phase.changes.find((change) => change.posted!.isNegative())!;
    t.true(isCommitMovement(phase.phase, 'TRANSFER', typeOfAccount(debited.accountId), typeOfAccount(credited.accountId)), phase.phase);
  }
});

test('the alarm sounds alarmPercentage short of the cap: at 90 of a cap of 100 with the default 10, not one minor unit before', (t) => {
  t.is(alarmThreshold('100', '10').toFixed(), '90');
  t.true(alarmCrossed('89.9999', '90', '100', '10'));
  t.false(alarmCrossed('0', '89.9999', '100', '10'));
  t.is(alarmThreshold('1000', '0').toFixed(), '1000', 'an alarm percentage of 0 sounds at the cap itself');
});

test('a crossing is counted once: rising while above, or falling, is none; rising past it again is another', (t) => {
  t.false(alarmCrossed('95', '99', '100', '10'), 'already above');
  t.false(alarmCrossed('95', '50', '100', '10'), 'falling');
  t.true(alarmCrossed('50', '95', '100', '10'), 'rising past it again');
  t.true(alarmCrossed('-20', '150', '100', '10'), 'from a position in credit to beyond the cap');
});

// The ledger's table of movements (MOVEMENT_TYPES): the hub moves money only the ways it names, each by its rule.
const ACCOUNT_TYPES = ['POSITION', 'SETTLEMENT', 'HUB_RECONCILIATION', 'HUB_MULTILATERAL_SETTLEMENT', 'INTERCHANGE_FEE', 'INTERCHANGE_FEE_SETTLEMENT'];
const DFSP_ACCOUNTS = ['POSITION', 'SETTLEMENT'];

test("each movement a caller asks for answers to its rule: a payment to the payer's cover and cap, funds out to the deposit", (t) => {
  t.is(movementRule('TRANSFER', 'POSITION', 'POSITION'), 'payment');
  t.is(movementRule('FUNDS_OUT', 'SETTLEMENT', 'HUB_RECONCILIATION'), 'withdrawal');
  t.is(movementRule('FUNDS_IN', 'HUB_RECONCILIATION', 'SETTLEMENT'), 'none');
  for (const [debit, credit] of [
    ['POSITION', 'HUB_MULTILATERAL_SETTLEMENT'],
    ['HUB_MULTILATERAL_SETTLEMENT', 'POSITION'],
  ]) {
    t.is(movementRule('INITIAL_POSITION', debit, credit), 'none', `an initial position, ${debit} to ${credit}`);
    t.is(movementRule('SETTLEMENT_NET', debit, credit), 'none', `a net settlement's reset, ${debit} to ${credit}`);
  }
});

test('a movement the hub does not make is refused: another pair of accounts for a kind, a reversed one, an unknown kind', (t) => {
  t.is(movementRule('TRANSFER', 'POSITION', 'SETTLEMENT'), undefined, "a payment into the payee's deposit");
  t.is(movementRule('TRANSFER', 'SETTLEMENT', 'SETTLEMENT'), undefined);
  t.is(movementRule('FUNDS_IN', 'SETTLEMENT', 'HUB_RECONCILIATION'), undefined, 'funds in reversed would be a withdrawal unchecked');
  t.is(movementRule('FUNDS_OUT', 'POSITION', 'HUB_RECONCILIATION'), undefined);
  t.is(movementRule('INITIAL_POSITION', 'SETTLEMENT', 'HUB_RECONCILIATION'), undefined);
  t.is(movementRule('REFUND', 'POSITION', 'POSITION'), undefined);
});

test("a gross payment's settlement is posted only in that payment's commit: no caller may ask for it on its own", (t) => {
  t.true(isCommitMovement('GROSS_SETTLEMENT', 'TRANSFER', 'SETTLEMENT', 'SETTLEMENT'));
  t.true(isCommitMovement('POSITION_RESET', 'TRANSFER', 'POSITION', 'POSITION'));
  t.is(movementRule('GROSS_SETTLEMENT', 'SETTLEMENT', 'SETTLEMENT'), undefined);
  t.is(movementRule('POSITION_RESET', 'POSITION', 'POSITION'), undefined, 'a payment by another name would answer to no rule');
  t.false(isCommitMovement('GROSS_SETTLEMENT', 'TRANSFER', 'POSITION', 'POSITION'), 'a gross model naming POSITION as its settlement account');
  t.false(isCommitMovement('GROSS_SETTLEMENT', 'FUNDS_IN', 'SETTLEMENT', 'SETTLEMENT'));
});

test('for every kind and pair of accounts, money moves from one DFSP to another only as a payment, and out of a deposit only as a withdrawal', (t) => {
  const kinds = [...new Set(MOVEMENT_TYPES.map((type) => type.kind)), 'REFUND', 'FEE'];
  for (const kind of kinds) {
    for (const debit of ACCOUNT_TYPES) {
      for (const credit of ACCOUNT_TYPES) {
        const rule = movementRule(kind, debit, credit);
        if (DFSP_ACCOUNTS.includes(debit) && DFSP_ACCOUNTS.includes(credit)) t.true(rule === undefined || rule === 'payment', `${kind} ${debit} to ${credit}`);
        if (debit === 'SETTLEMENT') t.true(rule === undefined || rule === 'withdrawal', `${kind} out of a deposit`);
      }
    }
  }
});
