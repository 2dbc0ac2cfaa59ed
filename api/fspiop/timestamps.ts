import { HttpError } from '../../activities/shared/platform/httpError';

/** How far ahead of the hub's clock a participant's clock may run (ml-api-adapter's default callback time lag). */
const CLOCK_SKEW_MS = 200;

/** The words of central-ledger's check, which Mojaloop's tooling matches on. */
export const FUTURE_TIMESTAMP = 'completedTimestamp fails because future timestamp was provided';

/** Whether a fulfil's completedTimestamp lies ahead of the hub's clock, beyond the skew allowed. */
export function fromTheFuture(completedTimestamp: string | undefined): boolean {
  return completedTimestamp !== undefined && Date.parse(completedTimestamp) > Date.now() + CLOCK_SKEW_MS;
}

/** A transfer's fulfil from the future is refused at once (400, 3100), as by Mojaloop's hub. */
export function refuseFutureTimestamp(completedTimestamp: string | undefined): void {
  if (fromTheFuture(completedTimestamp)) throw new HttpError(400, 'validationError', FUTURE_TIMESTAMP);
}
