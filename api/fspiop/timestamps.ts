import { HttpError } from '../http/httpError';

/** How far ahead of the hub's clock a participant's clock may run (ml-api-adapter's default callback time lag). */
const CLOCK_SKEW_MS = 200;

/** A fulfil from the future is refused at once (400, 3100), as by Mojaloop's hub. */
export function refuseFutureTimestamp(completedTimestamp: string | undefined): void {
  if (completedTimestamp && Date.parse(completedTimestamp) > Date.now() + CLOCK_SKEW_MS) {
    throw new HttpError(400, 'validationError', `completedTimestamp fails because future timestamp was provided`);
  }
}
