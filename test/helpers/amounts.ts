import fc from 'fast-check';

/**
 * Amounts across the whole range the ledger takes (18 integer digits, 4 decimals), each with its value in minor
 * units of 10^-4 as a BigInt: the oracle the tests compare decimal arithmetic against.
 */
export interface Amount {
  text: string;
  units: bigint;
}

export const UNITS_PER_ONE = 10_000n;
const LARGEST = 10n ** 22n - 1n;

/** An amount's text as the database holds it, with exactly 4 decimals. */
export function textOf(units: bigint): string {
  const magnitude = units < 0n ? -units : units;
  const fraction = (magnitude % UNITS_PER_ONE).toString().padStart(4, '0');
  return `${units < 0n ? '-' : ''}${magnitude / UNITS_PER_ONE}.${fraction}`;
}

const amountOf = (units: bigint): Amount => ({ text: textOf(units), units });

/** A positive amount, as a payment or a deposit carries it. */
export const positiveAmount = fc.bigInt({ min: 1n, max: LARGEST }).map(amountOf);

/** A signed amount, as a journal row or an account holds it. */
export const signedAmount = fc.bigInt({ min: -LARGEST, max: LARGEST }).map(amountOf);

export const sumOf = (amounts: Amount[]) => amounts.reduce((total, amount) => total + amount.units, 0n);
