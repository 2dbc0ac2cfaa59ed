/**
 * Amounts as the ledger's checks count them: BigInt minor units of 10^-4, not the decimal arithmetic the ledger itself
 * uses, so a rounding there cannot hide behind the same rounding here.
 */
const UNITS_PER_ONE = 10_000n;

/** An amount's text ("-12.5", "100.0000") in minor units of 10^-4, or undefined if it is no such amount. */
export function minorUnits(text: string): bigint | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text);
  if (!parts) return undefined;
  const [, sign, integer, fraction = ''] = parts;
  const units = BigInt(integer) * UNITS_PER_ONE + BigInt(fraction.padEnd(4, '0'));
  return sign ? -units : units;
}

/** Minor units as the database writes the amount, with 4 places. */
export function textOf(units: bigint): string {
  const magnitude = units < 0n ? -units : units;
  return `${units < 0n ? '-' : ''}${magnitude / UNITS_PER_ONE}.${(magnitude % UNITS_PER_ONE).toString().padStart(4, '0')}`;
}

/** Adds `units` to an account's sum in `sums`. */
export function addTo(sums: Map<number, bigint>, accountId: number, units: bigint): void {
  sums.set(accountId, (sums.get(accountId) ?? 0n) + units);
}
