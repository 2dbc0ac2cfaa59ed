import { log, setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { Decimal } from '../../api/contracts/money';
import type {
  QuotesIDPutResponse,
  QuotesPostRequest,
  ThirdpartyRequestsAuthorizationsIDPutResponse,
  ThirdpartyRequestsAuthorizationsPostRequest,
  ThirdpartyRequestsTransactionsPostRequest,
  ThirdpartyRequestsVerificationsIDPutResponse,
  ThirdpartyRequestsVerificationsPostRequest,
} from '../../api/contracts/bodies';
import { type ErrorInformation, errorInformation, FspiopErrorName } from '../../api/contracts/errors';
import type { OutgoingMessage } from '../../api/contracts/peers';
import { ConsentId, Pisp, State } from '../../api/contracts/searchAttributes';
import { bestEffort, errorOf, msUntil } from '../kit/failures';
import { messages } from '../participant/participantProxies';
import { exchangeAsChild } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { requestQuote, transferFunds } from './payer';
import { answeredWithError, answerOf } from './answers';
import { bank, ledger } from './thirdpartyProxies';
import { thirdpartyTransactionQuery, ThirdpartyTransactionView } from './thirdpartyContracts';

export interface DfspThirdpartyTransactionInput {
  transactionRequestId: string;
}

/** How the request ended: each has exactly one final message to the PISP. `amount` is what the transfer took. */
type Outcome = { kind: 'completed'; amount: string } | { kind: 'rejected' } | { kind: 'failed'; errorInformation: ErrorInformation };

const failure = (errorInformation: ErrorInformation): Outcome => ({ kind: 'failed', errorInformation });

/** Why the quote cannot be paid from the money held for the request, or undefined when it can. */
function beyondHold(quote: QuotesIDPutResponse, held: ThirdpartyRequestsTransactionsPostRequest['amount']): string | undefined {
  const { amount, currency } = quote.transferAmount;
  if (currency !== held.currency) return `the quote's transferAmount is in ${currency}, the request in ${held.currency}`;
  if (new Decimal(amount).greaterThan(held.amount)) return `the quote's transferAmount ${amount} is more than the ${held.amount} held for the request`;
  return undefined;
}

/** What the payer is charged beyond what the payee receives: transferAmount − payeeReceiveAmount. */
function feesOf(quote: QuotesIDPutResponse) {
  const received = quote.payeeReceiveAmount ?? quote.transferAmount;
  return { amount: new Decimal(quote.transferAmount.amount).minus(received.amount).toString(), currency: quote.transferAmount.currency };
}

/**
 * `dfspThirdpartyTransaction/<transactionRequestId>`: the payer DFSP's side of a payment a PISP initiates from a
 * linked account (Document 1, "Payment flow"): the checks of rule 3 and RECEIVED, the quote with the payee FSP, the
 * authorization request with the challenge derived from the quote, the verification of the user's signature by the
 * Auth service, the transfer, and exactly one final outcome: PATCH (COMPLETED or REJECTED) or PUT …/error. The
 * request's expiration bounds every wait before the transfer; once the transfer is asked for, the switch decides it.
 * The money is held at the bank from the check on, so payments from one account cannot together spend more than it
 * holds: the hold is committed once the transfer committed, released on any other ending, after the PISP is told.
 */
export async function dfspThirdpartyTransaction({ transactionRequestId }: DfspThirdpartyTransactionInput): Promise<Outcome['kind']> {
  const inbox = new Inbox();
  const posted = await inbox.next<ThirdpartyRequestsTransactionsPostRequest>(kindsOn('thirdpartyRequests/transactions', 'request'), 60_000);
  if (!posted) return 'failed';
  const request = posted.body;
  const pisp = posted.source;
  const view: ThirdpartyTransactionView = { originator: pisp };
  setHandler(thirdpartyTransactionQuery, () => view);
  upsertSearchAttributes([
    { key: Pisp, value: pisp },
    { key: State, value: 'RECEIVED' },
  ]);
  const toPisp = (message: Omit<OutgoingMessage, 'to' | 'resource' | 'id'>) =>
    messages.sendToSwitch({ to: pisp, resource: 'thirdpartyRequests/transactions', id: transactionRequestId, ...message });
  const remaining = () => msUntil(request.expiration);
  /** A step that ended without its answer: the request expired meanwhile, or the step failed. */
  const stepFailed = (name: FspiopErrorName, detail?: string) =>
    failure(remaining() <= 0 ? errorInformation('transactionRequestExpired') : errorInformation(name, detail));

  async function pay(): Promise<Outcome> {
    if (remaining() <= 0) return failure(errorInformation('transactionRequestExpired'));
    const me = await bank.thirdpartyIdentity();

    // Rule 3: the payer is an account this DFSP linked to this PISP, which may pay this amount from it: held, from now on.
    const checked = await bank.checkThirdpartyTransactionRequest({ request, pispId: pisp });
    if (!checked.ok) return failure(checked.errorInformation);
    const { consentId, address, holder } = checked;
    const reserved = await bank.reserveFunds({ transactionRequestId, address, amount: request.amount.amount });
    if (!reserved.ok) return failure(reserved.errorInformation);
    upsertSearchAttributes([{ key: ConsentId, value: consentId }]);
    const transactionId = uuid4();
    await toPisp({ name: 'answer', body: { transactionId, transactionRequestState: 'RECEIVED' } });
    Object.assign(view, { transactionId, transactionRequestState: 'RECEIVED', transactionState: 'RECEIVED' });

    // Rule 4: the quote with the payee FSP, which names the payer by who holds the account, not by the link.
    const payeeFsp = request.payee.partyIdInfo.fspId!;
    const quoteRequest: QuotesPostRequest = {
      quoteId: uuid4(),
      transactionId,
      transactionRequestId,
      payee: request.payee as QuotesPostRequest['payee'],
      payer: {
        partyIdInfo: { partyIdType: holder.partyIdType, partyIdentifier: holder.partyIdentifier, fspId: me.dfspId },
        ...(holder.firstName ? { name: [holder.firstName, holder.lastName].filter(Boolean).join(' ') } : {}),
      },
      amountType: request.amountType,
      amount: request.amount as QuotesPostRequest['amount'],
      transactionType: request.transactionType as QuotesPostRequest['transactionType'],
      expiration: request.expiration,
    };
    const quoted = await requestQuote(payeeFsp, quoteRequest, remaining());
    if (!quoted.ok) return stepFailed('transactionRequestQuoteFailed');
    const quote = quoted.body;
    // The payer pays the quote's transferAmount (fees, a RECEIVE amount): never more than the hold covers.
    const unpayable = beyondHold(quote, request.amount);
    if (unpayable) return failure(errorInformation('transactionRequestNotValid', unpayable));

    // Rules 4 and 5: the user, through the PISP, signs the challenge derived from the quote, or rejects the terms.
    const challenge = await bank.transactionChallenge(quote);
    const authorizationRequestId = uuid4();
    const authorizationRequest: ThirdpartyRequestsAuthorizationsPostRequest = {
      authorizationRequestId,
      transactionRequestId,
      challenge,
      transferAmount: quote.transferAmount,
      payeeReceiveAmount: quote.payeeReceiveAmount ?? quote.transferAmount,
      fees: feesOf(quote),
      payer: request.payer,
      payee: request.payee,
      transactionType: request.transactionType,
      expiration: quote.expiration,
    } as ThirdpartyRequestsAuthorizationsPostRequest;
    upsertSearchAttributes([{ key: State, value: 'AUTHORIZING' }]);
    const authorization = answerOf<ThirdpartyRequestsAuthorizationsIDPutResponse>(
      await exchangeAsChild({
        request: { to: pisp, resource: 'thirdpartyRequests/authorizations', name: 'request', body: authorizationRequest },
        answerId: authorizationRequestId,
        // Only the PISP of the request answers for its user (Document 1, "Authentication").
        from: [pisp],
        waitMs: remaining(),
      }),
    );
    if (!authorization) return stepFailed('transactionRequestAuthorizationFailed');
    if (authorization.responseType === 'REJECTED') return { kind: 'rejected' };

    // Rule 6: the hub's Auth service checks the signature with the consent's credential.
    const verificationRequestId = uuid4();
    const { signedPayload } = authorization as Extract<ThirdpartyRequestsAuthorizationsIDPutResponse, { signedPayload: unknown }>;
    const verificationRequest = (
      signedPayload.signedPayloadType === 'FIDO'
        ? { verificationRequestId, challenge, consentId, signedPayloadType: 'FIDO', fidoSignedPayload: signedPayload.fidoSignedPayload }
        : { verificationRequestId, challenge, consentId, signedPayloadType: 'GENERIC', genericSignedPayload: signedPayload.genericSignedPayload }
    ) as ThirdpartyRequestsVerificationsPostRequest;
    upsertSearchAttributes([{ key: State, value: 'VERIFYING' }]);
    const verifying = await exchangeAsChild({
      request: { to: me.authServiceId, resource: 'thirdpartyRequests/verifications', name: 'request', body: verificationRequest },
      answerId: verificationRequestId,
      from: [me.authServiceId],
      waitMs: remaining(),
    });
    const verification = answerOf<ThirdpartyRequestsVerificationsIDPutResponse>(verifying);
    if (verification?.authenticationResponse !== 'VERIFIED') {
      return answeredWithError(verifying) || verification
        ? failure(errorInformation('thirdpartyTransactionAuthorizationNotValid'))
        : stepFailed('thirdpartyAuthServiceError');
    }
    Object.assign(view, { transactionRequestState: 'ACCEPTED', transactionState: 'PENDING' });
    if (remaining() <= 0) return failure(errorInformation('transactionRequestExpired'));

    // Rule 7: the transfer of the quoted terms; the payer's account follows once the switch has committed it.
    upsertSearchAttributes([{ key: State, value: 'TRANSFERRING' }]);
    transferAsked = true;
    const transferId = uuid4();
    const transferred = await transferFunds(
      payeeFsp,
      {
        transferId,
        payerFsp: me.dfspId,
        payeeFsp,
        amount: quote.transferAmount,
        ilpPacket: quote.ilpPacket,
        condition: quote.condition,
        expiration: request.expiration,
      },
      Math.max(remaining(), me.requestTimeoutMs),
    );
    if (!transferred.ok || transferred.body.transferState !== 'COMMITTED') return failure(errorInformation('transactionRequestTransferFailed'));
    return { kind: 'completed', amount: quote.transferAmount.amount };
  }

  /** Whether the transfer was asked for: from then on only the switch's answer says whether the money moved. */
  let transferAsked = false;
  let outcome: Outcome;
  let outcomeKnown = true;
  try {
    outcome = await pay();
  } catch (error) {
    // A step that failed for good (the switch refusing a message, the bank out of reach) still ends the request.
    log.error('third-party transaction request failed', { error: (error as Error).message });
    outcome = failure(errorOf(error));
    outcomeKnown = !transferAsked;
  }

  // The account follows the switch: the hold is committed once the transfer committed, released on any other known
  // ending. It runs beside the final message, which does not wait on the bank.
  const accountFollows = resolveHold(outcome);

  // Exactly one final outcome (Document 1, "Events"). It is sent once, with retries; it cannot undo what happened.
  switch (outcome.kind) {
    case 'completed':
      Object.assign(view, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
      await bestEffort(toPisp({ name: 'patch', body: { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' } }), 'final PATCH');
      break;
    case 'rejected':
      Object.assign(view, { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' });
      await bestEffort(toPisp({ name: 'patch', body: { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' } }), 'final PATCH');
      break;
    case 'failed':
      view.errorInformation = outcome.errorInformation;
      await bestEffort(toPisp({ name: 'error', body: { errorInformation: outcome.errorInformation } }), 'final error');
  }
  upsertSearchAttributes([{ key: State, value: outcome.kind.toUpperCase() }]);
  await accountFollows;
  return outcome.kind;

  async function resolveHold(ended: Outcome): Promise<void> {
    if (ended.kind === 'completed') return ledger.commitReservation({ transactionRequestId, amount: ended.amount });
    if (outcomeKnown) return ledger.releaseReservation(transactionRequestId);
    // A transfer whose end is unknown keeps its hold: released, the money could be spent twice. An operator resolves it.
    log.error('the transfer of a third-party transaction request ended unknown: its hold is kept', { transactionRequestId });
  }
}
