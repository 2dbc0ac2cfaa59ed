import crypto from 'node:crypto';
import type { BulkTransfersPostRequest, IndividualTransfer, QuotesPostRequest, TransfersPostRequest } from '../../api/contracts/bodies';

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

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID as current Mojaloop DFSPs generate it: 26 upper-case Crockford base-32 characters, time first. */
export function ulid(): string {
  const time = Date.now().toString(32).toUpperCase().padStart(10, '0');
  const timePart = [...time].map((digit) => CROCKFORD[parseInt(digit, 32)]).join('');
  return timePart + [...crypto.randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
}
