import crypto from 'node:crypto';
import type {
  BulkQuotesIDPutResponse,
  BulkQuotesPostRequest,
  BulkTransfersPostRequest,
  IndividualTransfer,
  QuotesPostRequest,
  TransactionRequestsPostRequest,
  TransfersPostRequest,
} from '../../activities/shared/contracts/bodies';
import { type Expiration, expirationAt } from '../../activities/shared/contracts/expiry';

export type Currency = TransfersPostRequest['amount']['currency'];

/** A fulfilment and the condition it satisfies: base64url(sha256(fulfilment)). */
export function ilpPair(): { fulfilment: string; condition: string } {
  const preimage = crypto.randomBytes(32);
  return { fulfilment: preimage.toString('base64url'), condition: crypto.createHash('sha256').update(preimage).digest('base64url') };
}

export function transferBody(
  payerFsp: string,
  payeeFsp: string,
  amount: string,
  options: { condition?: string; expiresInMs?: number; currency?: Currency; transferId?: string } = {},
): TransfersPostRequest {
  return {
    transferId: options.transferId ?? crypto.randomUUID(),
    payerFsp,
    payeeFsp,
    amount: { amount, currency: options.currency ?? 'USD' },
    ilpPacket: Buffer.from(`ilp packet for ${amount}`).toString('base64url'),
    condition: options.condition ?? ilpPair().condition,
    expiration: expirationAt(Date.now() + (options.expiresInMs ?? 30_000)),
  };
}

/** A party known by its MSISDN at `fspId`. */
function party(msisdn: string, fspId: string) {
  return { partyIdInfo: { partyIdType: 'MSISDN' as const, partyIdentifier: msisdn, fspId } };
}

const p2p = { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' } as const;

function expiring(expiresInMs: number | undefined): { expiration?: Expiration } {
  return expiresInMs === undefined ? {} : { expiration: expirationAt(Date.now() + expiresInMs) };
}

/** One item of a bulk transfer, with the fulfilment that satisfies its condition. */
export interface BulkItem {
  transfer: IndividualTransfer;
  fulfilment: string;
}

/** An individual transfer of `amount` and the fulfilment of its condition. */
export function bulkItem(amount: string, currency: Currency = 'USD'): BulkItem {
  const { fulfilment, condition } = ilpPair();
  const transferId = crypto.randomUUID();
  return {
    transfer: { transferId, transferAmount: { amount, currency }, ilpPacket: Buffer.from(`ilp packet of ${transferId}`).toString('base64url'), condition },
    fulfilment,
  };
}

export function bulkTransferBody(
  payerFsp: string,
  payeeFsp: string,
  items: BulkItem[],
  options: { expiresInMs?: number; bulkTransferId?: string } = {},
): BulkTransfersPostRequest {
  return {
    bulkTransferId: options.bulkTransferId ?? crypto.randomUUID(),
    bulkQuoteId: crypto.randomUUID(),
    payerFsp,
    payeeFsp,
    individualTransfers: items.map((item) => item.transfer),
    expiration: expirationAt(Date.now() + (options.expiresInMs ?? 30_000)),
  };
}

export function quoteBody(payerFsp: string, payeeFsp: string, amount: string, options: { expiresInMs?: number; quoteId?: string } = {}): QuotesPostRequest {
  return {
    quoteId: options.quoteId ?? crypto.randomUUID(),
    transactionId: crypto.randomUUID(),
    payee: party('27713803912', payeeFsp),
    payer: party('27713803911', payerFsp),
    amountType: 'SEND',
    amount: { amount, currency: 'USD' },
    transactionType: p2p,
    ...expiring(options.expiresInMs),
  };
}

/**
 * A bulk quote of `count` individual quotes (the i-th sends i+1 USD to its own MSISDN) from `payerFsp` to
 * parties of `payeeFsp`, or to the FSP `payeeFspOf` names for each.
 */
export function bulkQuoteBody(
  payerFsp: string,
  payeeFsp: string,
  count: number,
  options: { expiresInMs?: number; payeeFspOf?: (index: number) => string } = {},
): BulkQuotesPostRequest {
  return {
    bulkQuoteId: crypto.randomUUID(),
    payer: party('27713803911', payerFsp),
    individualQuotes: Array.from({ length: count }, (_, index) => ({
      quoteId: crypto.randomUUID(),
      transactionId: crypto.randomUUID(),
      payee: party(String(27713900000 + index), options.payeeFspOf?.(index) ?? payeeFsp),
      amountType: 'SEND' as const,
      amount: { amount: String(index + 1), currency: 'USD' as const },
      transactionType: p2p,
    })),
    ...expiring(options.expiresInMs),
  };
}

/**
 * The payee FSP's answer to a bulk quote: a result for each individual quote, each with an ILP packet of the size
 * an SDK scheme adapter makes (its transaction object inside) and a condition.
 */
export function bulkQuoteAnswer(request: BulkQuotesPostRequest): BulkQuotesIDPutResponse {
  return {
    expiration: expirationAt(Date.now() + 60_000),
    individualQuoteResults: request.individualQuotes.map((individual) => ({
      quoteId: individual.quoteId,
      payee: individual.payee,
      transferAmount: individual.amount,
      payeeReceiveAmount: individual.amount,
      ilpPacket: crypto.randomBytes(600).toString('base64url'),
      condition: ilpPair().condition,
    })),
  };
}

/**
 * A merchant's request to pay, as Mojaloop's SDK builds it: the payee FSP asks the payer FSP, and the body names the
 * parties swapped (`payer` is the merchant at the requesting FSP), which the switch must not mind.
 */
export function transactionRequestBody(
  payeeFsp: string,
  payerFsp: string,
  amount: string,
  options: { expiresInMs?: number; transactionRequestId?: string } = {},
): TransactionRequestsPostRequest {
  return {
    transactionRequestId: options.transactionRequestId ?? crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803911', fspId: payerFsp } },
    payer: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: payeeFsp },
    amount: { amount, currency: 'USD' },
    transactionType: { scenario: 'PAYMENT', initiator: 'PAYEE', initiatorType: 'BUSINESS' },
    ...(options.expiresInMs === undefined ? {} : { expiration: expirationAt(Date.now() + options.expiresInMs) }),
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID as current Mojaloop DFSPs generate it: 26 upper-case Crockford base-32 characters, time first. */
export function ulid(): string {
  const time = Date.now().toString(32).toUpperCase().padStart(10, '0');
  const timePart = [...time].map((digit) => CROCKFORD[parseInt(digit, 32)]).join('');
  return timePart + [...crypto.randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
}
