import { setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { thirdparty } from '@mojaloop/api-snippets';
import type { ThirdpartyRequestsAuthorizationsPostRequest, ThirdpartyRequestsTransactionsIDPatchResponse } from '../../api/contracts/bodies';
import { errorInformation, type ErrorInformation } from '../../api/contracts/errors';
import { errorInformationOf, type PeerMessage } from '../../api/contracts/peers';
import { Dfsp } from '../../api/contracts/searchAttributes';
import { msUntil, rejectionOf } from '../kit/failures';
import { exchangeInTurn, type ExchangeOutcome } from '../participant/exchange';
import { Inbox, kindsOn, saidBy } from '../participant/inbox';
import { credentials } from './pispProxies';
import { APP_IDLE_MS, AppCalls, enter } from './appCalls';
import {
  approve,
  initiate,
  partyLookup,
  PispConversationInput,
  ThirdpartyTransactionIDApproveRequest,
  ThirdpartyTransactionIDGetResponse,
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
  const inbox = new Inbox();
  const calls = new AppCalls([partyLookup, initiate, approve]);
  let status: PispTransactionStatus = { currentState: 'start' };
  setHandler(transactionStatusQuery, () => status);
  const reach = (next: PispTransactionStatus): PispTransactionStatus => {
    status = next;
    enter(next.currentState);
    return next;
  };
  const ended = async (state: PispTransactionOutcome['state']): Promise<PispTransactionOutcome> => {
    await calls.finished();
    return { state, ...status };
  };
  const fail = (call: { answer(body: { currentState: 'errored'; errorInformation: ErrorInformation }): void }, why: ErrorInformation) => {
    call.answer({ currentState: 'errored', errorInformation: why });
    reach({ currentState: 'errored', errorInformation: why });
    return ended('errored');
  };
  enter('start');

  // Discovery (payment rule 1): GET /parties finds the payee, whom the app confirms with the user.
  const lookup = await calls.next(partyLookup, APP_IDLE_MS);
  if (!lookup) return { state: 'abandoned', ...status };
  const { payee } = lookup.input;
  const found = await lookUpParty(payee, requestTimeoutMs);
  if (found.kind !== 'answered' || found.message.name === 'error') {
    const why =
      found.kind === 'refused'
        ? found.errorInformation
        : found.kind === 'timedOut'
          ? timedOut('PUT /parties/{Type}/{ID}', requestTimeoutMs)
          : errorInformationOf(found.message);
    lookup.answer({ currentState: 'partyLookupFailure', errorInformation: why });
    reach({ currentState: 'partyLookupFailure', errorInformation: why });
    return ended('partyLookupFailure');
  }
  lookup.answer({ party: (found.message.body as { party: thirdparty.Schemas.Party }).party, currentState: 'partyLookupSuccess' });
  reach({ currentState: 'partyLookupSuccess' });

  // Initiate (payment rules 2-4): the transaction request goes to the DFSP of the linked account, which quotes and
  // asks the PISP to have the user authorize the terms (POST /thirdpartyRequests/authorizations, with the challenge).
  const initiation = await calls.next(initiate, APP_IDLE_MS);
  if (!initiation) return { state: 'abandoned', ...status };
  const { transactionRequestId } = lookup.input;
  const request = { transactionRequestId, ...initiation.input };
  // The outbound API requires it: the DFSP that issued the link (Document 1, payer.fspId).
  const dfsp = request.payer.fspId as string;
  upsertSearchAttributes([{ key: Dfsp, value: dfsp }]);
  // What the DFSP says of the request comes from the DFSP alone: another participant that knows the
  // transactionRequestId cannot ask the user to sign its challenge, nor tell the outcome. Its error may come from the switch
  // itself too (saidBy).
  const fromDfsp = saidBy(dfsp);
  const expiration = request.expiration;
  // Before approve, each wait ends at REQUEST_TIMEOUT_MS, and at the request's expiration at the latest.
  const waitMs = () => Math.min(requestTimeoutMs, msUntil(expiration));
  const noAnswer = (awaited: string, waited: number) =>
    msUntil(expiration) <= 0 ? errorInformation('transactionRequestExpired', `no ${awaited} before ${expiration}`) : timedOut(awaited, waited);

  if (msUntil(expiration) <= 0) return fail(initiation, errorInformation('transactionRequestExpired', `expiration ${expiration} has passed`));
  const refused = await whySendingFailed({ to: dfsp, resource: TRANSACTIONS, name: 'request', body: request });
  if (refused) return fail(initiation, refused);
  const waited = waitMs();
  const asked = await inbox.next(
    (m) => (kindsOn('thirdpartyRequests/authorizations', 'request')(m) || kindsOn(TRANSACTIONS, 'error')(m)) && fromDfsp(m),
    waited,
  );
  if (!asked) return fail(initiation, noAnswer('POST /thirdpartyRequests/authorizations', waited));
  if (asked.name === 'error') return fail(initiation, errorInformationOf(asked));
  const authorization = asked.body as ThirdpartyRequestsAuthorizationsPostRequest;
  initiation.answer({ authorization, currentState: 'authorizationReceived' });
  reach({ currentState: 'authorizationReceived' });

  // Approve (payment rules 5-7): the user's decision, signed, goes to the DFSP; it verifies the signature, runs the
  // transfer and sends exactly one final outcome: PATCH /thirdpartyRequests/transactions/{ID} or its error.
  const approval = await calls.next(approve, msUntil(expiration));
  if (!approval) {
    reach({ currentState: 'expired' });
    return ended('expired');
  }
  let authorizationResponse: object;
  try {
    authorizationResponse = await signed(approval.input.authorizationResponse, request.payer.partyIdentifier, dfsp, authorization.challenge);
  } catch (error) {
    const why = rejectionOf(error);
    if (!why) throw error;
    return fail(approval, why);
  }
  const answerRefused = await whySendingFailed({
    to: dfsp,
    resource: 'thirdpartyRequests/authorizations',
    name: 'answer',
    id: authorization.authorizationRequestId,
    body: authorizationResponse,
  });
  if (answerRefused) return fail(approval, answerRefused);

  // The DFSP's PUT /thirdpartyRequests/transactions/{ID} tells how far the request got (RECEIVED, PENDING…); the
  // final outcome is its PATCH or error callback. The app waits REQUEST_TIMEOUT_MS for it, as the SDK's does, and is
  // then told it timed out; the conversation listens on until the expiration, and asks the DFSP once before it gives up.
  let lastSaid: string | undefined;
  /** The final outcome within `ms`, or with `takeStatus` the DFSP's answer to a status query as well. */
  const outcomeWithin = async (ms: number, takeStatus = false): Promise<PeerMessage | undefined> => {
    const until = Date.now() + ms;
    for (;;) {
      const message = await inbox.next((m) => kindsOn(TRANSACTIONS, 'patch', 'answer', 'error')(m) && fromDfsp(m), until - Date.now());
      if (message?.name !== 'answer') return message;
      lastSaid = (message.body as { transactionRequestState: string }).transactionRequestState;
      if (takeStatus) return message;
    }
  };
  let answered = false;
  let outcome = await outcomeWithin(Math.min(requestTimeoutMs, msUntil(expiration)));
  if (!outcome && msUntil(expiration) > 0) {
    approval.answer({ currentState: 'errored', errorInformation: timedOut('PATCH /thirdpartyRequests/transactions/{ID}', requestTimeoutMs) });
    answered = true;
    reach({ currentState: 'awaitingTransactionStatus' });
    outcome = await outcomeWithin(msUntil(expiration));
  }
  if (!outcome && !(await whySendingFailed({ to: dfsp, resource: TRANSACTIONS, name: 'get', id: transactionRequestId })))
    // Payment rule 8: the DFSP answers a status query with PUT (its transactionRequestState) or an error.
    outcome = await outcomeWithin(requestTimeoutMs, true);

  if (!outcome || outcome.name === 'answer') {
    const why = errorInformation(
      'transactionRequestExpired',
      `no final outcome before ${expiration}${lastSaid ? `; the DFSP last said the request was ${lastSaid}` : ''}`,
    );
    if (!answered) approval.answer({ currentState: 'errored', errorInformation: why });
    reach({ currentState: 'errored', errorInformation: why, ...(lastSaid ? { transactionRequestState: lastSaid } : {}) });
    return ended('expired');
  }
  if (outcome.name === 'error') {
    if (!answered) approval.answer({ currentState: 'errored', errorInformation: errorInformationOf(outcome) });
    reach({ currentState: 'errored', errorInformation: errorInformationOf(outcome) });
    return ended('errored');
  }
  const transactionStatus = outcome.body as ThirdpartyRequestsTransactionsIDPatchResponse;
  // The DFSP's PATCH as it came, as the SDK answers it.
  if (!answered) approval.answer({ transactionStatus, currentState: 'transactionStatusReceived' });
  reach({ currentState: 'transactionStatusReceived', transactionStatus, transactionRequestState: transactionStatus.transactionRequestState });
  return ended('transactionStatusReceived');
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
