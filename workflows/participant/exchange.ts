import { executeChild, workflowInfo } from '@temporalio/workflow';
import type { MessageName, Resource } from '../../api/contracts/conversations';
import type { ErrorInformation } from '../../api/contracts/errors';
import { OutgoingMessage, participantWorkflowIds, PeerMessage } from '../../api/contracts/peers';
import { rejectionOf } from '../kit/failures';
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
    // Only the switch's own refusal (a 4xx) says the request went nowhere. A send that kept failing otherwise (timeouts,
    // 5xx) may still have reached it, so its answer is awaited as any other: a payer must never take a transfer the
    // switch may have made for one that failed.
    const refusal = rejectionOf(error);
    if (refusal) return { kind: 'refused', errorInformation: refusal };
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
