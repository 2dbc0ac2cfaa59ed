import type { Logger } from 'pino';
import { traceIdOf, type LoggedMessage } from '../../../api/contracts/messageLog';
import type { Database } from '../db/database';
import { MessageRecord } from '../db/entities';

/** How long a logged message may wait to be written, and how many are written at once at most. */
const FLUSH_AFTER_MS = 100;
const BATCH = 200;

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

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
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
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.db
          .transaction((manager) => manager.insert(MessageRecord, batch))
          .then(
            () => undefined,
            (error: Error) => this.log.warn({ err: error.message, messages: batch.length }, 'message log: entries not written'),
          ),
      );
    }
    return this.writing;
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
