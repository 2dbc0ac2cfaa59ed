import type { QuotesPostRequest } from '../../activities/shared/contracts/bodies';
import type { ReceivedRequest } from '../../activities/shared/contracts/messages';
import { QuoteOutcome, quoteThroughSwitch } from '../kit/quoteConversation';

export type QuoteInput = ReceivedRequest<QuotesPostRequest>;

/** The payee FSP a quote is for: its FSPIOP-Destination, else the FSP of the payee party. */
export function payeeOfQuote(body: QuotesPostRequest, destination: string | undefined): string | undefined {
  return destination ?? body.payee.partyIdInfo.fspId;
}

/**
 * A quote through the switch (Document 2, /quotes): forwarded to the payee FSP, its answer or error routed back
 * to the payer, error 3302 if its expiration passes first. Signals: `quoteResponseSignal`, `repeatedQuoteSignal`.
 */
export function quote(input: QuoteInput): Promise<QuoteOutcome> {
  const payeeFsp = payeeOfQuote(input.body, input.headers['fspiop-destination']);
  return quoteThroughSwitch({ resource: 'quotes', id: input.body.quoteId, request: input, payeeFsp });
}
