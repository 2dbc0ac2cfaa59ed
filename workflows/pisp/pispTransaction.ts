import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { thirdparty } from '@mojaloop/api-snippets';
import type { ThirdpartyRequestsAuthorizationsPostRequest, ThirdpartyRequestsTransactionsIDPatchResponse } from '../../api/contracts/bodies';
import { errorInformation, type ErrorInformation } from '../../api/contracts/errors';
import type { PeerMessage } from '../../api/contracts/peers';
import { Dfsp } from '../../api/contracts/searchAttributes';
import { msUntil, rejectionOf } from '../kit/failures';
import { exchangeAsChild, type ExchangeOutcome } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { credentials } from './activities';
import { APP_IDLE_MS, AppCalls, enter, errored } from './appCalls';
import { approve, initiate, partyLookup, PispConversationInput, ThirdpartyTransactionIDApproveRequest } from './appApi';
import { refusalOf, timedOut } from './sending';

export interface PispTransactionOutcome {
  state: 'partyLookupFailure' | 'transactionStatusReceived' | 'errored' | 'expired' | 'abandoned';
  transactionRequestState?: string;
}

/** How often a party lookup waiting for another payment's lookup of the same party tries again. */
const PARTY_LOOKUP_RETRY_MS = 500;

const errorOfMessage = (message: PeerMessage) => (message.body as { errorInformation: ErrorInformation }).errorInformation;

/**
 * `pispTransaction/<transactionRequestId>`: a payment the PISP initiates from a linked account (Document 1, "Payment
 * flow"), driven by the app's calls: party lookup, initiate (answered with the DFSP's authorization request and its
 * challenge), approve (answered with the final PATCH). The request's expiration bounds every wait after initiate:
 * with no final outcome by then the PISP treats the payment as failed (Document 1, "Timeout").
 */
