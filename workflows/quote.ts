import {
  allHandlersFinished,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { HubActivities } from '../activities';
import { errorInformation, ErrorInformation } from './errors';
import type { QuotesIDPutResponse, QuotesPostRequest } from './fspiopTypes';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from './messages';
import { State } from './searchAttributes';
import { bestEffort, errorOf, msUntil } from './support';

// As in the transfer workflow: the database steps are local activities, the deliveries ordinary ones.
const { registerQuote, completeQuote } = proxyLocalActivities<HubActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

const { deliver, deliverFromHub } = proxyActivities<HubActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

const { repeatedQuote } = proxyActivities<HubActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/** How long a quote without an expiration waits for the payee before the payer is told it timed out. */
export const QUOTE_DEFAULT_WAIT_MS = 60_000;

export type QuoteInput = ReceivedRequest<QuotesPostRequest>;

export type QuoteResponse =
  { kind: 'quote'; callback: ReceivedCallback<QuotesIDPutResponse> } | { kind: 'error'; callback: ReceivedCallback<ErrorCallbackBody> };

/** The payee FSP's PUT /quotes/{ID} or PUT /quotes/{ID}/error. */
export const quoteResponseSignal = defineSignal<[QuoteResponse]>('quoteResponse');
/** A POST /quotes repeating this quote's ID while it is in progress. */
export const repeatedQuoteSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');

/**
 * A quote through the switch (Document 2, /quotes; Mojaloop's quoting service in pass-through mode):
 * check the payee FSP, forward the request to it, and route its answer (or error) back to the payer;
 * if the quote's expiration passes first, the payer gets error 3302.
 */
export async function quote(input: QuoteInput): Promise<{ state: string; errorInformation?: ErrorInformation }> {
  const { body, version, headers } = input;
  const { quoteId } = body;
  const payerFsp = headers['fspiop-source'];
  const params = { id: quoteId };
  let response: QuoteResponse | undefined;
  /** Known once the quote is registered; until then answers wait in `response` to be checked. */
  let payeeFsp: string | undefined;
  let finalCallback: (() => Promise<void>) | undefined;

  const hubError = (to: string, error: ErrorInformation) =>
    deliverFromHub({
      to,
      endpointType: 'FSPIOP_CALLBACK_URL_QUOTES',
      path: `/quotes/${quoteId}/error`,
      method: 'PUT',
      body: { errorInformation: error },
      params,
      resource: 'quotes',
      version,
    });

  const fromStranger = (answer: QuoteResponse) => payeeFsp !== undefined && answer.callback.headers['fspiop-source'] !== payeeFsp;
  const refuseStranger = (answer: QuoteResponse) =>
    bestEffort(
      hubError(answer.callback.headers['fspiop-source'], errorInformation('validationError', `only the payee ${payeeFsp} may answer quote ${quoteId}`)),
      'refusal to a stranger',
    );
  setHandler(quoteResponseSignal, async (answer) => {
    // Only the payee FSP may answer: anyone else's condition must never reach the payer.
    if (fromStranger(answer)) return refuseStranger(answer);
    response ??= answer;
  });
  setHandler(repeatedQuoteSignal, async (repeat) => {
    if (repeat.requestHash !== input.requestHash) {
      await bestEffort(
        hubError(repeat.headers['fspiop-source'], errorInformation('modifiedRequest', `quote ${quoteId} exists with different details`)),
        'duplicate error',
      );
    } else if (finalCallback) {
      await bestEffort(finalCallback(), 'resent answer');
    }
  });

  const finish = async (
    state: 'ACCEPTED' | 'REJECTED' | 'EXPIRED',
    callback: () => Promise<void>,
    stored?: ReceivedCallback<unknown>,
    error?: ErrorInformation,
  ) => {
    upsertSearchAttributes([{ key: State, value: state }]);
    // The hub's own error is stored too, so a repeated request gets the same answer.
    await completeQuote({ quoteId, state, headers: stored?.headers, body: stored ? stored.body : error && { errorInformation: error } });
    finalCallback = callback;
    await bestEffort(callback(), `answer to ${payerFsp}`);
    await condition(allHandlersFinished);
    return { state, errorInformation: error };
  };

  try {
    const registered = await registerQuote({ body, payerFsp, payeeFsp: headers['fspiop-destination'], requestHash: input.requestHash });
    payeeFsp = registered.payeeFsp;
    if (registered.repeat) {
      // Answered by an earlier workflow whose history has expired: resend from the record, change nothing.
      await bestEffort(repeatedQuote({ quoteId, requestHash: input.requestHash, requester: payerFsp, version }), 'repeat');
      return { state: 'REPEATED' };
    }
  } catch (error) {
    const rejection = errorOf(error);
    return finish('REJECTED', () => hubError(payerFsp, rejection), undefined, rejection);
  }
  if (response && fromStranger(response)) {
    await refuseStranger(response);
    response = undefined;
  }

  let forwardFailed: ErrorInformation | undefined;
  const forwardScope = new CancellationScope();
  const forwarding = forwardScope
    .run(() => deliver({ to: payeeFsp!, endpointType: 'FSPIOP_CALLBACK_URL_QUOTES', path: '/quotes', method: 'POST', headers, rawBody: input.rawBody }))
    .catch((error) => {
      if (!isCancellation(error)) forwardFailed = errorOf(error);
    });
  const wait = body.expiration ? msUntil(body.expiration) : QUOTE_DEFAULT_WAIT_MS;
  const answered = await condition(() => response !== undefined || forwardFailed !== undefined, Math.max(1, wait));
  if (!answered) forwardScope.cancel();
  await forwarding;

  if (!answered) {
    const expired = errorInformation('quoteExpired', `quote ${quoteId} was not answered by ${payeeFsp} in time`);
    return finish('EXPIRED', () => hubError(payerFsp, expired), undefined, expired);
  }
  if (!response) {
    const failure = forwardFailed!;
    return finish('REJECTED', () => hubError(payerFsp, failure), undefined, failure);
  }
  const { callback } = response;
  const path = response.kind === 'quote' ? `/quotes/${quoteId}` : `/quotes/${quoteId}/error`;
  const toPayer = () =>
    deliver({ to: payerFsp, endpointType: 'FSPIOP_CALLBACK_URL_QUOTES', path, method: 'PUT', headers: callback.headers, rawBody: callback.rawBody });
  return response.kind === 'quote'
    ? finish('ACCEPTED', toPayer, callback)
    : finish('REJECTED', toPayer, callback, (callback.body as ErrorCallbackBody).errorInformation);
}
