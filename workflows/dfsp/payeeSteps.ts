import { proxyActivities } from '@temporalio/workflow';
import type { FspiopActivities, PayeeOutcome } from '../../activities/dfsp/fspiop/fspiopActivities';
import type { Resource } from '../../activities/shared/contracts/conversations';
import { errorInformation } from '../../activities/shared/contracts/errors';
import type { PeerMessage } from '../../activities/shared/contracts/peers';
import { bestEffort } from '../kit/failures';
import { messages } from '../participant/participantProxies';

/**
 * The bank's systems, asked as the payee. A refusal comes back as an outcome; a bank out of reach is asked again
 * with backoff, for as long as each workflow allows (see `payeeUntil`).
 */
export const payee = proxyActivities<FspiopActivities>({
  startToCloseTimeout: '70 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/** A payee step whose bank could not be reached after its retries: the requester is told 2001, as the SDK tells it. */
export async function orUnreachable<T>(step: Promise<PayeeOutcome<T>>): Promise<PayeeOutcome<T>> {
  try {
    return await step;
  } catch {
    return { ok: false, errorInformation: errorInformation('internalServerError', 'the DFSP backend could not be reached') };
  }
}

/** Sends a payee's answer (PUT) or error (PUT …/error) to the requester; a decided answer is not undone by a failed send. */
export function answer(to: string, resource: Resource, id: string, outcome: PayeeOutcome<unknown>): Promise<void> {
  const message = outcome.ok
    ? { to, resource, name: 'answer' as const, id, body: outcome.body }
    : { to, resource, name: 'error' as const, id, body: { errorInformation: outcome.errorInformation } };
  return bestEffort(messages.sendToSwitch(message), `${message.name} on ${resource}/${id}`);
}

/** Equal JSON values, whatever their key order: a repeated POST is the same request when its body is. */
export function sameBody(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && sameBody(left[key], right[key]));
}

/**
 * A repeated POST (Document 2, endpoint rule 3): the same request is answered again as before (the answer already
 * went out); one with the same ID and another body is refused 3106.
 */
export function answerRepeat(first: PeerMessage, repeat: PeerMessage, outcome: PayeeOutcome<unknown>): Promise<void> {
  const resource = first.resource;
  const id = (first.body as Record<string, string>)[resource === 'quotes' ? 'quoteId' : 'transferId'];
  if (sameBody(first.body, repeat.body)) return answer(repeat.source, resource, id, outcome);
  return answer(repeat.source, resource, id, {
    ok: false,
    errorInformation: errorInformation('modifiedRequest', `${resource} ${id} was asked before with other terms`),
  });
}
