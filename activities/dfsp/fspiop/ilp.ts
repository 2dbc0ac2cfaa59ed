import crypto from 'node:crypto';
import canonicalize from 'canonicalize';
import { Decimal } from '../../shared/contracts/money';
import { deserializeIlpPrepare, serializeIlpPrepare } from 'ilp-packet';
import type { QuotesIDPutResponse, QuotesPostRequest } from '../../shared/contracts/bodies';
import { instantOf, parseExpiration } from '../../shared/contracts/expiry';

/**
 * The Interledger side of a payee's quote (Document 2, transfer rule 6), as Mojaloop's SDK makes it with ILP v4
 * (sdk-standard-components IlpV4): the transaction the parties agreed on travels, as base64url JSON, in the data
 * of an ILP Prepare packet; the fulfilment is an HMAC-SHA256 of that transaction under a secret only the payee
 * keeps, and the condition is the SHA-256 of the fulfilment. The payee stores nothing between quote and transfer:
 * it re-derives the fulfilment from the packet the transfer carries, and only a packet it issued hashes to the
 * condition the payer agreed to.
 */

/**
 * The transaction as the SDK writes it, both to hash and into the packet: safe-stable-stringify, keys sorted, no
 * whitespace. For JSON values (strings, finite numbers, booleans, null, arrays, objects) RFC 8785's canonical form, as
 * `canonicalize` writes it, is the same text: keys sorted by UTF-16 code units, `undefined` members left out,
 * strings and numbers as JSON.stringify writes them. Insertion order would hash differently from the SDK, and a
 * scheme adapter sharing ILP_SECRET could not fulfil our quotes, nor we its.
 */
function stableJson(transaction: TransactionObject): string {
  return canonicalize(transaction)!;
}

/** The transaction object inside the packet: the SDK's transactionObjectDto (quote request and answer). */
export interface TransactionObject {
  quoteId: string;
  transactionId: string;
  transactionType: QuotesPostRequest['transactionType'];
  payee: QuotesPostRequest['payee'];
  payer: QuotesPostRequest['payer'];
  expiration?: string;
  amount: QuotesIDPutResponse['transferAmount'];
  note?: string;
}

/** The ILP address Mojaloop puts in every packet: it routes by party identifiers, not ILP addresses. */
const ILP_ADDRESS = 'g.mojaloop';

/** ISO 4217 minor units of the currencies that have other than two; the amount in an ILP packet is in these units. */
const MINOR_UNITS: Record<string, number> = {
  ...Object.fromEntries(
    ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((c) => [c, 0]),
  ),
  ...Object.fromEntries(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** An amount that cannot be an ILP amount (more decimal places than its currency has). */
export class IlpAmountError extends Error {}

export function transactionObjectOf(
  request: QuotesPostRequest,
  answer: Pick<QuotesIDPutResponse, 'transferAmount' | 'expiration'> & { note?: string },
): TransactionObject {
  return {
    quoteId: request.quoteId,
    transactionId: request.transactionId,
    transactionType: request.transactionType,
    payee: request.payee,
    payer: request.payer,
    expiration: answer.expiration,
    amount: answer.transferAmount,
    ...(answer.note ? { note: answer.note } : {}),
  };
}

/** The ILP amount: the Money in its currency's minor units, an unsigned integer. */
function ilpAmount({ amount, currency }: TransactionObject['amount']): string {
  const scaled = new Decimal(amount).times(new Decimal(10).pow(MINOR_UNITS[currency] ?? 2));
  if (!scaled.isInteger()) throw new IlpAmountError(`amount ${amount} has more decimal places than ${currency} has`);
  return scaled.toFixed();
}

/** HMAC-SHA256 as IlpV4 computes it (IlpBase._createHmac): over the base64 of the sorted JSON, keyed by the base64 of the secret. */
export function fulfilmentOf(transaction: TransactionObject, secret: string): string {
  const data = Buffer.from(stableJson(transaction)).toString('base64');
  const key = Buffer.from(secret).toString('base64');
  return crypto.createHmac('sha256', Buffer.from(key, 'ascii')).update(Buffer.from(data, 'ascii')).digest('base64url');
}

/** base64url(SHA-256(fulfilment)): the condition a fulfilment satisfies. */
export function conditionOf(fulfilment: string): string {
  return crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url');
}

/** The packet, condition and fulfilment of a transaction (IlpV4.getResponseIlp). */
export function ilpFor(transaction: TransactionObject, secret: string): { ilpPacket: string; condition: string; fulfilment: string } {
  const fulfilment = fulfilmentOf(transaction, secret);
  const condition = conditionOf(fulfilment);
  const expiration = transaction.expiration === undefined ? undefined : parseExpiration(transaction.expiration);
  if (!expiration) throw new IlpAmountError('the quote has no valid expiration');
  const expiresAt = new Date(instantOf(expiration));
  const packet = serializeIlpPrepare({
    amount: ilpAmount(transaction.amount),
    destination: ILP_ADDRESS,
    expiresAt,
    executionCondition: Buffer.from(condition, 'base64url'),
    data: Buffer.from(Buffer.from(stableJson(transaction)).toString('base64url')),
  });
  return { ilpPacket: packet.toString('base64url'), condition, fulfilment };
}

/** The transaction object a packet carries, or undefined when it is no ILP v4 Prepare holding one. */
export function transactionIn(ilpPacket: string): TransactionObject | undefined {
  try {
    const { data } = deserializeIlpPrepare(Buffer.from(ilpPacket, 'base64'));
    return JSON.parse(Buffer.from(data.toString('utf-8'), 'base64url').toString('utf-8')) as TransactionObject;
  } catch {
    return undefined;
  }
}
