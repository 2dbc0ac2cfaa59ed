import { In, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { DeliveryFailures, TransferOutcome } from '../db/metricsEntities';
import { TransferRecord, type MessageRecord } from '../db/switchEntities';

/**
 * The upper bounds (seconds) of the buckets of the time from a transfer's POST to its decision. Changing them needs a
 * migration that counts transfer_outcome again.
 */
export const COMPLETION_BUCKETS = ['0.1', '0.25', '0.5', '1', '2.5', '5', '10', '30', '60', '300'] as const;

/** Rows read at once when decided transfers are counted by ID: a bulk's batch. */
const CHUNK = 500;

type Decided = Pick<TransferRecord, 'payerFsp' | 'transferState' | 'createdDate' | 'completedTimestamp'>;

/** The bucket a time from POST to decision falls in, as Prometheus names it. */
export function completionBucket(seconds: number): string {
  return COMPLETION_BUCKETS.find((le) => seconds <= Number(le)) ?? '+Inf';
}

/**
 * Counts transfers just decided (COMMITTED or ABORTED), in the transaction that decides them, per payer, state and
 * bucket: one statement per row touched, however many transfers (a bulk's items). The payer's row is one its
 * position's lock already serialises, for every decision that moves money, so it holds no transfer up that was not
 * waiting already.
 */
export async function countOutcomes(manager: EntityManager, decided: Decided[]): Promise<void> {
  const rows = new Map<string, { key: Pick<TransferOutcome, 'payerFsp' | 'transferState' | 'le'>; transfers: number; seconds: number }>();
  for (const transfer of decided) {
    const seconds = ((transfer.completedTimestamp ?? transfer.createdDate).getTime() - transfer.createdDate.getTime()) / 1000;
    const key = { payerFsp: transfer.payerFsp, transferState: transfer.transferState, le: completionBucket(seconds) };
    const id = `${key.payerFsp} ${key.transferState} ${key.le}`;
    const row = rows.get(id) ?? { key, transfers: 0, seconds: 0 };
    row.transfers++;
    row.seconds += seconds;
    rows.set(id, row);
  }
  // In one order everywhere, so that two transactions never wait on each other's rows.
  for (const [, { key, transfers, seconds }] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await add(manager, TransferOutcome, key, { transfers, seconds }, { transfers: '0', seconds: 0 });
  }
}

/** Counts the transfers `transferIds` names, each just decided in this transaction (countOutcomes). */
export async function countDecided(manager: EntityManager, transferIds: string[]): Promise<void> {
  for (let at = 0; at < transferIds.length; at += CHUNK) {
    const decided = await manager.find(TransferRecord, {
      select: { payerFsp: true, transferState: true, createdDate: true, completedTimestamp: true },
      where: { transferId: In(transferIds.slice(at, at + CHUNK)) },
    });
    await countOutcomes(manager, decided);
  }
}

/** Counts the failed deliveries among messages the log writes, per participant, in the transaction that writes them. */
export async function countDeliveryFailures(
  manager: EntityManager,
  messages: Array<Pick<MessageRecord, 'direction' | 'error' | 'destination'>>,
): Promise<void> {
  const failures = new Map<string, number>();
  for (const { direction, error, destination } of messages) {
    if (direction === 'out' && error !== null) failures.set(destination ?? '?', (failures.get(destination ?? '?') ?? 0) + 1);
  }
  for (const [participant, count] of [...failures].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await add(manager, DeliveryFailures, { participant }, { failures: count }, { failures: '0' });
  }
}

/**
 * Adds `amounts` to the counters of the row `key` names, creating it (at `zero`) the first time. The same statements on
 * SQLite and MySQL: an UPDATE, and when it found no row, an INSERT that a concurrent one may have beaten, then the UPDATE.
 */
async function add<Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  key: Partial<Row>,
  amounts: Record<string, number>,
  zero: Partial<Row>,
): Promise<void> {
  const update = () =>
    manager
      .createQueryBuilder()
      .update(entity)
      .set(Object.fromEntries(Object.keys(amounts).map((column) => [column, () => `${column} + :${column}`])) as never)
      .where(key)
      .setParameters(amounts)
      .execute();
  if ((await update()).affected) return;
  await manager
    .createQueryBuilder()
    .insert()
    .into(entity)
    .values({ ...key, ...zero } as never)
    .orIgnore()
    .execute();
  await update();
}
