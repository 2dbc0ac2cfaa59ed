import type { ErrorInformation } from '../../activities/shared/contracts/errors';
import { errorInformationOf } from '../../activities/shared/contracts/peers';
import type { ExchangeOutcome } from '../participant/exchange';

// How the DFSP's workflows read the end of an exchange: the answer (PUT), or the error that stands for it.

/** How a request ended: the answer, or the error that stands for it (the peer's, the switch's, or a timeout). */
export type Answered<T> = { ok: true; body: T } | { ok: false; errorInformation: ErrorInformation };

export const failedWith = (errorInformation: ErrorInformation): Answered<never> => ({ ok: false, errorInformation });

/**
 * An exchange's end as Answered: the PUT's body, the error callback's or the switch's refusal's ErrorInformation,
 * and `timedOut` when no answer came in time.
 */
export function answeredOf<T>(outcome: ExchangeOutcome, timedOut: ErrorInformation): Answered<T> {
  if (outcome.kind === 'refused') return failedWith(outcome.errorInformation);
  if (outcome.kind === 'timedOut') return failedWith(timedOut);
  if (outcome.message.name === 'error') return failedWith(errorInformationOf(outcome.message));
  return { ok: true, body: outcome.message.body as T };
}

/** The answer an exchange waited for, or undefined when it ended otherwise (an error, no answer in time, a refusal). */
export function answerOf<T>(outcome: ExchangeOutcome): T | undefined {
  return outcome.kind === 'answered' && outcome.message.name === 'answer' ? (outcome.message.body as T) : undefined;
}

/** Whether the peer answered with an error callback (as opposed to not answering at all). */
export const answeredWithError = (outcome: ExchangeOutcome): boolean => outcome.kind === 'answered' && outcome.message.name === 'error';
