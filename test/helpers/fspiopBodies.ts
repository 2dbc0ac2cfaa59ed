import crypto from 'node:crypto';
import type { QuotesPostRequest, TransactionRequestsPostRequest, TransfersPostRequest } from '../../api/contracts/bodies';

type Currency = TransfersPostRequest['amount']['currency'];

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
    expiration: new Date(Date.now() + (options.expiresInMs ?? 30_000)).toISOString(),
  };
}

export function quoteBody(payerFsp: string, payeeFsp: string, amount: string, options: { expiresInMs?: number; quoteId?: string } = {}): QuotesPostRequest {
  return {
    quoteId: options.quoteId ?? crypto.randomUUID(),
    transactionId: crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: payeeFsp } },
    payer: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803911', fspId: payerFsp } },
    amountType: 'SEND',
    amount: { amount, currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    ...(options.expiresInMs === undefined ? {} : { expiration: new Date(Date.now() + options.expiresInMs).toISOString() }),
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
    ...(options.expiresInMs === undefined ? {} : { expiration: new Date(Date.now() + options.expiresInMs).toISOString() }),
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID as current Mojaloop DFSPs generate it: 26 upper-case Crockford base-32 characters, time first. */
export function ulid(): string {
  const time = Date.now().toString(32).toUpperCase().padStart(10, '0');
  const timePart = [...time].map((digit) => CROCKFORD[parseInt(digit, 32)]).join('');
  return timePart + [...crypto.randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
}
