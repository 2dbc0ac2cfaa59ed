import { ActivityFailure, ApplicationFailure, log } from '@temporalio/workflow';
import { errorInformation, ErrorInformation, HUB_REJECTION } from '../../activities/shared/contracts/errors';
import { type Expiration, msUntil } from '../../activities/shared/contracts/expiry';

/** The ErrorInformation of an activity's business rejection, or undefined for any other failure. */
export function rejectionOf(error: unknown): ErrorInformation | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type === HUB_REJECTION) return cause.details?.[0] as ErrorInformation;
  return undefined;
}

/**
 * An update's refusal as the API answers it: the rejection an activity met, or a 3100 with `description`, carried as
 * the activities carry theirs (HUB_REJECTION with the ErrorInformation), so the gateway reads both the same way.
 */
export function refusalOf(rejected: ErrorInformation | string): ApplicationFailure {
  const information = typeof rejected === 'string' ? errorInformation('validationError', rejected) : rejected;
  return ApplicationFailure.create({ type: HUB_REJECTION, message: information.errorDescription, details: [information], nonRetryable: true });
}

/** An activity's failure as an update's: its business rejection passed on as it is, anything else unchanged. */
export function asRefusal(error: unknown): never {
  const rejected = rejectionOf(error);
  throw rejected ? refusalOf(rejected) : error;
}

/** A business rejection's ErrorInformation, or — when the activity failed for good otherwise — a 2001. */
export function errorOf(error: unknown): ErrorInformation {
  return rejectionOf(error) ?? errorInformation('internalServerError', 'the switch could not complete the request');
}

/**
 * Why a message could not be delivered to `to`: the rejection it met (the participant refused it, has no endpoint for
 * it), or — once its retries ran out (the participant down, refusing connections, answering 5xx) — 1001, as Mojaloop's
 * hub reports a destination it cannot reach. Not 2001: the switch itself did not fail.
 */
export function deliveryFailureOf(error: unknown, to: string): ErrorInformation {
  return rejectionOf(error) ?? errorInformation('destinationCommunicationError', `${to} could not be reached`);
}

/** How long a request that names no expiration waits for its answer before the requester is told it timed out. */
export const DEFAULT_ANSWER_WAIT_MS = 60_000;

/** The time left to answer a request: until its expiration, or the default wait when it names none. */
export function answerWindow(expiration: Expiration | undefined): number {
  return expiration ? msUntil(expiration, Date.now()) : DEFAULT_ANSWER_WAIT_MS;
}

/**
 * A callback that still fails after its retries must not undo a decided conversation: the ledger is
 * already right, and the DFSP can ask with GET. The failure is logged for operators.
 */
export async function bestEffort(sending: Promise<unknown>, what: string): Promise<void> {
  try {
    await sending;
  } catch (error) {
    log.warn(`${what} failed`, { error: (error as Error).message });
  }
}
