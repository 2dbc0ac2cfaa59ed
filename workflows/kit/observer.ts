import { condition, defineQuery, defineSignal, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import type { ObservedConversation, ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { type Expiration, expirationAt, instantOf, msUntil } from '../../activities/shared/contracts/expiry';

/**
 * A message of the observed conversation, as it passed through the switch. The signal and query keep the names they
 * were first recorded under (when an observer was called a follower): running workflows and recorded histories use them.
 */
export const observedMessageSignal = defineSignal<[ObservedMessage]>('followedMessage');
export const observedConversationQuery = defineQuery<ObservedConversation>('followedConversation');

/** How one kind of third-party conversation moves, in its own states. */
export interface ObserverScript<S extends string> {
  /** Its states in the order a conversation passes them; a message never moves it back. */
  order: readonly S[];
  /** States after which nothing more is expected: the observer ends. */
  final: readonly S[];
  /** The state a message moves the conversation to, if it moves it. */
  stateAfter(message: ObservedMessage): S | undefined;
  /** What an operator searches by, learnt from a message (a consent's ID once it is known). */
  searchAttributes?(message: ObservedMessage): SearchAttributeUpdatePair[];
  /**
   * When the conversation is over if it has not ended: a message may name it (a transaction request's expiration),
   * at most MAX_OBSERVING_MS after the message arrives.
   */
  deadline(message: ObservedMessage): Expiration | undefined;
  /** How long a conversation naming no deadline is observed. */
  defaultWindowMs: number;
}

/**
 * The longest a conversation is observed past the message that names its deadline. The deadline is the PISP's to
 * choose (a transaction request's expiration may be in the year 9999), and the hub does not keep an observer for it.
 */
export const MAX_OBSERVING_MS = 24 * 60 * 60 * 1000;

export interface ObserverOutcome {
  state: string;
  messages: number;
}

/**
 * Observes a third-party conversation that the switch routes but does not take part in: every message the gateway
 * passes on arrives as a signal and may move the conversation's state, which the State search attribute shows. A
 * conversation not over by its deadline is marked EXPIRED (Document 1: the PISP then treats it as failed), so an
 * operator can count them (`State = 'EXPIRED'`). Messages may arrive out of order: the state only moves forward.
 */
export async function observe<S extends string>(script: ObserverScript<S>): Promise<ObserverOutcome> {
  const messages: ObservedMessage[] = [];
  // A PISP may poll with GET as often as it likes: the first GET of each resource is kept, the others only counted.
  const polled = new Set<string>();
  let repeatedGets = 0;
  let state: string = 'OBSERVING';
  let deadline = expirationAt(Date.now() + script.defaultWindowMs);
  const rank = (value: string) => script.order.indexOf(value as S);
  const isOver = () => script.final.includes(state as S);

  setHandler(observedMessageSignal, (message) => {
    if (message.message === 'get' && polled.has(message.resource)) repeatedGets++;
    else messages.push(message);
    if (message.message === 'get') polled.add(message.resource);
    deadline = capped(script.deadline(message)) ?? deadline;
    const updates = script.searchAttributes?.(message) ?? [];
    const next = script.stateAfter(message);
    if (next && !isOver() && rank(next) >= rank(state)) {
      state = next;
      updates.push({ key: State, value: state });
    }
    if (updates.length > 0) upsertSearchAttributes(updates);
  });
  setHandler(observedConversationQuery, () => ({ state, deadline, messages, repeatedGets }));

  // The deadline may move while waiting (the request naming it can arrive after another message): wait again.
  while (!isOver()) {
    const waitingFor = deadline;
    if (await condition(() => isOver() || deadline !== waitingFor, Math.max(msUntil(waitingFor, Date.now()), 1))) continue;
    state = 'EXPIRED';
    upsertSearchAttributes([{ key: State, value: state }]);
    break;
  }
  return { state, messages: messages.length };
}

/** A deadline a message names, brought forward to MAX_OBSERVING_MS from now; none if it names none. */
function capped(named: Expiration | undefined): Expiration | undefined {
  return named === undefined ? undefined : expirationAt(Math.min(instantOf(named), Date.now() + MAX_OBSERVING_MS));
}
