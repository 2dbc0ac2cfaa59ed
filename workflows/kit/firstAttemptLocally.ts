import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, proxyLocalActivities, TimeoutFailure } from '@temporalio/workflow';
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { hasPatch } from './patches';
import { PATCHES } from '../../activities/shared/contracts/codeRevision';

type Activity = (...args: unknown[]) => Promise<unknown>;

/**
 * Activities tried first as local activities, in the worker that runs the workflow, and only when that attempt fails
 * in a way worth retrying handed to the server as ordinary activities with `retries`.
 *
 * A message to a participant nearly always goes through at once: as a local activity it costs the server no round
 * trips of its own (it is recorded with the workflow task that asked for it), where an ordinary activity costs a
 * schedule, a dispatch, a completion and another workflow task. The long backoff an unreachable participant needs
 * stays with the server, so it survives the worker and does not hold a workflow task open for minutes.
 */
export function firstAttemptLocally<A extends object>(
  first: { startToCloseTimeout: LocalActivityOptions['startToCloseTimeout'] },
  retries: ActivityOptions,
): A {
  const local = proxyLocalActivities({ startToCloseTimeout: first.startToCloseTimeout, retry: { maximumAttempts: 1 } }) as Record<string, Activity>;
  const durable = proxyActivities(retries) as Record<string, Activity>;
  return new Proxy({} as A, {
    get(_, name: string) {
      return async (...args: unknown[]) => {
        // Runs that began before first attempts were local replay as recorded, with ordinary activities only (test/replay
        // holds such histories): a worker of this version can take over conversations a previous one started.
        if (!hasPatch(PATCHES.firstAttemptLocally)) return durable[name](...args);
        try {
          return await local[name](...args);
        } catch (error) {
          if (!worthRetrying(error)) throw error;
          return durable[name](...args);
        }
      };
    },
  });
}

/**
 * A refusal (a non-retryable failure) and a cancellation end the step; a network error, a 5xx or a timeout do not. A
 * local activity's last failure reaches the workflow as itself, an ordinary activity's wrapped in an ActivityFailure.
 */
function worthRetrying(error: unknown): boolean {
  if (isCancellation(error)) return false;
  const failure = error instanceof ActivityFailure ? error.cause : error;
  if (failure instanceof ApplicationFailure) return !failure.nonRetryable;
  return failure instanceof TimeoutFailure;
}
