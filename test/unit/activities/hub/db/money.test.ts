import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import { Decimal, formatAmount, moneyColumn, unrepresentableAmount } from '../../../../../activities/hub/db/money';
import { positiveAmount, signedAmount, sumOf, textOf } from '../../../../helpers/amounts';

/** The canonical text formatAmount promises: no exponent, no trailing zeros. */
const canonical = (units: bigint) => textOf(units).replace(/\.?0+$/, '');

const holds = (property: fc.IProperty<any>) => () => fc.assert(property);

test('adding or subtracting two amounts of up to 18 integer digits and 4 decimals is exact', (t) => {
  t.notThrows(
    holds(
      fc.property(signedAmount, signedAmount, (a, b) => {
        assert.equal(new Decimal(a.text).plus(b.text).toFixed(4), textOf(a.units + b.units));
        assert.equal(new Decimal(a.text).minus(b.text).toFixed(4), textOf(a.units - b.units));
      }),
    ),
  );
});

test('a sum of many such amounts is exact, and written without an exponent however many digits it has', (t) => {
  t.notThrows(
    holds(
      fc.property(fc.array(signedAmount, { maxLength: 500 }), (amounts) => {
        const total = amounts.reduce((sum, amount) => sum.plus(amount.text), new Decimal(0));
        assert.equal(total.toFixed(4), textOf(sumOf(amounts)));
        assert.equal(total.toString(), canonical(sumOf(amounts)));
      }),
    ),
  );
});

test('an amount scaled to minor units of 10^-4 is exact', (t) => {
  t.notThrows(
    holds(
      fc.property(signedAmount, (amount) => {
        assert.equal(new Decimal(amount.text).times(10_000).toFixed(), amount.units.toString());
      }),
    ),
  );
});

test('formatAmount writes an amount without exponent or trailing zeros, and the column stores it back exactly', (t) => {
  t.notThrows(
    holds(
      fc.property(signedAmount, (amount) => {
        assert.equal(formatAmount(amount.text), canonical(amount.units));
        assert.equal(moneyColumn.to(formatAmount(amount.text)), amount.text);
        assert.equal(moneyColumn.from(amount.text), canonical(amount.units));
      }),
    ),
  );
});

test('every amount of up to 18 integer digits and 4 decimals is representable; one more digit either side is not', (t) => {
  t.notThrows(
    holds(
      fc.property(positiveAmount, fc.integer({ min: 1, max: 9 }), (amount, digit) => {
        assert.equal(unrepresentableAmount(amount.text), undefined);
        assert.equal(unrepresentableAmount(`${amount.text}${digit}`), 'has more than 4 decimal places');
        assert.equal(unrepresentableAmount(`${digit}${amount.text.padStart(23, '0')}`), 'has more than 18 integer digits');
      }),
    ),
  );
});
