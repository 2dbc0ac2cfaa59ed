import { condition, continueAsNew, defineQuery, defineSignal, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type {
  AuthorizationQuery,
  AuthorizationsIDPutResponse,
  TransactionRequestRecordState,
  TransactionRequestsIDPutResponse,
  TransactionRequestsPostRequest,
} from '../../activities/shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { ErrorCallbackBody, FspiopHeaders, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { followUps, records } from '../kit/hubProxies';
import { Conversation, MessageAbout } from '../kit/conversation';
import { answerWindow, bestEffort, errorOf } from '../kit/failures';
import { inTurn } from '../kit/steps';

export type TransactionRequestInput = ReceivedRequest<TransactionRequestsPostRequest> & {
  /** Set when an earlier run of the conversation continued as new: what it had seen, and the messages it had not handled. */
  continued?: { view: TransactionRequestView; idleMs: number; inbox: Incoming[] };
};

/** The payer FSP's PUT /transactionRequests/{ID} or PUT /transactionRequests/{ID}/error. */
export type TransactionRequestAnswer =
  { kind: 'answer'; callback: ReceivedCallback<TransactionRequestsIDPutResponse> } | { kind: 'error'; callback: ReceivedCallback<ErrorCallbackBody> };

/** A step of the authorization (Document 2, /authorizations): its {ID} is the transaction request's. */
export type AuthorizationMessage = { version: string } & (
  | { kind: 'authorizationGet'; headers: FspiopHeaders; query: AuthorizationQuery; queryString: string }
  | { kind: 'authorizationAnswer'; callback: ReceivedCallback<AuthorizationsIDPutResponse> }
  | { kind: 'authorizationError'; callback: ReceivedCallback<ErrorCallbackBody> }
);

/** One authorization round: the payer FSP's GET (its query), then the payee FSP's answer or error. */
export interface AuthorizationRound {
  request?: AuthorizationQuery;
  responseType?: AuthorizationsIDPutResponse['responseType'];
  errorCode?: string;
}

/** The whole merchant-initiated conversation as the switch saw it. */
export interface TransactionRequestView {
  state: TransactionRequestRecordState;
  payeeFsp: string;
  payerFsp?: string;
  authorizations: AuthorizationRound[];
}

export const transactionRequestAnswerSignal = defineSignal<[TransactionRequestAnswer]>('transactionRequestAnswer');
/** GET /authorizations/{ID}, PUT /authorizations/{ID} or PUT …/error about this transaction request. */
export const authorizationSignal = defineSignal<[AuthorizationMessage]>('authorization');
/** A POST /transactionRequests repeating this request's ID while it is in progress. */
export const repeatedTransactionRequestSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');
export const transactionRequestQuery = defineQuery<TransactionRequestView>('transactionRequest');

type Incoming = TransactionRequestAnswer | AuthorizationMessage;

/** After these the payer FSP has nothing more to say about the request itself. */
export const FINAL: TransactionRequestRecordState[] = ['ACCEPTED', 'REJECTED', 'ERROR', 'EXPIRED'];

/**
 * The authorization rounds one transaction request may have. The spec leaves the number of OTP retries to the payer
 * FSP (each GET /authorizations tells the payee FSP its retriesLeft); the switch bounds them, far above any OTP
 * policy, so that what the conversation keeps (its view, carried from run to run) stays small.
 */
export const MAX_AUTHORIZATION_ROUNDS = 10;

/**
 * The messages one run of the conversation takes before it goes on in a fresh run: each adds a few events to the
 * history (some four for an answer passed on), and Temporal ends a run at 51,200 events, answering no one. Counted here because Temporal's own suggestion
 * (from 4,096 events) reaches the workflow only with its next workflow task, which local activities can postpone.
 */
const MESSAGES_PER_RUN = 500;

/**
 * A transaction request through the switch (Document 2, /transactionRequests and /authorizations; Mojaloop's
 * transaction-requests service): the payee FSP asks the payer FSP to approve a payment. The switch forwards the
 * request to the payer FSP and passes its answers (RECEIVED, later perhaps REJECTED) back, or 3301 if none comes in
 * time. The authorization rounds that follow (the payer FSP's GET /authorizations with an OTP, the payee FSP's
 * answer) pass through this same workflow, so the Temporal UI shows the conversation in one place. It stays open
 * until the payer's answer is final and no round is open, or until nothing has happened for a while.
 */
export async function transactionRequest(input: TransactionRequestInput): Promise<TransactionRequestView> {
  const { body, headers, continued } = input;
  const { transactionRequestId: id } = body;
  const payeeFsp = headers['fspiop-source'];
  const talk = new Conversation({
    resource: 'transactionRequests',
    id,
    noun: 'transaction request',
    request: input,
    repeatSignal: repeatedTransactionRequestSignal,
  });
  const held: HeldRequest = {
    input,
    id,
    payeeFsp,
    talk,
    view: continued?.view ?? { state: 'REQUESTED', payeeFsp, authorizations: [] },
    payerFsp: continued?.view.payerFsp,
    inbox: [...(continued?.inbox ?? [])],
    idleMs: continued?.idleMs ?? 0,
    taken: 0,
  };
  const take = async (message: Incoming) => {
    // Once the payer FSP is known an outsider is refused at once; earlier messages wait in the inbox to be checked.
    if (held.payerFsp !== undefined && !belongs(held, message)) return refuseOutsider(held, message);
    held.inbox.push(message);
  };
  setHandler(transactionRequestAnswerSignal, take);
  setHandler(authorizationSignal, take);
  setHandler(transactionRequestQuery, () => held.view);
  return inTurn(held, continued ? [passOnUntilQuiet] : [registerRequest, forwardToPayer, passOnUntilQuiet]);
}

/** What the steps of one transaction request share, from run to run of the conversation. */
interface HeldRequest {
  readonly input: TransactionRequestInput;
  readonly id: string;
  readonly payeeFsp: string;
  readonly talk: Conversation;
  readonly view: TransactionRequestView;
  /** Known once the request is registered; until then messages wait in `inbox` to be checked. */
  payerFsp?: string;
  /** Messages in the order they came, handled one at a time so what the switch passes on keeps that order. */
  readonly inbox: Incoming[];
  /** How long the conversation stays open after its last message (TRANSACTION_REQUEST_IDLE_SECONDS). */
  idleMs: number;
  /** Messages this run has handled. */
  taken: number;
}

/** The switch records the request and finds the payer FSP it goes to; a request it refuses is answered at once. */
async function registerRequest(held: HeldRequest): Promise<TransactionRequestView | undefined> {
  const { body, headers, requestHash, version } = held.input;
  const { id, payeeFsp } = held;
  try {
    const registered = await records.registerTransactionRequest({ body, payeeFsp, destination: headers['fspiop-destination'], requestHash });
    if (registered.repeat) {
      // Answered by an earlier workflow whose history has expired: answer from the record, change nothing.
      const requester = { source: payeeFsp, destination: headers['fspiop-destination'], version, headers };
      await bestEffort(followUps.answerFollowUp({ kind: 'repeatedTransactionRequest', transactionRequestId: id, requestHash, requester }), 'repeat');
      return held.view;
    }
    held.payerFsp = registered.payerFsp;
    held.idleMs = registered.idleMs;
    held.view.payerFsp = registered.payerFsp;
  } catch (error) {
    await refuse(held, 'ERROR', errorOf(error));
  }
  return undefined;
}

/**
 * The request goes to the payer FSP until it shows it has it: any message of the conversation (an answer, or already
 * an authorization). Without an expiration the default wait (kit) is for the payer FSP's first answer (RECEIVED);
 * running out counts as expiry, 3301, as for quotes (3302). Not 2004: that would invite the requester to wait on or
 * retry a request the switch has given up on.
 */
async function forwardToPayer(held: HeldRequest): Promise<undefined> {
  if (held.payerFsp === undefined) return undefined;
  const waited = await held.talk.forwardUntilAnswered(
    held.payerFsp,
    () => held.inbox.some((message) => belongs(held, message)),
    answerWindow(held.input.body.expiration),
  );
  if (waited.kind === 'expired') await refuse(held, 'EXPIRED', expired(held));
  if (waited.kind === 'unreachable') await refuse(held, 'ERROR', waited.error);
  return undefined;
}

/**
 * The payer FSP's answers go back to the payee FSP, and the authorization rounds pass between them, in the order they
 * came, until the payer's answer is final and no round is open, or nothing has happened for `idleMs`.
 */
async function passOnUntilQuiet(held: HeldRequest): Promise<TransactionRequestView> {
  const { inbox, view, talk } = held;
  for (;;) {
    while (inbox.length > 0) {
      // Long before the history nears Temporal's limit, the conversation goes on in a fresh run, with what it has
      // seen and the messages still to handle.
      if ((held.taken >= MESSAGES_PER_RUN || workflowInfo().continueAsNewSuggested) && patched('transaction-request-continues-as-new')) {
        await talk.close();
        return continueAsNew<typeof transactionRequest>({ ...held.input, continued: { view, idleMs: held.idleMs, inbox } });
      }
      await handle(held, inbox.shift()!);
      held.taken++;
    }
    const quiet = (FINAL.includes(view.state) && !roundOpen(view)) || !(await condition(() => inbox.length > 0, Math.max(1, held.idleMs)));
    // A message that came while an expired request closed (the payer FSP's answer crossing the 3301) is handled first.
    if (quiet && (await talk.close(() => inbox.length > 0))) return view;
  }
}

async function handle(held: HeldRequest, message: Incoming): Promise<void> {
  if (!belongs(held, message)) return refuseOutsider(held, message);
  const { talk, view, payeeFsp } = held;
  switch (message.kind) {
    case 'answer':
    case 'error': {
      const { callback, kind } = message;
      // The requester was told the request expired; a payer FSP that answers now is told so too.
      if (view.state === 'EXPIRED') return bestEffort(talk.hubError(held.payerFsp!, expired(held)), 'late answer');
      const state = kind === 'answer' ? message.callback.body.transactionRequestState : 'ERROR';
      return answer(held, state, () => talk.relay(payeeFsp, kind, callback), { headers: callback.headers, body: callback.rawBody });
    }
    case 'authorizationGet':
      if (roundsRunOut(view)) return refuseRound(held, message);
      view.authorizations.push({ request: message.query });
      talk.setState('AUTHORIZING');
      return passOn(held, message, 'get', { headers: message.headers }, `?${message.queryString}`);
    case 'authorizationAnswer':
      if (!roundOpen(view) && roundsRunOut(view)) return refuseRound(held, message);
      answerRound(view, { responseType: message.callback.body.responseType });
      talk.setState(`AUTHORIZATION_${message.callback.body.responseType}`);
      return passOn(held, message, 'answer', message.callback);
    case 'authorizationError':
      if (!roundOpen(view) && roundsRunOut(view)) return refuseRound(held, message);
      answerRound(view, { errorCode: message.callback.body.errorInformation.errorCode });
      talk.setState('AUTHORIZATION_ERROR');
      return passOn(held, message, 'error', message.callback);
  }
}

/** The payer FSP's answer ends the request itself: it is recorded, and a repeat of the POST gets it again. */
function answer(held: HeldRequest, state: TransactionRequestRecordState, send: () => Promise<void>, stored: { headers?: FspiopHeaders; body: string }) {
  const { id: transactionRequestId, input } = held;
  held.view.state = state;
  return held.talk.finish(state, send, () => records.answerTransactionRequest({ transactionRequestId, requestHash: input.requestHash, state, ...stored }));
}

function refuse(held: HeldRequest, state: 'ERROR' | 'EXPIRED', error: ErrorInformation) {
  return answer(held, state, () => held.talk.hubError(held.payeeFsp, error), { body: JSON.stringify({ errorInformation: error }) });
}

function expired({ id, input }: HeldRequest): ErrorInformation {
  const { expiration } = input.body;
  return errorInformation(
    'transactionRequestExpired',
    expiration ? `transaction request ${id} expired at ${expiration}` : `transaction request ${id} was not answered in time`,
  );
}

function sourceOf(message: Incoming): string {
  return ('callback' in message ? message.callback.headers : message.headers)['fspiop-source'];
}

function destinationOf(message: Incoming): string | undefined {
  return ('callback' in message ? message.callback.headers : message.headers)['fspiop-destination'];
}

/** Answers come from the payer FSP; authorizations go between the payer and payee FSPs, either way. */
function belongs({ payerFsp, payeeFsp }: HeldRequest, message: Incoming): boolean {
  if (payerFsp === undefined) return false;
  const from = sourceOf(message);
  if (message.kind === 'answer' || message.kind === 'error') return from === payerFsp;
  const to = destinationOf(message);
  const other = from === payerFsp ? payeeFsp : payerFsp;
  return (from === payerFsp || from === payeeFsp) && (to === undefined || to === other);
}

function refuseOutsider({ talk, id, payerFsp, payeeFsp }: HeldRequest, message: Incoming): Promise<void> {
  const from = sourceOf(message);
  if (message.kind === 'answer' || message.kind === 'error') {
    return talk.refuseStranger(
      from,
      payerFsp ? `only the payer FSP ${payerFsp} may answer transaction request ${id}` : `transaction request ${id} was refused`,
    );
  }
  const detail = `the authorization of transaction request ${id} is between ${payerFsp ?? 'its payer FSP'} and ${payeeFsp}`;
  return talk.refuseStranger(from, detail, authorizationsIn(message));
}

/** An authorization goes to the other side of the conversation, whether or not its sender named it. */
function passOn(
  { talk, payerFsp, payeeFsp }: HeldRequest,
  message: AuthorizationMessage,
  kind: 'get' | 'answer' | 'error',
  sent: { headers: FspiopHeaders; rawBody?: string },
  query = '',
) {
  const to = sourceOf(message) === payerFsp ? payeeFsp : payerFsp!;
  return talk.passOn(to, authorizationsIn(message), kind, sent, query);
}

function authorizationsIn(message: AuthorizationMessage): MessageAbout {
  return { resource: 'authorizations', version: message.version };
}

function roundOpen(view: TransactionRequestView): boolean {
  const last = view.authorizations.at(-1);
  return last?.request !== undefined && last.responseType === undefined && last.errorCode === undefined;
}

/** No round may start any more: the request has had all it may have. */
function roundsRunOut(view: TransactionRequestView): boolean {
  return view.authorizations.length >= MAX_AUTHORIZATION_ROUNDS && patched('authorization-rounds-bounded');
}

/** A round beyond the bound goes nowhere: its sender is told, and the conversation is otherwise as it was. */
function refuseRound({ talk, id }: HeldRequest, message: AuthorizationMessage): Promise<void> {
  const from = sourceOf(message);
  const refusal = errorInformation('validationError', `transaction request ${id} has had the ${MAX_AUTHORIZATION_ROUNDS} authorization rounds it may have`);
  return bestEffort(talk.hubError(from, refusal, authorizationsIn(message)), `refusal to ${from}`);
}

/** The open round gets its answer; an answer no GET asked for (the SDK's own REJECTED) is a round of its own. */
function answerRound(view: TransactionRequestView, outcome: Pick<AuthorizationRound, 'responseType' | 'errorCode'>): void {
  if (roundOpen(view)) Object.assign(view.authorizations.at(-1)!, outcome);
  else view.authorizations.push(outcome);
}
