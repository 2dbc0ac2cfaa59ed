import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/** Rows or IDs per statement: well inside SQLite's bound-parameter limit and MySQL's packet size. */
const CHUNK = 100;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** Multi-row INSERTs, a chunk at a time; rows are written as given (no read-back of generated keys). */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: Array<QueryDeepPartialEntity<T>>,
): Promise<void> {
  for (const chunk of chunks(rows)) await manager.createQueryBuilder().insert().into(entity).values(chunk).updateEntity(false).execute();
}
