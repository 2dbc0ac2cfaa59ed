import { isGrpcServiceError, ServiceError } from '@temporalio/client';
import { CannotExecuteNotConnectedError, ConnectionIsNotSetError, TypeORMError } from 'typeorm';
import { databaseErrorCode } from '../../activities/hub/db/databaseErrors';

/** Socket and driver codes that mean the database could not be reached, not that a statement was wrong. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

/**
 * Which of the hub's own dependencies an error says is down (Temporal or the database), or undefined for any
 * other failure. A DFSP is then told to try again later (503, 2003) rather than that the hub broke (500).
 */
export function unavailableDependency(error: unknown): 'Temporal' | 'the database' | undefined {
  // Only Temporal being out of reach: a request Temporal refused (too large, invalid) would fail the same way again.
  if (error instanceof ServiceError && temporalUnreachable(error.cause)) return 'Temporal';
  if (error instanceof CannotExecuteNotConnectedError || error instanceof ConnectionIsNotSetError) return 'the database';
  const code = databaseErrorCode(error);
  if (code && UNREACHABLE_CODES.has(code)) return 'the database';
  // better-sqlite3 once its connection is closed; TypeORM's MySQL driver once its pool is gone.
  if (error instanceof TypeError && /database connection is not open/i.test(error.message)) return 'the database';
  if (error instanceof TypeORMError && /connection is not established/i.test(error.message)) return 'the database';
  return undefined;
}

/** gRPC status codes (fixed by the gRPC specification) that mean the server could not be reached in time. */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** A transport failure (the channel is gone) or Temporal's own unavailable or timed-out answer. */
function temporalUnreachable(cause: unknown): boolean {
  if (!isGrpcServiceError(cause)) return true;
  return cause.code === GRPC_UNAVAILABLE || cause.code === GRPC_DEADLINE_EXCEEDED;
}
