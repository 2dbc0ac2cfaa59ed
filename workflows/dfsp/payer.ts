import type { QuotesIDPutResponse, QuotesPostRequest, TransfersIDPutResponse, TransfersPostRequest } from '../../api/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../api/contracts/errors';
import type { PeerMessage } from '../../api/contracts/peers';
import { exchangeAsChild } from '../participant/exchange';

/** How a payer's request ended: the answer, or the error that stands for it (its own, the switch's, or a timeout). */
export type Answered<T> = { ok: true; body: T } | { ok: false; errorInformation: ErrorInformation };

const failedWith = (errorInformationOf: ErrorInformation): Answered<never> => ({ ok: false, errorInformation: errorInformationOf });

function answerOf<T>(message: PeerMessage): Answered<T> {
  if (message.name === 'error') return failedWith((message.body as { errorInformation: ErrorInformation }).errorInformation);
  return { ok: true, body: message.body as T };
}

/**
 * The payer's quote (Document 2, "Quotes"): POST /quotes to the payee FSP through the switch, and its PUT /quotes/{ID}
 * or error. A quote not answered in `waitMs` failed with 3302, as the switch reports an expired quote.
 */
export async function requestQuote(payeeFsp: string, quote: QuotesPostRequest, waitMs: number): Promise<Answered<QuotesIDPutResponse>> {
  const outcome = await exchangeAsChild({ request: { to: payeeFsp, resource: 'quotes', name: 'request', body: quote }, answerId: quote.quoteId, waitMs });
  if (outcome.kind === 'answered') return answerOf(outcome.message);
  if (outcome.kind === 'refused') return failedWith(outcome.errorInformation);
  return failedWith(errorInformation('quoteExpired', `no answer to quote ${quote.quoteId} in time`));
}

/**
 * The payer's transfer (Document 2, "Transfers"): POST /transfers through the switch, which reserves the funds and
 * asks the payee, then PUT /transfers/{ID} with its final state, or an error. The switch decides a transfer, not the
 * payer: when no answer comes in time the payer asks with GET /transfers/{ID} until the switch says how it ended,
 * never guessing, so money the switch moved is never reported as not moved.
 */
export async function transferFunds(
  payeeFsp: string,
  transfer: TransfersPostRequest,
  waitMs: number,
  askEveryMs = 30_000,
): Promise<Answered<TransfersIDPutResponse>> {
  const id = transfer.transferId;
  let outcome = await exchangeAsChild({ request: { to: payeeFsp, resource: 'transfers', name: 'request', body: transfer }, answerId: id, waitMs });
  for (;;) {
    if (outcome.kind === 'refused') return failedWith(outcome.errorInformation);
    if (outcome.kind === 'answered') {
      const answer = answerOf<TransfersIDPutResponse>(outcome.message);
      // A RESERVED answer is not an outcome yet; the payer asks again.
      if (!answer.ok || answer.body.transferState !== 'RESERVED') return answer;
    }
    outcome = await exchangeAsChild({ request: { resource: 'transfers', name: 'get', id }, answerId: id, waitMs: askEveryMs });
  }
}
