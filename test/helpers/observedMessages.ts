import type { Client } from '@temporalio/client';
import type { MessageName, Resource } from '../../activities/shared/contracts/conversations';
import type { ObservedConversation, ObservedFacts, ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { observedConversationQuery, observedMessageSignal } from '../../workflows/kit/observer';
import { pollUntil } from './polling';
import type { StubbedWorkflows } from './stubbedWorkflows';

// The observers of third-party conversations (linking, thirdpartyTransaction) in workflow tests: messages as the
// gateway tells them as they pass the switch, and what an observer has made of them.

/** A message of a third-party conversation as the gateway tells its observer, taken by the switch now. */
export function observedMessage(resource: Resource, message: MessageName, id: string, from: string, to: string, facts: ObservedFacts = {}): ObservedMessage {
  return { resource, message, id, from, to, at: new Date().toISOString(), facts };
}

/** An observer started as the gateway starts it on its conversation's first request: with that request signalled. */
export function startObserving(context: StubbedWorkflows, workflowType: 'linking' | 'thirdpartyTransaction', workflowId: string, first: ObservedMessage) {
  return context.client.workflow.signalWithStart(workflowType, {
    workflowId,
    taskQueue: context.taskQueue,
    args: [],
    signal: observedMessageSignal,
    signalArgs: [first],
  });
}

/** What an observer has seen, once its state is `state` (or as it is after the wait, for the caller's assertion to name). */
export function observedAs(client: Client, workflowId: string, state: string): Promise<ObservedConversation> {
  return pollUntil(
    () => client.workflow.getHandle(workflowId).query(observedConversationQuery),
    (conversation) => conversation.state === state,
  );
}
