import { executeChild, workflowInfo } from '@temporalio/workflow';
import type { MessageName, Resource } from '../../api/contracts/conversations';
import type { ErrorInformation } from '../../api/contracts/errors';
import { OutgoingMessage, participantWorkflowIds, PeerMessage } from '../../api/contracts/peers';
import { errorOf } from '../kit/failures';
import { messages } from './activities';
import { Inbox } from './inbox';

export interface ExchangeInput {
  request: OutgoingMessage;
  /** The resource and ID the answer comes back on (by default the request's resource and `answerId`). */
  answerResource?: Resource;
  answerId: string;
  /** The kinds of message that answer it; by default a PUT or its error. */
  answeredBy?: MessageName[];
  waitMs: number;
}

/** How an exchange ended: the answer that came, no answer in time, or the switch refusing the request. */
export type ExchangeOutcome = { kind: 'answered'; message: PeerMessage } | { kind: 'timedOut' } | { kind: 'refused'; errorInformation: ErrorInformation };

/**
 * One request a connector sends and the one message that answers it, as a workflow named after that answer
 * (participantWorkflowIds.exchange), so the gateway hands it over by the path ID alone. It is started before the
 * request goes out, so no answer can arrive before it listens.
 */
export async function exchange(input: ExchangeInput): Promise<ExchangeOutcome> {
  const inbox = new Inbox();
  const resource = input.answerResource ?? input.request.resource;
  const answeredBy = input.answeredBy ?? ['answer', 'error'];
  try {
    await messages.sendToSwitch(input.request);
  } catch (error) {
    return { kind: 'refused', errorInformation: errorOf(error) };
  }
  const message = await inbox.next((m) => m.resource === resource && answeredBy.includes(m.name), input.waitMs);
  return message ? { kind: 'answered', message } : { kind: 'timedOut' };
}

/** Runs an exchange as a child of the calling conversation; its ID is the answer's resource and ID. */
export function exchangeAsChild(input: ExchangeInput): Promise<ExchangeOutcome> {
  const resource = input.answerResource ?? input.request.resource;
  return executeChild(exchange, {
    workflowId: participantWorkflowIds.exchange(resource, input.answerId),
    taskQueue: workflowInfo().taskQueue,
    args: [input],
  });
}
