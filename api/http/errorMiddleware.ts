import { isGrpcServiceError, ServiceError } from '@temporalio/client';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { QueryFailedError } from 'typeorm';
import { HubError } from '../../activities/shared/platform/hubError';
import { errorInformation } from '../../activities/shared/contracts/errors';
import { HttpError } from '../../activities/shared/platform/httpError';
import { unavailableDependency } from './unavailable';

/** gRPC status codes, fixed by the gRPC specification. */
const GRPC_INVALID_ARGUMENT = 3;
const GRPC_RESOURCE_EXHAUSTED = 8;

/**
 * Temporal refuses a signal or workflow input over its blob size limit (2 MiB by default), and its gRPC server a
 * message over 4 MiB. A callback that large is within FSPIOP's 5 MiB but more than a conversation can carry: it is too
 * large (3104), as it would be again, and as a request that large already is before its conversation starts.
 */
function tooLargeForTemporal(error: unknown): boolean {
  const cause = error instanceof ServiceError ? error.cause : undefined;
  if (!isGrpcServiceError(cause)) return false;
  if (cause.code === GRPC_INVALID_ARGUMENT) return /blob data size exceeds limit/i.test(cause.details);
  return cause.code === GRPC_RESOURCE_EXHAUSTED && /message larger than max/i.test(cause.details);
}

/**
 * Every error leaves the gateway as `{ errorInformation }` with an FSPIOP code. Bad input is a 4xx with
 * the code that names the problem; Temporal or the database being out of reach is a 503 (2003), which a DFSP
 * retries; only a fault of the hub itself is a 500 (2001), and it is logged.
 */
export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.body = { errorInformation: error.errorInformation };
      } else if (error instanceof QueryFailedError && /duplicate entry|unique constraint/i.test(error.message)) {
        // Two requests raced to create the same thing; the loser is told it exists, as it would be a moment later.
        ctx.status = 400;
        ctx.body = { errorInformation: errorInformation('clientError', 'it already exists') };
      } else if (error instanceof HubError) {
        // Mojaloop answers every client error 400, an ID it does not know (32xx) included.
        ctx.status = 400;
        ctx.body = { errorInformation: error.errorInformation };
      } else if (tooLargeForTemporal(error)) {
        ctx.status = 400;
        ctx.body = { errorInformation: errorInformation('tooLargePayload', 'the message is larger than the switch can hold in a conversation') };
      } else {
        const dependency = unavailableDependency(error);
        if (dependency) {
          log.warn({ err: error, method: ctx.method, path: ctx.path }, `${dependency} unavailable`);
          ctx.status = 503;
          ctx.body = { errorInformation: errorInformation('serviceUnavailable', `${dependency} is unavailable; try again later`) };
        } else {
          log.error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
          ctx.status = 500;
          ctx.body = { errorInformation: errorInformation('internalServerError') };
        }
      }
    }
  };
}
