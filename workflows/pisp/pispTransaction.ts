import { setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { thirdparty } from '@mojaloop/api-snippets';
import type { ThirdpartyRequestsAuthorizationsPostRequest, ThirdpartyRequestsTransactionsIDPatchResponse } from '../../activities/shared/contracts/bodies';
import { errorInformation, type ErrorInformation } from '../../activities/shared/contracts/errors';
import { errorInformationOf, type PeerMessage } from '../../activities/shared/contracts/peers';
import { Dfsp } from '../../activities/shared/contracts/searchAttributes';
import { lapsed, msUntil } from '../../activities/shared/contracts/expiry';
import { rejectionOf } from '../kit/failures';
import { exchangeInTurn, type ExchangeOutcome } from '../participant/exchange';
import { Inbox, kindsOn, saidBy } from '../participant/inbox';
import { credentials } from './pispProxies';
import { inTurn } from '../kit/steps';
import { APP_IDLE_MS, type AppCall, AppCalls, enter } from './appCalls';
import {
  approve,
  initiate,
  partyLookup,
  PispConversationInput,
  ThirdpartyTransactionIDApproveRequest,
  ThirdpartyTransactionIDApproveResponse,
  ThirdpartyTransactionIDGetResponse,
  ThirdpartyTransactionIDInitiateRequest,
  transactionStatusQuery,
} from './appApi';
import { timedOut, whySendingFailed } from './sending';

/** Where the payment stands (transactionStatusQuery, GET /thirdpartyTransaction/{ID}); the last one is its outcome. */
export type PispTransactionStatus = Omit<ThirdpartyTransactionIDGetResponse, 'transactionRequestId'>;

export interface PispTransactionOutcome extends PispTransactionStatus {
  state: 'partyLookupFailure' | 'transactionStatusReceived' | 'errored' | 'expired' | 'abandoned';
}

const TRANSACTIONS = 'thirdpartyRequests/transactions' as const;

/**
 * `pispTransaction/<transactionRequestId>`: a payment the PISP initiates from a linked account (Document 1, "Payment
 * flow"), driven by the app's calls: party lookup, initiate (answered with the DFSP's authorization request and its
 * challenge), approve (answered with the final PATCH). Each call is answered within REQUEST_TIMEOUT_MS, as the SDK
 * answers it; but the request's expiration, not that timeout, ends the conversation: only once it has passed with no
 * final outcome may the PISP treat the payment as failed (Document 1, "Timeout"), so an outcome that comes later than
 * the approve call's answer is still recorded, and the app reads it with GET /thirdpartyTransaction/{ID}.
 */
export async function pispTransaction({ requestTimeoutMs }: PispConversationInput): Promise<PispTransactionOutcome> {
  const payment: Payment = {
    requestTimeoutMs,
    inbox: new Inbox(),
    calls: new AppCalls([partyLookup, initiate, approve]),
    status: { currentState: 'start' },
    approvalAnswered: false,
  };
  setHandler(transactionStatusQuery, () => payment.status);
  enter('start');
  return inTurn(payment, [discoverPayee, requestTransaction, sendAuthorization, awaitFinalOutcome]);
}

/** What the steps of one payment share; each field is set by the step that learns it. */
interface Payment {
  readonly requestTimeoutMs: number;
  readonly inbox: Inbox;
  readonly calls: AppCalls;
  status: PispTransactionStatus;
  transactionRequestId?: string;
  request?: ThirdpartyTransactionIDInitiateRequest & { transactionRequestId: string };
  /** The DFSP that issued the link (Document 1, payer.fspId): the outbound API requires it. */
  dfsp?: string;
  /**
   * What the DFSP says of the request comes from the DFSP alone: another participant that knows the
   * transactionRequestId cannot ask the user to sign its challenge, nor tell the outcome. Its error may come from the
   * switch itself too.
   */
  fromDfsp?: (message: PeerMessage) => boolean;
  authorization?: ThirdpartyRequestsAuthorizationsPostRequest;
  approval?: AppCall<ThirdpartyTransactionIDApproveRequest, ThirdpartyTransactionIDApproveResponse>;
  /** Whether the app's approve call has had its answer (a timeout) while the conversation waits on. */
  approvalAnswered: boolean;
  /** The DFSP's last transactionRequestState (PUT /thirdpartyRequests/transactions/{ID}), if it said one. */
  lastSaid?: string;
}

type Outcome = PispTransactionOutcome;

/** Payment rule 1, discovery: GET /parties finds the payee, whom the app confirms with the user. */
async function discoverPayee(payment: Payment): Promise<Outcome | undefined> {
  const lookup = await payment.calls.next(partyLookup, APP_IDLE_MS);
  if (!lookup) return { state: 'abandoned', ...payment.status };
  payment.transactionRequestId = lookup.input.transactionRequestId;
  const found = await lookUpParty(lookup.input.payee, payment.requestTimeoutMs);
  if (found.kind !== 'answered' || found.message.name === 'error') {
    const why =
      found.kind === 'refused'
        ? found.errorInformation
        : found.kind === 'timedOut'
          ? timedOut('PUT /parties/{Type}/{ID}', payment.requestTimeoutMs)
          : errorInformationOf(found.message);
    lookup.answer({ currentState: 'partyLookupFailure', errorInformation: why });
    reach(payment, { currentState: 'partyLookupFailure', errorInformation: why });
    return ended(payment, 'partyLookupFailure');
  }
  lookup.answer({ party: (found.message.body as { party: thirdparty.Schemas.Party }).party, currentState: 'partyLookupSuccess' });
  reach(payment, { currentState: 'partyLookupSuccess' });
  return undefined;
}

/**
 * Payment rules 2-4, initiate: the transaction request goes to the DFSP of the linked account, which quotes and asks
 * the PISP to have the user authorize the terms (POST /thirdpartyRequests/authorizations, with the challenge). Each
 * wait ends at REQUEST_TIMEOUT_MS, and at the request's expiration at the latest.
 */
async function requestTransaction(payment: Payment): Promise<Outcome | undefined> {
  const initiation = await payment.calls.next(initiate, APP_IDLE_MS);
  if (!initiation) return { state: 'abandoned', ...payment.status };
  const request = { transactionRequestId: payment.transactionRequestId!, ...initiation.input };
  const dfsp = request.payer.fspId as string;
  upsertSearchAttributes([{ key: Dfsp, value: dfsp }]);
  Object.assign(payment, { request, dfsp, fromDfsp: saidBy(dfsp) });
  const { expiration } = request;

  if (lapsed(expiration, Date.now())) return fail(payment, initiation, errorInformation('transactionRequestExpired', `expiration ${expiration} has passed`));
  const refused = await whySendingFailed({ to: dfsp, resource: TRANSACTIONS, name: 'request', body: request });
  if (refused) return fail(payment, initiation, refused);
  const waited = Math.min(payment.requestTimeoutMs, msUntil(expiration, Date.now()));
  const asked = await payment.inbox.next(
    (m) => (kindsOn('thirdpartyRequests/authorizations', 'request')(m) || kindsOn(TRANSACTIONS, 'error')(m)) && payment.fromDfsp!(m),
    waited,
  );
  if (!asked) {
    const awaited = 'POST /thirdpartyRequests/authorizations';
    const why = lapsed(expiration, Date.now())
      ? errorInformation('transactionRequestExpired', `no ${awaited} before ${expiration}`)
      : timedOut(awaited, waited);
    return fail(payment, initiation, why);
  }
  if (asked.name === 'error') return fail(payment, initiation, errorInformationOf(asked));
  payment.authorization = asked.body as ThirdpartyRequestsAuthorizationsPostRequest;
  initiation.answer({ authorization: payment.authorization, currentState: 'authorizationReceived' });
  reach(payment, { currentState: 'authorizationReceived' });
  return undefined;
}

/**
 * Payment rule 5, approve: the user's decision, signed (a GENERIC acceptance here, with the key the PISP keeps), goes to
 * the DFSP, which verifies it (rule 6) and runs the transfer (rule 7).
 */
async function sendAuthorization(payment: Payment): Promise<Outcome | undefined> {
  const { request, dfsp, authorization } = payment as Required<Payment>;
  const approval = await payment.calls.next(approve, msUntil(request.expiration, Date.now()));
  if (!approval) {
    reach(payment, { currentState: 'expired' });
    return ended(payment, 'expired');
  }
  payment.approval = approval;
  let authorizationResponse: object;
  try {
    authorizationResponse = await signed(approval.input.authorizationResponse, request.payer.partyIdentifier, dfsp, authorization.challenge);
  } catch (error) {
    const why = rejectionOf(error);
    if (!why) throw error;
    return fail(payment, approval, why);
  }
  const refused = await whySendingFailed({
    to: dfsp,
    resource: 'thirdpartyRequests/authorizations',
    name: 'answer',
    id: authorization.authorizationRequestId,
    body: authorizationResponse,
  });
  return refused ? fail(payment, approval, refused) : undefined;
}

/**
 * Payment rules 7-8, the outcome: the DFSP's PUT /thirdpartyRequests/transactions/{ID} tells how far the request got
 * (RECEIVED, PENDING…); the final outcome is its PATCH or error callback. The app waits REQUEST_TIMEOUT_MS for it, as
 * the SDK's does, and is then told it timed out; the conversation listens on until the expiration, and asks the DFSP
 * once (rule 8, a status query) before it gives up.
 */
async function awaitFinalOutcome(payment: Payment): Promise<Outcome> {
  const { request, dfsp, approval, requestTimeoutMs } = payment as Required<Payment>;
  const { expiration } = request;
  let outcome = await outcomeWithin(payment, Math.min(requestTimeoutMs, msUntil(expiration, Date.now())));
  if (!outcome && !lapsed(expiration, Date.now())) {
    approval.answer({ currentState: 'errored', errorInformation: timedOut('PATCH /thirdpartyRequests/transactions/{ID}', requestTimeoutMs) });
    payment.approvalAnswered = true;
    reach(payment, { currentState: 'awaitingTransactionStatus' });
    outcome = await outcomeWithin(payment, msUntil(expiration, Date.now()));
  }
  if (!outcome && !(await whySendingFailed({ to: dfsp, resource: TRANSACTIONS, name: 'get', id: request.transactionRequestId })))
    // The DFSP answers a status query with PUT (its transactionRequestState) or an error.
    outcome = await outcomeWithin(payment, requestTimeoutMs, true);

  const { lastSaid } = payment;
  if (!outcome || outcome.name === 'answer') {
    const why = errorInformation(
      'transactionRequestExpired',
      `no final outcome before ${expiration}${lastSaid ? `; the DFSP last said the request was ${lastSaid}` : ''}`,
    );
    answerApproval(payment, { currentState: 'errored', errorInformation: why });
    reach(payment, { currentState: 'errored', errorInformation: why, ...(lastSaid ? { transactionRequestState: lastSaid } : {}) });
    return ended(payment, 'expired');
  }
  if (outcome.name === 'error') {
    answerApproval(payment, { currentState: 'errored', errorInformation: errorInformationOf(outcome) });
    reach(payment, { currentState: 'errored', errorInformation: errorInformationOf(outcome) });
    return ended(payment, 'errored');
  }
  const transactionStatus = outcome.body as ThirdpartyRequestsTransactionsIDPatchResponse;
  // The DFSP's PATCH as it came, as the SDK answers it.
  answerApproval(payment, { transactionStatus, currentState: 'transactionStatusReceived' });
  reach(payment, { currentState: 'transactionStatusReceived', transactionStatus, transactionRequestState: transactionStatus.transactionRequestState });
  return ended(payment, 'transactionStatusReceived');
}

/** The final outcome within `ms`, or with `takeStatus` the DFSP's answer to a status query as well. */
async function outcomeWithin(payment: Payment, ms: number, takeStatus = false): Promise<PeerMessage | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const message = await payment.inbox.next((m) => kindsOn(TRANSACTIONS, 'patch', 'answer', 'error')(m) && payment.fromDfsp!(m), until - Date.now());
    if (message?.name !== 'answer') return message;
    payment.lastSaid = (message.body as { transactionRequestState: string }).transactionRequestState;
    if (takeStatus) return message;
  }
}

