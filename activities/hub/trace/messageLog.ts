import type { Logger } from 'pino';
import { In, LessThan } from 'typeorm';
import { traceIdOf, type LoggedMessage } from '../../../api/contracts/messageLog';
import type { Database } from '../db/database';
import { MessageRecord } from '../db/entities';
import { countDeliveryFailures } from '../metrics/schemeCounters';

/** How long a logged message may wait to be written, and how many are written at once at most. */
const FLUSH_AFTER_MS = 100;
const BATCH = 200;
/** How often a process deletes what is past the retention, and how many rows a statement deletes at most. */
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 5_000;
const PRUNE_ROUNDS = 20;

/**
 * The switch's message log (api/contracts/messageLog.ts), written in batches apart from the messages' own work: a
 * message is never held up or refused because its log entry could not be written, and a crash loses at most the last
 * tenth of a second of entries. The log is for tracing; what moved money is in the ledger, and every conversation's
 * inputs are in its Temporal history as well.
 */
export class MessageLog {
  private pending: MessageRecord[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private prunedAt = 0;

  /** `retentionDays`: MESSAGE_LOG_RETENTION_DAYS; older entries are deleted, by each process about once an hour. */
  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly retentionDays = 30,
  ) {}

  record(message: LoggedMessage): void {
    this.pending.push(recordOf(message));
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Writes what is pending; resolves once everything recorded before the call is written (or given up on). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Apart from the writes, which it must not hold up: an old backlog takes the hourly turns it needs.
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      void this.prune(new Date(Date.now() - this.retentionDays * 86_400_000)).catch((error: Error) =>
        this.log.warn({ err: error.message }, 'message log: old entries not deleted'),
      );
    }
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.db
          .transaction(async (manager) => {
            await manager.insert(MessageRecord, batch);
            await countDeliveryFailures(manager, batch);
          })
          .then(
            () => undefined,
            (error: Error) => this.log.warn({ err: error.message, messages: batch.length }, 'message log: entries not written'),
          ),
      );
    }
    return this.writing;
  }

  /**
   * Deletes the entries logged before `before` (at most 100,000 a call), oldest first, a batch at a time; how many. Entries are numbered as
   * they are written, so the oldest have the lowest IDs, and a scan in ID order finds them without an index on time.
   */
  async prune(before: Date): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < PRUNE_ROUNDS; round++) {
      const ids = await this.db.read((manager) =>
        manager.find(MessageRecord, { select: { id: true }, where: { createdDate: LessThan(before) }, order: { id: 'ASC' }, take: PRUNE_BATCH }),
      );
      if (ids.length === 0) return deleted;
      await this.db.transaction((manager) => manager.delete(MessageRecord, { id: In(ids.map((row) => row.id)) }));
      deleted += ids.length;
      if (ids.length < PRUNE_BATCH) return deleted;
    }
    return deleted;
  }
}

function recordOf(message: LoggedMessage): MessageRecord {
  const record = new MessageRecord();
  Object.assign(record, {
    conversation: message.conversation.slice(0, 300),
    direction: message.direction,
    method: message.method,
    target: message.target.slice(0, 1000),
    source: message.source?.slice(0, 32) ?? null,
    destination: message.destination?.slice(0, 32) ?? null,
    headers: JSON.stringify(message.headers),
    body: message.body ?? null,
    status: message.status ?? null,
    error: message.error?.slice(0, 1000) ?? null,
    traceId: traceIdOf(message.headers.traceparent) ?? null,
    createdDate: message.at,
    durationMs: Math.round(message.durationMs),
  });
  return record;
}
