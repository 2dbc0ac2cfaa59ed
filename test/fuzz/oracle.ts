import { jsonOrUndefined } from '../helpers/http';
import type { Expectation, Refusal } from './cases';
import type { WireAnswer } from './wire';

/**
 * What is wrong with the hub's synchronous answer to a case, or undefined if nothing is. Never a 5xx and never no
 * answer; a 4xx always carries ErrorInformation with a client error's code (3xxx) and a description; a malformed
 * message is never acknowledged, and one owed a particular refusal gets that one. A well-formed message may be
 * acknowledged: what follows it is checked afterwards.
 */
export function problemWith(answer: WireAnswer | Error, expectation: Expectation, refusal?: Refusal): string | undefined {
  if (answer instanceof Error) return `no answer (${answer.message})`;
  const { status } = answer;
  const text = answer.body.toString('utf-8');
  if (status >= 500) return `${status} ${text.slice(0, 200)}`;
  if (status >= 400) {
    const information = jsonOrUndefined(text)?.errorInformation;
    const wellFormed = /^3\d{3}$/.test(information?.errorCode) && typeof information?.errorDescription === 'string' && information.errorDescription !== '';
    if (!wellFormed) return `${status} without ErrorInformation: ${JSON.stringify(text.slice(0, 200))}`;
    if (refusal && (status !== refusal.status || information.errorCode !== refusal.code)) {
      return `${status} ${information.errorCode} instead of ${refusal.status} ${refusal.code}: ${information.errorDescription.slice(0, 120)}`;
    }
    return undefined;
  }
  if (status < 200 || status >= 300) return `${status}, neither an acknowledgement nor a refusal`;
  return expectation === 'refused' ? `${status}: a malformed message was acknowledged` : undefined;
}
