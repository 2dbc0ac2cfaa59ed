import { log, setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { Decimal } from '../../activities/shared/contracts/money';
import type {
  QuotesIDPutResponse,
  QuotesPostRequest,
  ThirdpartyRequestsAuthorizationsIDPutResponse,
  ThirdpartyRequestsAuthorizationsPostRequest,
  ThirdpartyRequestsTransactionsPostRequest,
  ThirdpartyRequestsVerificationsIDPutResponse,
  ThirdpartyRequestsVerificationsPostRequest,
} from '../../activities/shared/contracts/bodies';
import { type ErrorInformation, errorInformation, FspiopErrorName } from '../../activities/shared/contracts/errors';
import type { OutgoingMessage } from '../../activities/shared/contracts/peers';
import { ConsentId, Pisp, State } from '../../activities/shared/contracts/searchAttributes';
import { msUntil } from '../../activities/shared/contracts/expiry';
import { bestEffort, errorOf } from '../kit/failures';
import { inTurn } from '../kit/steps';
import type { ThirdpartyIdentity } from '../../activities/dfsp/thirdparty/thirdpartyActivities';
import type { PayingFrom } from '../../activities/dfsp/thirdparty/transactionRequestRules';
import { messages } from '../participant/participantProxies';
import { exchangeAsChild } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { requestQuote, transferFunds } from './payer';
import { answeredWithError, answerOf } from './exchangeAnswers';
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
  const payment: Payment = { transactionRequestId, request: posted.body, pisp: posted.source, view: { originator: posted.source }, transferAsked: false };
  setHandler(thirdpartyTransactionQuery, () => payment.view);
  upsertSearchAttributes([
    { key: Pisp, value: payment.pisp },
    { key: State, value: 'RECEIVED' },
  ]);

  let outcome: Outcome;
  let outcomeKnown = true;
  try {
    outcome = await inTurn(payment, [checkRequest, quoteWithPayee, askUserAuthorization, verifySignature, transferFundsToPayee]);
  } catch (error) {
    // A step that failed for good (the switch refusing a message, the bank out of reach) still ends the request.
    log.error('third-party transaction request failed', { error: (error as Error).message });
    outcome = failure(errorOf(error));
    // Once the transfer was asked for, only the switch's answer says whether the money moved.
    outcomeKnown = !payment.transferAsked;
  }
  // The account follows the switch, beside the final message, which does not wait on the bank.
  const accountFollows = resolveHold(transactionRequestId, outcome, outcomeKnown);
  await tellPisp(payment, outcome);
  await accountFollows;
  return outcome.kind;
}

/** What the steps of the payer DFSP's side of one payment share; each field is set by the step that learns it. */
interface Payment {
  readonly transactionRequestId: string;
  readonly request: ThirdpartyRequestsTransactionsPostRequest;
  /** The PISP that sent the request: only it answers for its user (Document 1, "Authentication"). */
  readonly pisp: string;
  readonly view: ThirdpartyTransactionView;
  me?: ThirdpartyIdentity;
  /** The consent and the account rule 3 found the payer under. */
  payingFrom?: PayingFrom;
  transactionId?: string;
  quote?: QuotesIDPutResponse;
  challenge?: string;
  authorization?: ThirdpartyRequestsAuthorizationsIDPutResponse;
  transferAsked: boolean;
}

const remaining = (payment: Payment) => msUntil(payment.request.expiration, Date.now());

/** A step that ended without its answer: the request expired meanwhile, or the step failed. */
const stepFailed = (payment: Payment, name: FspiopErrorName, detail?: string) =>
  failure(remaining(payment) <= 0 ? errorInformation('transactionRequestExpired') : errorInformation(name, detail));

const toPisp = ({ pisp, transactionRequestId }: Payment, message: Omit<OutgoingMessage, 'to' | 'resource' | 'id'>) =>
  messages.sendToSwitch({ to: pisp, resource: 'thirdpartyRequests/transactions', id: transactionRequestId, ...message });

/**
 * Rule 3: the payer is an account this DFSP linked to this PISP, which may pay this amount from it: held, from now
 * on. The PISP hears RECEIVED, with the transactionId this DFSP chose.
 */
async function checkRequest(payment: Payment): Promise<Outcome | undefined> {
  const { request, pisp, transactionRequestId } = payment;
  if (remaining(payment) <= 0) return failure(errorInformation('transactionRequestExpired'));
  payment.me = await bank.thirdpartyIdentity();
  const checked = await bank.checkThirdpartyTransactionRequest({ request, pispId: pisp });
  if (!checked.ok) return failure(checked.errorInformation);
  payment.payingFrom = checked;
  const reserved = await bank.reserveFunds({ transactionRequestId, address: checked.address, amount: request.amount.amount });
  if (!reserved.ok) return failure(reserved.errorInformation);
  upsertSearchAttributes([{ key: ConsentId, value: checked.consentId }]);
  const transactionId = uuid4();
  payment.transactionId = transactionId;
  await toPisp(payment, { name: 'answer', body: { transactionId, transactionRequestState: 'RECEIVED' } });
  Object.assign(payment.view, { transactionId, transactionRequestState: 'RECEIVED', transactionState: 'RECEIVED' });
  return undefined;
}

