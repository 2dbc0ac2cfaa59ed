import type { ValueTransformer } from 'typeorm';
import { Decimal, type DecimalValue } from '../../shared/contracts/money';

/**
 * Amounts are decimal strings end to end. The exact Decimal of activities/shared/contracts/money does the arithmetic; the database stores
 * DECIMAL(38,4) on MySQL and TEXT on SQLite (SQLite's NUMERIC affinity would turn them into doubles).
 */
export const MONEY_SCALE = 4;

/** Canonical text of an amount: no exponent, no trailing zeros ("100", "0.5", "-12.25"). */
export function formatAmount(value: DecimalValue): string {
  const text = new Decimal(value).toFixed();
  return text === '-0' ? '0' : text;
}

/**
 * Why the ledger cannot hold an amount exactly, or undefined: it keeps 4 decimal places and, as FSPIOP
 * amounts allow, 18 integer digits. Such an amount is refused, never rounded.
 */
export function unrepresentableAmount(amount: DecimalValue): string | undefined {
  const value = new Decimal(amount);
  if (value.decimalPlaces() > MONEY_SCALE) return `has more than ${MONEY_SCALE} decimal places`;
  if (value.abs().greaterThanOrEqualTo('1e18')) return 'has more than 18 integer digits';
  return undefined;
}

export const moneyColumn: ValueTransformer = {
  to: (value: string | undefined) => (value === undefined ? value : new Decimal(value).toFixed(MONEY_SCALE)),
  from: (value: string | number | null) => (value === null ? value : formatAmount(value)),
};

export { Decimal };
