import type { PayeeOutcome } from '../../activities/dfsp/fspiop/fspiopActivities';
import type { QuotesIDPutResponse, QuotesPostRequest } from '../../activities/shared/contracts/bodies';
import { instantOf } from '../../activities/shared/contracts/expiry';
import { Inbox, kindsOn } from '../participant/inbox';
import { answer, answerRepeat, orUnreachable, payee } from './payeeSteps';

/** How long a refused quote's workflow answers repeats of it. */
const REFUSAL_KEPT_MS = 60_000;

/**
 * POST /quotes at the payee (Document 2, "Quotes"): the bank's terms (backend POST /quoterequests), the ILP packet of
 * the agreed transaction and its condition, then PUT /quotes/{ID} to the payer, or PUT …/error. The payee keeps no
 * fulfilment: the transfer's packet gives it back (payeeTransfer). Until the quote expires, a repeated POST is
 * answered again, or refused 3106 if its terms differ.
 */
export async function payeeQuote(): Promise<void> {
  const inbox = new Inbox();
  const request = await inbox.next<QuotesPostRequest>(kindsOn('quotes', 'request'), REFUSAL_KEPT_MS);
  if (!request) return;
  const quote: PayeeOutcome<QuotesIDPutResponse> = await orUnreachable(payee.quoteAsPayee(request.body));
  await answer(request.source, 'quotes', request.body.quoteId, quote);

  const keptUntil = quote.ok ? instantOf(quote.body.expiration) : Date.now() + REFUSAL_KEPT_MS;
  for (;;) {
    const repeat = await inbox.next(kindsOn('quotes', 'request'), keptUntil - Date.now());
    if (!repeat) return;
    await answerRepeat(request, repeat, quote);
  }
}
