import { defineSignal, setHandler } from '@temporalio/workflow';
import { quoting, QuoteResource } from '../../activities/shared/contracts/conversations';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RelayedCallback, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { followUps, records } from './hubProxies';
import { Conversation } from './conversation';
import { answerWindow, bestEffort, errorOf } from './failures';
import type { Expiration } from '../../activities/shared/contracts/expiry';

/** The payee FSP's quote (PUT /{resource}/{ID}, passed on unread) or its PUT …/error. */
export type QuoteResponse = { kind: 'quote'; callback: RelayedCallback } | { kind: 'error'; callback: ReceivedCallback<ErrorCallbackBody> };

/** The payee FSP's PUT /{resource}/{ID} or PUT …/error, to the quote or bulk quote it answers. */
export const quoteResponseSignal = defineSignal<[QuoteResponse]>('quoteResponse');
/** A POST repeating a quote's or bulk quote's ID while it is in progress. */
export const repeatedQuoteSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');

type QuoteState = 'ACCEPTED' | 'REJECTED' | 'EXPIRED';

export interface QuoteOutcome {
  state: QuoteState | 'REPEATED';
  errorInformation?: ErrorInformation;
}

export interface QuoteConversation {
  resource: QuoteResource;
  /** The quoteId or bulkQuoteId. */
  id: string;
  request: ReceivedRequest<{ expiration?: Expiration }>;
  /** The payee FSP the request names; undefined when it names none, which registration refuses. */
  payeeFsp: string | undefined;
}

/**
 * A quote or bulk quote through the switch (Document 2, /quotes and /bulkQuotes; Mojaloop's quoting service in
 * pass-through mode): check the payee FSP, forward the request to it, and pass its answer (or error) back to the
 * payer; if the expiration passes first, the payer gets error 3302. The answer is recorded, so a repeated request
 * or a GET gets it again after the workflow ended.
 */
export async function quoteThroughSwitch(conversation: QuoteConversation): Promise<QuoteOutcome> {
  const { resource, id, request, payeeFsp } = conversation;
  const { noun } = quoting[resource];
  const { version, requestHash } = request;
  const payerFsp = request.headers['fspiop-source'];
  const talk = new Conversation({ resource, id, noun, request, repeatSignal: repeatedQuoteSignal });
  let response: QuoteResponse | undefined;

  setHandler(quoteResponseSignal, async (answer) => {
    // Only the payee FSP may answer: anyone else's condition must never reach the payer.
    const from = answer.callback.headers['fspiop-source'];
    if (from !== payeeFsp) return talk.refuseStranger(from, `only the payee ${payeeFsp} may answer ${noun} ${id}`);
    response ??= answer;
  });

  /** Ends the quote; `stored` is what a repeated request or a GET resends: the headers (none for the hub's own error) and body text. */
  const finish = async (
    state: QuoteState,
    answer: () => Promise<void>,
    stored: { headers?: Record<string, string>; body: string },
    error?: ErrorInformation,
  ) => {
    await talk.finish(state, answer, () => records.completeQuote({ resource, id, state, ...stored }));
    await talk.close();
    return { state, errorInformation: error };
  };
  const refuse = (state: QuoteState, error: ErrorInformation) =>
    finish(state, () => talk.hubError(payerFsp, error), { body: JSON.stringify({ errorInformation: error }) }, error);

  let payee: string;
  try {
    const registered = await records.registerQuote({ resource, id, payerFsp, payeeFsp, requestHash });
    payee = registered.payeeFsp;
    if (registered.repeat) {
      // Answered by an earlier workflow whose history has expired: resend from the record, change nothing.
      await bestEffort(followUps.repeatedQuote({ resource, id, requestHash, requester: payerFsp, version }), 'repeat');
      return { state: 'REPEATED' };
    }
  } catch (error) {
    return refuse('REJECTED', errorOf(error));
  }

  const { expiration } = request.body;
  const waited = await talk.forwardUntilAnswered(payee, () => response !== undefined, answerWindow(expiration));
  if (waited.kind === 'expired') return refuse('EXPIRED', errorInformation('quoteExpired', `${noun} ${id} was not answered by ${payee} in time`));
  if (waited.kind === 'unreachable') return refuse('REJECTED', waited.error);
  const { kind, callback } = response!;
  const stored = { headers: callback.headers, body: callback.rawBody };
  return kind === 'quote'
    ? finish('ACCEPTED', () => talk.relay(payerFsp, 'answer', callback), stored)
    : finish('REJECTED', () => talk.relay(payerFsp, 'error', callback), stored, callback.body.errorInformation);
}
