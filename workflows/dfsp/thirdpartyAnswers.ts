import type { ExchangeOutcome } from '../participant/exchange';

/** The answer an exchange waited for, or undefined when it ended otherwise (an error, no answer in time, a refusal). */
export function answerOf<T>(outcome: ExchangeOutcome): T | undefined {
  return outcome.kind === 'answered' && outcome.message.name === 'answer' ? (outcome.message.body as T) : undefined;
}

/** Whether the peer answered with an error callback (as opposed to not answering at all). */
export const answeredWithError = (outcome: ExchangeOutcome): boolean => outcome.kind === 'answered' && outcome.message.name === 'error';
