import { defineSignal, setHandler } from '@temporalio/workflow';
import type { QuotesIDPutResponse, QuotesPostRequest } from '../../api/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../api/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../api/contracts/messages';
import { followUps, records } from '../kit/activities';
import { Conversation } from '../kit/conversation';
import { bestEffort, errorOf, msUntil } from '../kit/failures';

/** How long a quote without an expiration waits for the payee before the payer is told it timed out. */
export const QUOTE_DEFAULT_WAIT_MS = 60_000;

export type QuoteInput = ReceivedRequest<QuotesPostRequest>;

export type QuoteResponse =
  { kind: 'quote'; callback: ReceivedCallback<QuotesIDPutResponse> } | { kind: 'error'; callback: ReceivedCallback<ErrorCallbackBody> };

/** The payee FSP's PUT /quotes/{ID} or PUT /quotes/{ID}/error. */
export const quoteResponseSignal = defineSignal<[QuoteResponse]>('quoteResponse');
/** A POST /quotes repeating this quote's ID while it is in progress. */
export const repeatedQuoteSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');

type QuoteState = 'ACCEPTED' | 'REJECTED' | 'EXPIRED';

/**
 * A quote through the switch (Document 2, /quotes; Mojaloop's quoting service in pass-through mode):
 * check the payee FSP, forward the request to it, and route its answer (or error) back to the payer;
 * if the quote's expiration passes first, the payer gets error 3302.
 */
export async function quote(input: QuoteInput): Promise<{ state: string; errorInformation?: ErrorInformation }> {
  const { body, version, headers } = input;
  const { quoteId } = body;
  const payerFsp = headers['fspiop-source'];
  const talk = new Conversation({ resource: 'quotes', id: quoteId, noun: 'quote', request: input, repeatSignal: repeatedQuoteSignal });
  let response: QuoteResponse | undefined;
  /** Known once the quote is registered; until then answers wait in `response` to be checked. */
  let payeeFsp: string | undefined;

  const fromStranger = (answer: QuoteResponse) => payeeFsp !== undefined && answer.callback.headers['fspiop-source'] !== payeeFsp;
  const refuseStranger = (answer: QuoteResponse) =>
    talk.refuseStranger(answer.callback.headers['fspiop-source'], `only the payee ${payeeFsp} may answer quote ${quoteId}`);
  setHandler(quoteResponseSignal, async (answer) => {
    // Only the payee FSP may answer: anyone else's condition must never reach the payer.
    if (fromStranger(answer)) return refuseStranger(answer);
    response ??= answer;
  });

  const finish = async (state: QuoteState, answer: () => Promise<void>, stored?: ReceivedCallback<unknown>, error?: ErrorInformation) => {
    // The hub's own error is stored too, so a repeated request gets the same answer.
    const record = () => records.completeQuote({ quoteId, state, headers: stored?.headers, body: stored ? stored.body : error && { errorInformation: error } });
    await talk.finish(state, answer, record);
    await talk.close();
    return { state, errorInformation: error };
  };
  const refuse = (state: QuoteState, error: ErrorInformation) => finish(state, () => talk.hubError(payerFsp, error), undefined, error);

  try {
    const registered = await records.registerQuote({ body, payerFsp, payeeFsp: headers['fspiop-destination'], requestHash: input.requestHash });
    payeeFsp = registered.payeeFsp;
    if (registered.repeat) {
      // Answered by an earlier workflow whose history has expired: resend from the record, change nothing.
      await bestEffort(followUps.repeatedQuote({ quoteId, requestHash: input.requestHash, requester: payerFsp, version }), 'repeat');
      return { state: 'REPEATED' };
    }
  } catch (error) {
    return refuse('REJECTED', errorOf(error));
  }
  if (response && fromStranger(response)) {
    await refuseStranger(response);
    response = undefined;
  }

  const waited = await talk.forwardUntilAnswered(payeeFsp, () => response !== undefined, body.expiration ? msUntil(body.expiration) : QUOTE_DEFAULT_WAIT_MS);
  if (waited.kind === 'expired') return refuse('EXPIRED', errorInformation('quoteExpired', `quote ${quoteId} was not answered by ${payeeFsp} in time`));
  if (waited.kind === 'unreachable') return refuse('REJECTED', waited.error);
  const { callback } = response!;
  return response!.kind === 'quote'
    ? finish('ACCEPTED', () => talk.relay(payerFsp, 'answer', callback), callback)
    : finish('REJECTED', () => talk.relay(payerFsp, 'error', callback), callback, (callback.body as ErrorCallbackBody).errorInformation);
}
