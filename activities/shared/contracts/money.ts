import DecimalJs from 'decimal.js';

/**
 * The one Decimal that does arithmetic on money, for the hub, the connectors and the workflows alike. decimal.js
 * rounds every result to 20 significant digits by default, fewer than an amount of 18 integer digits and 4 decimals
 * holds, let alone the DECIMAL(38,4) balances they add up to; 80 digits keep even the product of two such balances
 * exact. Texts never switch to exponent notation, which no FSPIOP Amount allows.
 */
export const Decimal = DecimalJs.clone({ precision: 80, toExpNeg: -9e15, toExpPos: 9e15 });
export type Decimal = DecimalJs;
export type DecimalValue = DecimalJs.Value;
