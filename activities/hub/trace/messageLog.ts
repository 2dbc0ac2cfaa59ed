import type { Logger } from 'pino';
import client from 'prom-client';
import { Between, LessThan } from 'typeorm';
import { traceIdOf, type LoggedMessage } from '../../shared/contracts/messageLog';
import { loadConfig, type MessageLogShare } from '../../shared/platform/config';
import type { Database } from '../db/database';
import { MessageRecord } from '../db/entities';
import { countDeliveryFailures } from '../metrics/schemeCounters';
import { HEADERS_BYTES, headersJson, LogShares, REFUSED_BODY_CHARS, REFUSED_HEADERS_BYTES, truncated } from './messageLogLimits';

/** How long a logged message may wait to be written, and how many are written at once at most. */
const FLUSH_AFTER_MS = 100;
const BATCH = 200;
/** How often a process deletes what is past the retention (the first time within a minute of its start, at random). */
const PRUNE_EVERY_MS = 10 * 60_000;
const FIRST_PRUNE_WITHIN_MS = 60_000;
const DAY_MS = 86_400_000;

/** Entries the log did not keep: over their participant's share (`share`), or lost with a batch that failed (`write`). */
const dropped = new client.Counter({
  name: 'hub_message_log_dropped_total',
  help: "Message log entries not kept, by participant (? where the gateway could not establish the sender), direction and reason: over the participant's share a minute, or a failed write",
  labelNames: ['participant', 'direction', 'reason'],
  registers: [],
});

/** Puts the log's counter in `registry` (the gateway's /metrics), once. */
export function registerMessageLogMetrics(registry: client.Registry): void {
  if (!registry.getSingleMetric('hub_message_log_dropped_total')) registry.registerMetric(dropped);
}

export interface MessageLogOptions {
  /** MESSAGE_LOG_RETENTION_DAYS: older entries are deleted by each process, about every ten minutes. */
  retentionDays?: number;
  /** MESSAGE_LOG_PER_MINUTE, MESSAGE_LOG_REFUSED_PER_MINUTE. Without these options, the settings' defaults. */
  share?: MessageLogShare;
  /** How many entries one statement of the retention deletes at most. */
  pruneBatch?: number;
  /** The clock whose minutes the shares are counted in (tests fix it). */
  now?: () => number;
}

/**
 * The switch's message log (activities/shared/contracts/messageLog.ts), written in batches apart from the messages' own work: a
 * message is never held up or refused because its log entry could not be written, and a crash loses at most the last
 * tenth of a second of entries. The log is for tracing; what moved money is in the ledger, and every conversation's
 * inputs are in its Temporal history as well. What one participant can make it keep is bounded (messageLogLimits.ts).
 */
export class MessageLog {
  private pending: Array<{ record: MessageRecord; participant: string }> = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly shares: LogShares;
  private readonly retentionDays: number;
  private readonly pruneBatch: number;
  private readonly now: () => number;
  private retentionTimer?: NodeJS.Timeout;
  private pruning: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    options: MessageLogOptions = {},
  ) {
    const defaults = loadConfig({});
    this.retentionDays = options.retentionDays ?? defaults.messageLogRetentionDays;
    this.shares = new LogShares(options.share ?? defaults.messageLogShare);
    this.pruneBatch = options.pruneBatch ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  record(message: LoggedMessage): void {
    const { direction } = message;
    const participant = (direction === 'in' ? message.sender : message.destination) ?? '?';
    const refused = direction === 'in' && (message.status ?? 0) >= 400;
    const verdict = this.shares.take(`${direction} ${participant}`, refused, this.now());
    if (verdict !== 'kept') {
      dropped.inc({ participant, direction, reason: 'share' });
      if (verdict === 'firstDropped') this.log.warn({ participant, direction, refused }, "message log: the participant's share of the minute is used up");
      return;
    }
    this.pending.push({ record: recordOf(message, refused), participant });
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Writes what is pending; resolves once everything recorded before the call is written (or given up on). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.db
          .transaction(async (manager) => {
            const records = batch.map((entry) => entry.record);
            await manager.insert(MessageRecord, records);
            await countDeliveryFailures(manager, records);
          })
          .then(
            () => undefined,
            (error: Error) => {
              for (const { record, participant } of batch) dropped.inc({ participant, direction: record.direction, reason: 'write' });
              this.log.warn({ err: error.message, messages: batch.length }, 'message log: entries not written');
            },
          ),
      );
    }
    return this.writing;
  }

  /**
   * Deletes what is past the retention now and then, on a timer of its own: never on a message's way. A process that
   * was down catches up in its first minute.
   */
  startRetention(): void {
    const run = () => {
      this.pruning = this.prune(new Date(Date.now() - this.retentionDays * DAY_MS))
        .catch((error: Error) => this.log.warn({ err: error.message }, 'message log: old entries not deleted'))
        .then(() => {
          if (!this.closed) this.retentionTimer = setTimeout(run, PRUNE_EVERY_MS).unref();
        });
    };
    // At random, so that a gateway's copies and its workers, started together, do not all delete at once.
    this.retentionTimer = setTimeout(run, Math.random() * FIRST_PRUNE_WITHIN_MS).unref();
  }

  /**
   * Deletes every entry logged before `before`, oldest first, until none is left; how many. A statement deletes a batch
   * and the next waits as long as it took, so the switch's writes (SQLite has one write lock) get at least half the
   * time however large the backlog. Entries are numbered as they are written, so the oldest have the lowest IDs, and a
   * scan in ID order finds them without an index on time.
   */
  async prune(before: Date): Promise<number> {
    let deleted = 0;
    while (!this.closed) {
      const started = Date.now();
      const ids = await this.db.read((manager) =>
        manager.find(MessageRecord, { select: { id: true }, where: { createdDate: LessThan(before) }, order: { id: 'ASC' }, take: this.pruneBatch }),
      );
      if (ids.length === 0) break;
      // By range, not by a list of IDs: one short statement, and exactly the rows just found.
      const range = Between(ids[0].id, ids[ids.length - 1].id);
      const result = await this.db.transaction((manager) => manager.delete(MessageRecord, { id: range, createdDate: LessThan(before) }));
      deleted += result.affected ?? ids.length;
      if (ids.length < this.pruneBatch) break;
      await new Promise((resolve) => setTimeout(resolve, Date.now() - started));
    }
    return deleted;
  }

  /** Stops the retention (after the statement it is in) and writes what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retentionTimer);
    await this.pruning;
    await this.flush();
  }
}

function recordOf(message: LoggedMessage, refused: boolean): MessageRecord {
  const record = new MessageRecord();
  Object.assign(record, {
    conversation: message.conversation.slice(0, 300),
    direction: message.direction,
    method: message.method.slice(0, 8),
    target: message.target.slice(0, 1000),
    source: message.source?.slice(0, 32) ?? null,
    destination: message.destination?.slice(0, 32) ?? null,
    headers: headersJson(message.headers, refused ? REFUSED_HEADERS_BYTES : HEADERS_BYTES),
    body: message.body === undefined ? null : refused ? truncated(message.body, REFUSED_BODY_CHARS) : message.body,
    status: message.status ?? null,
    error: message.error?.slice(0, 1000) ?? null,
    traceId: traceIdOf(message.headers.traceparent) ?? null,
    createdDate: message.at,
    durationMs: Math.round(message.durationMs),
  });
  return record;
}