export async function pispTransaction({ requestTimeoutMs }: PispConversationInput): Promise<PispTransactionOutcome> {
  const inbox = new Inbox();
  const calls = new AppCalls([partyLookup, initiate, approve]);
  const fail = async (call: { answer(body: ReturnType<typeof errored>): void }, why: ErrorInformation): Promise<PispTransactionOutcome> => {
    call.answer(errored(why));
    await calls.finished();
    return { state: 'errored' };
  };
  enter('start');

  // Discovery (payment rule 1): GET /parties finds the payee, whom the app confirms with the user.
  const lookup = await calls.next(partyLookup, APP_IDLE_MS);
  if (!lookup) return { state: 'abandoned' };
  const { payee } = lookup.input;
  const found = await lookUpParty(payee, requestTimeoutMs);
  if (found.kind !== 'answered' || found.message.name === 'error') {
    const why =
      found.kind === 'refused'
        ? found.errorInformation
        : found.kind === 'timedOut'
          ? timedOut('PUT /parties/{Type}/{ID}', requestTimeoutMs)
          : errorOfMessage(found.message);
    lookup.answer({ currentState: 'partyLookupFailure', errorInformation: why });
    enter('partyLookupFailure');
    await calls.finished();
    return { state: 'partyLookupFailure' };
  }
  lookup.answer({ party: (found.message.body as { party: thirdparty.Schemas.Party }).party, currentState: 'partyLookupSuccess' });
  enter('partyLookupSuccess');

  // Initiate (payment rules 2-4): the transaction request goes to the DFSP of the linked account, which quotes and
  // asks the PISP to have the user authorize the terms (POST /thirdpartyRequests/authorizations, with the challenge).
  const initiation = await calls.next(initiate, APP_IDLE_MS);
  if (!initiation) return { state: 'abandoned' };
  const { transactionRequestId } = lookup.input;
  const request = { transactionRequestId, ...initiation.input };
  // The outbound API requires it: the DFSP that issued the link (Document 1, payer.fspId).
  const dfsp = request.payer.fspId as string;
  upsertSearchAttributes([{ key: Dfsp, value: dfsp }]);
  const expiration = request.expiration;
  // Each wait ends at REQUEST_TIMEOUT_MS, and at the request's expiration at the latest.
  const waitMs = () => Math.min(requestTimeoutMs, msUntil(expiration));
  const noAnswer = (awaited: string, waited: number) =>
    msUntil(expiration) <= 0 ? errorInformation('transactionRequestExpired', `no ${awaited} before ${expiration}`) : timedOut(awaited, waited);

  if (msUntil(expiration) <= 0) return fail(initiation, errorInformation('transactionRequestExpired', `expiration ${expiration} has passed`));
  const refused = await refusalOf({ to: dfsp, resource: 'thirdpartyRequests/transactions', name: 'request', body: request });
  if (refused) return fail(initiation, refused);
  let waited = waitMs();
  const asked = await inbox.next(
    (m) => kindsOn('thirdpartyRequests/authorizations', 'request')(m) || kindsOn('thirdpartyRequests/transactions', 'error')(m),
    waited,
  );
  if (!asked) return fail(initiation, noAnswer('POST /thirdpartyRequests/authorizations', waited));
  if (asked.name === 'error') return fail(initiation, errorOfMessage(asked));
  const authorization = asked.body as ThirdpartyRequestsAuthorizationsPostRequest;
  initiation.answer({ authorization, currentState: 'authorizationReceived' });
  enter('authorizationReceived');

  // Approve (payment rules 5-7): the user's decision, signed, goes to the DFSP; it verifies the signature, runs the
  // transfer and sends exactly one final outcome: PATCH /thirdpartyRequests/transactions/{ID} or its error.
  const approval = await calls.next(approve, msUntil(expiration));
  if (!approval) {
    enter('expired');
    return { state: 'expired' };
  }
  let authorizationResponse: object;
  try {
    authorizationResponse = await signed(approval.input.authorizationResponse, request.payer.partyIdentifier, authorization.challenge);
  } catch (error) {
    const why = rejectionOf(error);
    if (!why) throw error;
    return fail(approval, why);
  }
  const answerRefused = await refusalOf({
    to: dfsp,
    resource: 'thirdpartyRequests/authorizations',
    name: 'answer',
    id: authorization.authorizationRequestId,
    body: authorizationResponse,
  });
  if (answerRefused) return fail(approval, answerRefused);
  waited = waitMs();
  const outcome = await inbox.next(kindsOn('thirdpartyRequests/transactions', 'patch', 'error'), waited);
  if (!outcome) return fail(approval, noAnswer('PATCH /thirdpartyRequests/transactions/{ID}', waited));
  if (outcome.name === 'error') return fail(approval, errorOfMessage(outcome));
  const transactionStatus = outcome.body as ThirdpartyRequestsTransactionsIDPatchResponse;
  approval.answer({ transactionStatus: { transactionRequestId, ...transactionStatus }, currentState: 'transactionStatusReceived' });
  enter('transactionStatusReceived');
  await calls.finished();
  return { state: 'transactionStatusReceived', transactionRequestState: transactionStatus.transactionRequestState };
}

/**
 * GET /parties/{Type}/{ID}[/{SubId}] as an exchange named after the PUT that answers it. Two payments looking up the
 * same party at once would need the same exchange: the later one waits until the earlier one's has ended.
 */
async function lookUpParty(payee: thirdparty.Schemas.PartyIdInfo, waitMs: number): Promise<ExchangeOutcome> {
  const id = [payee.partyIdType, payee.partyIdentifier, payee.partySubIdOrType].filter((part) => part !== undefined).join('/');
  for (let waited = 0; waited < waitMs; waited += PARTY_LOOKUP_RETRY_MS) {
    try {
      return await exchangeAsChild({ request: { to: payee.fspId, resource: 'parties', name: 'get', id }, answerId: id, waitMs: waitMs - waited });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      await sleep(PARTY_LOOKUP_RETRY_MS);
    }
  }
  return { kind: 'timedOut' };
}

/** The authorization response as it goes to the DFSP: a GENERIC acceptance without a signature is signed here. */
async function signed(response: ThirdpartyTransactionIDApproveRequest['authorizationResponse'], account: string, challenge: string): Promise<object> {
  if (response.responseType !== 'ACCEPTED' || response.signedPayload.signedPayloadType !== 'GENERIC' || 'genericSignedPayload' in response.signedPayload)
    return response;
  const genericSignedPayload = await credentials.signChallenge({ account, challenge });
  return { ...response, signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload } };
}
