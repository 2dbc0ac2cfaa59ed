import { allHandlersFinished, CancellationScope, condition, isCancellation, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { SignalDefinition } from '@temporalio/workflow';
import { addressOf, FspiopResource } from '../../activities/shared/contracts/conversations';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { ReceivedRequest, RelayedCallback, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { deliveries } from './hubProxies';
import { bestEffort, deliveryFailureOf } from './failures';
import { inTurn, type Step } from './steps';
import { hasPatch } from './patches';
import { PATCHES } from '../../activities/shared/contracts/codeRevision';

export interface ConversationOptions {
  resource: FspiopResource;
  /** The business ID the DFSP chose (quoteId, transferId, …): the workflow ID's second half. */
  id: string;
  /** What the conversation is called in messages to DFSPs ("quote", "transfer"). */
  noun: string;
  /** Without `rawBody` when the hub never passes the request on as it came. */
  request: Omit<ReceivedRequest<unknown>, 'rawBody'> & { rawBody?: string };
  /** A POST repeating this conversation's ID while it runs. */
  repeatSignal: SignalDefinition<[RepeatedRequest]>;
}

/** The resource a message of the conversation is on, and the FSPIOP version its sender spoke. */
export interface MessageAbout {
  resource: FspiopResource;
  version: string;
}

/** A participant's message as the switch passes it on: its headers, and its body as sent (none for a GET). */
type Message = Pick<RelayedCallback, 'headers'> & { rawBody?: string };

/** How waiting for the other side ended. */
export type WaitOutcome = { kind: 'answered' } | { kind: 'expired' } | { kind: 'unreachable'; error: ErrorInformation };

/**
 * What every FSPIOP conversation through the switch does the same way: the duplicate rule (spec general rule 3),
 * forwarding a request until it is answered or expires, passing callbacks on byte for byte, the hub's own error
 * callbacks, the State search attribute, and the final answer that a repeated request gets again.
 */
export class Conversation {
  private finalAnswer?: () => Promise<void>;
  /** Set once the conversation's clock ran out: the other side's answer may then cross the outcome on its way in. */
  private expired = false;

  constructor(private readonly options: ConversationOptions) {
    setHandler(options.repeatSignal, (repeat) => this.answerRepeat(repeat));
  }

  private get version(): string {
    return this.options.request.version;
  }

  /**
   * An error of the hub's own, PUT /{resource}/{ID}/error, sent with FSPIOP-Source = the hub; `about` names a step of
   * this conversation on another resource (an authorization of a transaction request) and the version it spoke.
   */
  hubError(to: string, error: ErrorInformation, about: MessageAbout = { resource: this.options.resource, version: this.version }): Promise<void> {
    const { resource, version } = about;
    return deliveries.deliverFromHub({
      to,
      ...addressOf(resource, 'error', this.options.id),
      method: 'PUT',
      body: { errorInformation: error },
      resource,
      version,
    });
  }

  /** A message the hub states itself about this conversation (a notification, an outcome it restates). */
  hubMessage(to: string, method: 'PUT' | 'PATCH', body: unknown): Promise<void> {
    const { resource, id } = this.options;
    return deliveries.deliverFromHub({ to, ...addressOf(resource, 'answer', id), method, body, resource, version: this.version });
  }

  /** A participant's callback passed on with its own headers and body, byte for byte. */
  relay(to: string, kind: 'answer' | 'error', callback: RelayedCallback): Promise<void> {
    return this.forward(to, this.options.resource, kind, callback);
  }

  /**
   * A participant's message on another resource that is a step of this conversation (GET /authorizations/{ID} of a
   * transaction request, and its answers), passed on byte for byte; `query` follows a GET's path. One that cannot be
   * delivered is answered to its sender with the hub's error, as Mojaloop's hub does; an error callback only logged.
   */
  async passOn(to: string, about: MessageAbout, kind: 'get' | 'answer' | 'error', message: Message, query = ''): Promise<void> {
    const delivering = this.forward(to, about.resource, kind, message, query);
    if (kind === 'error') return bestEffort(delivering, `${about.resource} error callback to ${to}`);
    try {
      await delivering;
    } catch (error) {
      const from = message.headers['fspiop-source'];
      await bestEffort(this.hubError(from, deliveryFailureOf(error, to), about), `${about.resource} error to ${from}`);
    }
  }

  private forward(to: string, resource: FspiopResource, kind: 'get' | 'answer' | 'error', message: Message, query = ''): Promise<void> {
    const method = kind === 'get' ? 'GET' : 'PUT';
    return deliveries.deliver({ to, ...addressOf(resource, kind, this.options.id, query), method, headers: message.headers, rawBody: message.rawBody });
  }

  /** Refuses a callback from a participant that is not the one this conversation waits on; nothing else changes. */
  refuseStranger(from: string, detail: string, about?: MessageAbout): Promise<void> {
    return bestEffort(this.hubError(from, errorInformation('validationError', detail), about), `refusal to ${from}`);
  }

  /**
   * Forwards the request to `to` and waits until `answered()` holds or `waitMs` pass (none left: expired at once). The forward runs in its
   * own scope so that expiry cancels its retries instead of waiting them out; a forward that fails for good
   * (no endpoint, the DFSP refuses it, its retries ran out) ends the wait with its error. By default the request goes on as it
   * came; `forward` sends one the hub makes itself instead.
   */
  async forwardUntilAnswered(to: string, answered: () => boolean, waitMs: number, forward = () => this.forwardRequest(to)): Promise<WaitOutcome> {
    // A request that expired on its way here is not forwarded: the other side could only refuse it.
    if (waitMs <= 0) return this.expire();
    let unreachable: ErrorInformation | undefined;
    const scope = new CancellationScope();
    const forwarding = scope.run(forward).catch((error) => {
      if (!isCancellation(error)) unreachable = deliveryFailureOf(error, to);
    });
    const inTime = await condition(() => answered() || unreachable !== undefined, waitMs);
    if (!inTime) scope.cancel();
    await forwarding;
    if (!inTime) return this.expire();
    return answered() ? { kind: 'answered' } : { kind: 'unreachable', error: unreachable! };
  }

  /** Waits out the conversation's expiration, `waitMs` away (none left: not at all); what follows ends it on its clock. */
  async waitOut(waitMs: number): Promise<void> {
    if (waitMs > 0) await sleep(waitMs);
    this.expire();
  }

  private expire(): WaitOutcome {
    this.expired = true;
    return { kind: 'expired' };
  }

  /** The request passed on with its sender's headers and body, byte for byte. */
  private forwardRequest(to: string): Promise<void> {
    const { resource, request, id } = this.options;
    const conversation = `${resource}/${id}`;
    return deliveries.deliver({ to, ...addressOf(resource, 'request'), method: 'POST', headers: request.headers, rawBody: request.rawBody, conversation });
  }

  setState(state: string): void {
    upsertSearchAttributes([{ key: State, value: state }]);
  }

  /**
   * Ends the conversation for the requester: records the state, runs `record` (the conversation's own
   * bookkeeping), then sends the final answer, which a repeated request gets again. A final answer that still
   * fails after its retries does not undo the decision: the ledger is right and the DFSP can ask with GET.
   * A conversation the other side answers more than once (a transaction request: RECEIVED, later REJECTED)
   * finishes with each answer; a repeated request gets the latest.
   */
  async finish(state: string, answer: () => Promise<void>, record?: () => Promise<void>): Promise<void> {
    this.setState(state);
    await record?.();
    this.finalAnswer = answer;
    await bestEffort(answer(), `final answer of ${this.options.noun} ${this.options.id}`);
  }

  /**
   * Waits for the signal handlers still answering (repeats, strangers, late answers) before the workflow completes or
   * continues as new. Resolves true when it may; false when `more()` says messages came that the workflow handles
   * itself first (it closes again after).
   *
   * A signal that reaches the server while the workflow task that completes the workflow runs fails that task
   * (UnhandledCommand), and the task runs again from the last one recorded: its local activities — the ledger step,
   * the answers just sent — are recorded only with the task, so they run again, and the signal, now seen first, may
   * even turn the outcome. After an expiry such a signal is to be expected (the other side's answer crossing the
   * outcome), so an expired conversation ends the task that carried out its expiry before it completes, and completes
   * in a task that ran no local activity: a signal that came meanwhile is answered as a late one.
   */
  async close(more: () => boolean = () => false): Promise<boolean> {
    await condition(allHandlersFinished);
    // Expired runs recorded before this closed in a task of its own replay as recorded (test/replay holds such histories).
    if (!this.expired || !hasPatch(PATCHES.expiryClosesOnItsOwn)) return true;
    for (;;) {
      // A timer is the least that ends a workflow task without completing the workflow: the server records the task
      // with its local activities, and the signals that came meanwhile come at the latest with the timer's firing,
      // whose task hands them to their handlers before it resolves the timer.
      await sleep(1);
      if (more()) return false;
      // A handler still running was started by a signal that came meanwhile and may send something itself: the
      // workflow waits for it, then ends that task too.
      if (allHandlersFinished()) return true;
      await condition(allHandlersFinished);
    }
  }

  /** The conversation's steps in turn over `state` (workflows/kit/steps.ts), then closed once its outcome is known. */
  async run<State, Outcome>(state: State, steps: ReadonlyArray<Step<State, Outcome>>): Promise<Outcome> {
    const outcome = await inTurn(state, steps);
    await this.close();
    return outcome;
  }

  private async answerRepeat(repeat: RepeatedRequest): Promise<void> {
    const { noun, id, request } = this.options;
    if (repeat.requestHash !== request.requestHash) {
      const modified = errorInformation('modifiedRequest', `${noun} ${id} exists with different details`);
      await bestEffort(this.hubError(repeat.headers['fspiop-source'], modified), 'duplicate error');
    } else if (this.finalAnswer) {
      await bestEffort(this.finalAnswer(), 'resent final answer');
    }
    // The same request while the conversation is still open: ignored, its answer will come.
  }
}
