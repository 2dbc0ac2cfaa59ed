import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { errorInformation, ErrorInformation } from './errors';

/** Failure type of a business rejection raised by an activity (a HubError); details[0] is its ErrorInformation. */
export const HUB_REJECTION = 'HubRejection';

/** The ErrorInformation of an activity's business rejection, or undefined for any other failure. */
export function rejectionOf(error: unknown): ErrorInformation | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type === HUB_REJECTION) return cause.details?.[0] as ErrorInformation;
  return undefined;
}

/** A business rejection's ErrorInformation, or — when the activity failed for good otherwise — a 2001. */
export function errorOf(error: unknown): ErrorInformation {
  return rejectionOf(error) ?? errorInformation('internalServerError', 'the switch could not complete the request');
}

/** Milliseconds from workflow time until an ISO timestamp (negative once it has passed). */
export function msUntil(timestamp: string): number {
  return Date.parse(timestamp) - Date.now();
}