function reach(payment: Payment, next: PispTransactionStatus): void {
  payment.status = next;
  enter(next.currentState);
}

/** The approve call's answer, unless it has had one already (a timeout, while the conversation waited on). */
function answerApproval(payment: Payment, body: ThirdpartyTransactionIDApproveResponse): void {
  if (!payment.approvalAnswered) payment.approval!.answer(body);
}

async function ended(payment: Payment, state: Outcome['state']): Promise<Outcome> {
  await payment.calls.finished();
  return { state, ...payment.status };
}

function fail(payment: Payment, call: { answer(body: { currentState: 'errored'; errorInformation: ErrorInformation }): void }, why: ErrorInformation) {
  call.answer({ currentState: 'errored', errorInformation: why });
  reach(payment, { currentState: 'errored', errorInformation: why });
  return ended(payment, 'errored');
}

/**
 * GET /parties/{Type}/{ID}[/{SubId}] as an exchange named after the PUT that answers it. The answer carries nothing
 * that says which lookup asked for it, so two payments looking up the same party at once take turns: the later one
 * waits until the earlier one's exchange has ended rather than take an answer it did not ask for.
 */
function lookUpParty(payee: thirdparty.Schemas.PartyIdInfo, waitMs: number): Promise<ExchangeOutcome> {
  const id = [payee.partyIdType, payee.partyIdentifier, payee.partySubIdOrType].filter((part) => part !== undefined).join('/');
  return exchangeInTurn({ request: { to: payee.fspId, resource: 'parties', name: 'get', id }, answerId: id, waitMs });
}

/** The authorization response as it goes to the DFSP: a GENERIC acceptance without a signature is signed here. */
async function signed(
  response: ThirdpartyTransactionIDApproveRequest['authorizationResponse'],
  account: string,
  dfsp: string,
  challenge: string,
): Promise<object> {
  if (response.responseType !== 'ACCEPTED' || response.signedPayload.signedPayloadType !== 'GENERIC' || 'genericSignedPayload' in response.signedPayload)
    return response;
  const genericSignedPayload = await credentials.signChallenge({ account, dfsp, challenge });
  return { ...response, signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload } };
}
