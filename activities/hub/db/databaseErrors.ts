import { HubError } from '../../shared/platform/hubError';

/**
 * What a database error means for the step that met it, on either database. Most pass with a retry: the database
 * down or busy, a lock wait, a deadlock's victim, a duplicate key (an idempotent step's retry finds the row another
 * attempt wrote and takes its repeat path). A refusal of what the step writes is met again on every retry, so retrying
 * it only blocks whatever waits behind the step (a settlement's later changes, its abort): it is a rejection.
 */

/** The driver's code of a database error, as mysql2 and better-sqlite3 name it (TypeORM copies it onto its own error). */
export function databaseErrorCode(error: unknown): string | undefined {
  const direct = (error as { code?: unknown } | undefined)?.code;
  if (typeof direct === 'string') return direct;
  const driver = (error as { driverError?: { code?: unknown } } | undefined)?.driverError?.code;
  return typeof driver === 'string' ? driver : undefined;
}

/** InnoDB chose the transaction as a deadlock's victim and rolled it back whole: run again, it goes through. */
export const isDeadlock = (error: unknown) => databaseErrorCode(error) === 'ER_LOCK_DEADLOCK';

/**
 * A value its column cannot hold: longer than the column (MySQL's ER_DATA_TOO_LONG, 1406; SQLite's limit), not of
 * its type or charset (1292, 1366; SQLITE_MISMATCH), out of its range (1264, 1690). The request asked for it: 3100.
 */
const REFUSED_VALUES = new Set([
  'ER_DATA_TOO_LONG',
  'ER_TRUNCATED_WRONG_VALUE',
  'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
  'ER_WARN_DATA_OUT_OF_RANGE',
  'ER_DATA_OUT_OF_RANGE',
  'SQLITE_TOOBIG',
  'SQLITE_MISMATCH',
]);

/** A row its table's constraints refuse (a NOT NULL or CHECK column): the hub wrote what its own schema forbids, 2001. */
const REFUSED_ROWS = new Set(['ER_BAD_NULL_ERROR', 'ER_CHECK_CONSTRAINT_VIOLATED', 'SQLITE_CONSTRAINT_NOTNULL', 'SQLITE_CONSTRAINT_CHECK']);

/** The rejection a database's refusal of a write means, or undefined for an error a retry may get past. */
export function databaseRefusal(error: unknown): HubError | undefined {
  const code = databaseErrorCode(error);
  if (!code || !(REFUSED_VALUES.has(code) || REFUSED_ROWS.has(code))) return undefined;
  const { sqlMessage, message } = error as { sqlMessage?: string; message?: string };
  const said = `the database refused the change (${code}): ${sqlMessage ?? message}`;
  return new HubError(REFUSED_VALUES.has(code) ? 'validationError' : 'internalServerError', said);
}
