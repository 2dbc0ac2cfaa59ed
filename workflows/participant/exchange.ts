import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, patched, sleep, workflowInfo } from '@temporalio/workflow';
import type { MessageName } from '../../activities/shared/contracts/conversations';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';
import { OutgoingMessage, participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { rejectionOf } from '../kit/failures';
import { messages } from './participantProxies';
import { Inbox } from './inbox';

export interface ExchangeInput {
  request: OutgoingMessage;
  /** The ID the answer comes back on, on the request's resource. */
  answerId: string;
  /** The kinds of message that answer it; by default a PUT or its error. */
  answeredBy?: MessageName[];
  /**
   * Who answers it besides the switch, whose own messages always may (it answers for an addressee it cannot reach):
   * another that knows the ID cannot answer in their place. By default the addressee (`request.to`), or anyone when
   * the request names none and the switch finds who answers (GET /parties); the Auth service for a registration;
   * `[]` where only the switch answers (GET /transfers).
   */
  from?: string[];
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
  const { resource } = input.request;
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
  // Before the patch, anyone's message answered a request that named no `from`, the addressee's peers' included.
  const answerer = patched('exchange-answered-by-addressee-or-switch') ? answererOf(input) : (m: PeerMessage) => input.from?.includes(m.source) ?? true;
  const message = await inbox.next((m) => m.resource === resource && answeredBy.includes(m.name) && answerer(m), input.waitMs);
  return message ? { kind: 'answered', message } : { kind: 'timedOut' };
}

/** Whether a message comes from one who may answer the exchange (ExchangeInput.from). */
function answererOf({ request, from }: ExchangeInput): (message: PeerMessage) => boolean {
  const answerers = from ?? (request.to === undefined ? undefined : [request.to]);
  return (message) => message.fromSwitch === true || (answerers?.includes(message.source) ?? true);
}

/** Runs an exchange as a child of the calling conversation; its ID is the answer's resource and ID. */
export function exchangeAsChild(input: ExchangeInput): Promise<ExchangeOutcome> {
  return executeChild(exchange, {
    workflowId: participantWorkflowIds.exchange(input.request.resource, input.answerId),
    taskQueue: workflowInfo().taskQueue,
    args: [input],
  });
}

/**
 * An exchange whose name another conversation of this participant may hold at the moment (two lookups of one party,
 * two linkings of one account): it waits its turn rather than take an answer it did not ask for, within `waitMs` in all.
 */
export async function exchangeInTurn(input: ExchangeInput, retryMs = 500): Promise<ExchangeOutcome> {
  const deadline = Date.now() + input.waitMs;
  for (;;) {
    try {
      return await exchangeAsChild({ ...input, waitMs: deadline - Date.now() });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      if (Date.now() + retryMs >= deadline) return { kind: 'timedOut' };
      await sleep(retryMs);
    }
  }
}
