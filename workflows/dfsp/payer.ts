import { patched, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { FspiopActivities } from '../../activities/dfsp/fspiop/fspiopActivities';
import type { QuotesIDPutResponse, QuotesPostRequest, TransfersIDPutResponse, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import { type ErrorInformation, errorInformation } from '../../activities/shared/contracts/errors';
import { errorInformationOf, type PeerMessage } from '../../activities/shared/contracts/peers';
import { exchangeAsChild, ExchangeOutcome } from '../participant/exchange';
import { Answered, answeredOf, failedWith } from './exchangeAnswers';

export type { Answered } from './exchangeAnswers';

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

/** The ILP check of a fulfilment, which needs node's crypto: a local activity, recorded once in the history. */
const ilp = proxyLocalActivities<FspiopActivities>({ startToCloseTimeout: '5 seconds' });

/**
 * The payer's transfer (Document 2, "Transfers"): POST /transfers through the switch, which reserves the funds and
 * asks the payee, then PUT /transfers/{ID} with its final state, or an error. The switch decides a transfer, not the
 * payer: until it says how the transfer ended the payer asks with GET /transfers/{ID}, never guessing, so money the
 * switch moved is never reported as not moved. A GET the switch refuses (4xx) or leaves unanswered says nothing
 * about the transfer: the payer asks again.
 *
 * What ends it is the switch's own word (endedBy): the payee's messages reach the payer with the payee's name
 * whether the switch relays them or the payee sends them straight to the payer's connector, so an error or ABORTED
 * in the payee's name is checked with the switch, and its error kept as the reason if the switch aborted.
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
  // Before the patch, any error or final state ended the transfer, whoever sent it and whatever its fulfilment.
  const switchDecides = patched('payer-believes-the-switch');
  let outcome: ExchangeOutcome = prepared;
  let payeeSaid: ErrorInformation | undefined;
  for (let interval = askEveryMs; ; interval = Math.min(2 * interval, MAX_ASK_EVERY_MS)) {
    if (outcome.kind === 'answered') {
      const { message } = outcome;
      if (switchDecides) {
        const ended = await endedBy(message, transfer.condition);
        if (ended) return ended.ok && ended.body.transferState === 'ABORTED' && payeeSaid ? failedWith(payeeSaid) : ended;
        if (message.name === 'error') payeeSaid = errorInformationOf(message);
      } else {
        if (message.name === 'error') return failedWith(errorInformationOf(message));
        const answer = message.body as TransfersIDPutResponse;
        if (FINAL_STATES.includes(answer.transferState)) return { ok: true, body: answer };
      }
    }
    // A refused GET came back at once, as does the switch's word that the transfer is not final yet: wait before
    // asking again, as an unanswered one did. A payee's word unconfirmed is asked about at once.
    if (outcome.kind === 'refused' || (switchDecides && outcome.kind === 'answered' && outcome.message.fromSwitch)) await sleep(interval);
    outcome = await exchangeAsChild({ request: { resource: 'transfers', name: 'get', id }, answerId: id, from: [], waitMs: interval });
  }
}

/**
 * The transfer's end, if a message ends it: the switch's error or ABORTED, or a COMMITTED with the fulfilment of
 * the transfer's condition (the switch checked it before it committed; one that does not match never came from it).
 * The payee's COMMITTED that the switch relays is taken as it comes, as Mojaloop's SDK takes it: its fulfilment is
 * ILP's proof the payee was paid, which the switch needed to commit. Where the connector cannot tell that the
 * switch's connection carried it (`viaSwitch: false`), the payee could have sent it without fulfilling at the switch,
 * so it is checked with the switch. Messages recorded before that field existed lack it and end it as they did, so
 * the histories that hold them replay unchanged without a patch.
 */
async function endedBy(message: PeerMessage, condition: string): Promise<Answered<TransfersIDPutResponse> | undefined> {
  if (message.name === 'error') return message.fromSwitch ? failedWith(errorInformationOf(message)) : undefined;
  const answer = message.body as TransfersIDPutResponse;
  // The switch's own COMMITTED (its answer to GET) ends the transfer even without a fulfilment, which is its to give.
  if (answer.transferState === 'COMMITTED' && message.fromSwitch && !answer.fulfilment && patched('payer-takes-the-switchs-commit'))
    return { ok: true, body: answer };
  if (answer.transferState === 'COMMITTED') {
    const carriedBySwitch = message.fromSwitch || message.viaSwitch !== false;
    return carriedBySwitch && answer.fulfilment && (await ilp.fulfilsCondition(answer.fulfilment, condition)) ? { ok: true, body: answer } : undefined;
  }
  return answer.transferState === 'ABORTED' && message.fromSwitch ? { ok: true, body: answer } : undefined;
}
