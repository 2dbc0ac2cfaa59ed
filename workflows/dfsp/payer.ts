import { sleep } from '@temporalio/workflow';
import type { QuotesIDPutResponse, QuotesPostRequest, TransfersIDPutResponse, TransfersPostRequest } from '../../api/contracts/bodies';
import { errorInformation } from '../../api/contracts/errors';
import { errorInformationOf } from '../../api/contracts/peers';
import { exchangeAsChild, ExchangeOutcome } from '../participant/exchange';
import { Answered, answeredOf, failedWith } from './answers';

export type { Answered } from './answers';

/**
 * The payer's quote (Document 2, "Quotes"): POST /quotes to the payee FSP through the switch, and its PUT /quotes/{ID}
 * or error. A quote not answered in `waitMs` failed with 3302, as the switch reports an expired quote.
 */
export async function requestQuote(payeeFsp: string, quote: QuotesPostRequest, waitMs: number): Promise<Answered<QuotesIDPutResponse>> {
  const outcome = await exchangeAsChild({ request: { to: payeeFsp, resource: 'quotes', name: 'request', body: quote }, answerId: quote.quoteId, waitMs });
  return answeredOf(outcome, errorInformation('quoteExpired', `no answer to quote ${quote.quoteId} in time`));
}

/** The states of a transfer that are its end (Document 2, "Transfer states"); RECEIVED and RESERVED are not. */
const FINAL_STATES: ReadonlyArray<TransfersIDPutResponse['transferState']> = ['COMMITTED', 'ABORTED'];

/** How often the payer asks after a transfer whose outcome it does not know: from `askEveryMs`, doubling up to this. */
export const MAX_ASK_EVERY_MS = 10 * 60_000;

/**
 * The payer's transfer (Document 2, "Transfers"): POST /transfers through the switch, which reserves the funds and
 * asks the payee, then PUT /transfers/{ID} with its final state, or an error. The switch decides a transfer, not the
 * payer: until it says how the transfer ended (COMMITTED or ABORTED, or an error callback about the transfer) the
 * payer asks with GET /transfers/{ID}, never guessing, so money the switch moved is never reported as not moved. A
 * GET the switch refuses (4xx) or leaves unanswered says nothing about the transfer: the payer asks again.
 *
 * The asking is bounded in rate, not in time (only the switch can end it): it backs off from `askEveryMs`, doubling,
 * to one ask every MAX_ASK_EVERY_MS. Each ask is a child workflow, a handful of events in the caller's history, so a
 * switch silent for a week adds some 1,000 asks, well inside a history's limits; a helper cannot continue-as-new for
 * its caller.
 */
export async function transferFunds(
  payeeFsp: string,
  transfer: TransfersPostRequest,
  waitMs: number,
  askEveryMs = 30_000,
): Promise<Answered<TransfersIDPutResponse>> {
  const id = transfer.transferId;
  const prepared = await exchangeAsChild({ request: { to: payeeFsp, resource: 'transfers', name: 'request', body: transfer }, answerId: id, waitMs });
  // The switch refusing the POST itself is the transfer never made.
  if (prepared.kind === 'refused') return failedWith(prepared.errorInformation);
  let outcome: ExchangeOutcome = prepared;
  for (let interval = askEveryMs; ; interval = Math.min(2 * interval, MAX_ASK_EVERY_MS)) {
    if (outcome.kind === 'answered') {
      const { message } = outcome;
      if (message.name === 'error') return failedWith(errorInformationOf(message));
      const answer = message.body as TransfersIDPutResponse;
      if (FINAL_STATES.includes(answer.transferState)) return { ok: true, body: answer };
    }
    // A refused GET came back at once: wait before asking again, as an unanswered one did.
    if (outcome.kind === 'refused') await sleep(interval);
    outcome = await exchangeAsChild({ request: { resource: 'transfers', name: 'get', id }, answerId: id, waitMs: interval });
  }
}
