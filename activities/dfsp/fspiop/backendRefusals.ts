import { ErrorInformation, fspiopErrors } from '../../shared/contracts/errors';
import { CoreBankingRefusal } from '../backend/coreBanking';

/** The longest errorDescription FSPIOP allows. */
const MAX_DESCRIPTION = 128;

const KNOWN = new Map<string, string>(Object.values(fspiopErrors).map(({ code, description }) => [code, description]));

/**
 * The error callback for a backend's refusal, as the sdk-scheme-adapter makes it (_handleError): a statusCode of
 * Mojaloop's catalogue is that error, with the backend's message as its description when it gave one; another
 * four-digit code is passed on as the backend's own; anything else is 2001. Undefined when `error` is no refusal.
 */
export function refusalOf(error: unknown): ErrorInformation | undefined {
  if (!(error instanceof CoreBankingRefusal)) return undefined;
  const code = error.statusCode;
  if (code && /^[1-9]\d{3}$/.test(code)) {
    const description = error.message || KNOWN.get(code) || 'Backend error';
    return { errorCode: code, errorDescription: description.slice(0, MAX_DESCRIPTION) };
  }
  return {
    errorCode: fspiopErrors.internalServerError.code,
    errorDescription: `${fspiopErrors.internalServerError.description} - ${error.message}`.slice(0, MAX_DESCRIPTION),
  };
}