/**
 * Rule 4: the quote with the payee FSP, which names the payer by who holds the account, not by the link. The payer
 * pays the quote's transferAmount (fees, a RECEIVE amount): never more than the hold covers.
 */
async function quoteWithPayee(payment: Payment): Promise<Outcome | undefined> {
  const { request, transactionRequestId, transactionId, me, payingFrom } = payment as Required<Payment>;
  const { holder } = payingFrom;
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
  const quoted = await requestQuote(payeeFspOf(payment), quoteRequest, remaining(payment));
  if (!quoted.ok) return stepFailed(payment, 'transactionRequestQuoteFailed');
  const unpayable = beyondHold(quoted.body, request.amount);
  if (unpayable) return failure(errorInformation('transactionRequestNotValid', unpayable));
  payment.quote = quoted.body;
  return undefined;
}

/** Rules 4 and 5: the user, through the PISP, signs the challenge derived from the quote, or rejects the terms. */
async function askUserAuthorization(payment: Payment): Promise<Outcome | undefined> {
  const { request, transactionRequestId, quote, pisp } = payment as Required<Payment>;
  const challenge = await bank.transactionChallenge(quote);
  payment.challenge = challenge;
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
      from: [pisp],
      waitMs: remaining(payment),
    }),
  );
  if (!authorization) return stepFailed(payment, 'transactionRequestAuthorizationFailed');
  if (authorization.responseType === 'REJECTED') return { kind: 'rejected' };
  payment.authorization = authorization;
  return undefined;
}

/** Rule 6: the hub's Auth service checks the signature with the consent's credential. */
async function verifySignature(payment: Payment): Promise<Outcome | undefined> {
  const { me, challenge, payingFrom, authorization } = payment as Required<Payment>;
  const { consentId } = payingFrom;
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
    waitMs: remaining(payment),
  });
  const verification = answerOf<ThirdpartyRequestsVerificationsIDPutResponse>(verifying);
  if (verification?.authenticationResponse !== 'VERIFIED') {
    return answeredWithError(verifying) || verification
      ? failure(errorInformation('thirdpartyTransactionAuthorizationNotValid'))
      : stepFailed(payment, 'thirdpartyAuthServiceError');
  }
  Object.assign(payment.view, { transactionRequestState: 'ACCEPTED', transactionState: 'PENDING' });
  return remaining(payment) <= 0 ? failure(errorInformation('transactionRequestExpired')) : undefined;
}

/** Rule 7: the transfer of the quoted terms; the payer's account follows once the switch has committed it. */
async function transferFundsToPayee(payment: Payment): Promise<Outcome> {
  const { me, quote, request } = payment as Required<Payment>;
  const payeeFsp = payeeFspOf(payment);
  upsertSearchAttributes([{ key: State, value: 'TRANSFERRING' }]);
  payment.transferAsked = true;
  const transferred = await transferFunds(
    payeeFsp,
    {
      transferId: uuid4(),
      payerFsp: me.dfspId,
      payeeFsp,
      amount: quote.transferAmount,
      ilpPacket: quote.ilpPacket,
      condition: quote.condition,
      expiration: request.expiration,
    },
    Math.max(remaining(payment), me.requestTimeoutMs),
  );
  if (!transferred.ok || transferred.body.transferState !== 'COMMITTED') return failure(errorInformation('transactionRequestTransferFailed'));
  return { kind: 'completed', amount: quote.transferAmount.amount };
}

const payeeFspOf = (payment: Payment) => payment.request.payee.partyIdInfo.fspId!;

/** Exactly one final outcome (Document 1, "Events"). It is sent once, with retries; it cannot undo what happened. */
async function tellPisp(payment: Payment, outcome: Outcome): Promise<void> {
  const { view } = payment;
  switch (outcome.kind) {
    case 'completed':
      Object.assign(view, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
      await bestEffort(toPisp(payment, { name: 'patch', body: { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' } }), 'final PATCH');
      break;
    case 'rejected':
      Object.assign(view, { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' });
      await bestEffort(toPisp(payment, { name: 'patch', body: { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' } }), 'final PATCH');
      break;
    case 'failed':
      view.errorInformation = outcome.errorInformation;
      await bestEffort(toPisp(payment, { name: 'error', body: { errorInformation: outcome.errorInformation } }), 'final error');
  }
  upsertSearchAttributes([{ key: State, value: outcome.kind.toUpperCase() }]);
}

/** The hold is committed once the transfer committed, released on any other known ending. */
async function resolveHold(transactionRequestId: string, ended: Outcome, outcomeKnown: boolean): Promise<void> {
  if (ended.kind === 'completed') return ledger.commitReservation({ transactionRequestId, amount: ended.amount });
  if (outcomeKnown) return ledger.releaseReservation(transactionRequestId);
  // A transfer whose end is unknown keeps its hold: released, the money could be spent twice. An operator resolves it.
  log.error('the transfer of a third-party transaction request ended unknown: its hold is kept', { transactionRequestId });
}
