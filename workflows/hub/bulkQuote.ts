import type { BulkQuotesPostRequest } from '../../activities/shared/contracts/bodies';
import type { ReceivedRequest } from '../../activities/shared/contracts/messages';
import { QuoteOutcome, quoteThroughSwitch } from '../kit/quoteConversation';

export type BulkQuoteInput = ReceivedRequest<BulkQuotesPostRequest>;

/**
 * The payee FSP of a bulk quote. Its body names none (the payer splits a bulk by payee FSP, Document 2), so it
 * is the FSPIOP-Destination; without one, the FSP every individual quote's payee names, if they all name the same.
 */
export function payeeOfBulkQuote(body: BulkQuotesPostRequest, destination: string | undefined): string | undefined {
  if (destination) return destination;
  const named = new Set(body.individualQuotes.map((individual) => individual.payee.partyIdInfo.fspId));
  return named.size === 1 ? [...named][0] : undefined;
}

/**
 * A bulk quote through the switch (Document 2, /bulkQuotes): forwarded to the payee FSP byte for byte, its answer
 * or error routed back to the payer, error 3302 if its expiration passes first. Signals: `quoteResponseSignal`,
 * `repeatedQuoteSignal`.
 */
export function bulkQuote(input: BulkQuoteInput): Promise<QuoteOutcome> {
  const payeeFsp = payeeOfBulkQuote(input.body, input.headers['fspiop-destination']);
  return quoteThroughSwitch({ resource: 'bulkQuotes', id: input.body.bulkQuoteId, request: input, payeeFsp });
}
