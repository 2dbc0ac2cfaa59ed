import { Between, EntityManager, FindOptionsWhere, In, IsNull, LessThan, LessThanOrEqual, MoreThan, MoreThanOrEqual, Not } from 'typeorm';
import { workflowIds } from '../../shared/contracts/conversations';
import type { Database } from '../db/database';
import {
  BulkTransferItem,
  JournalEntry,
  MessageRecord,
  Participant,
  ParticipantAccount,
  QuoteRecord,
  TransactionRequestRecord,
  TransferRecord,
} from '../db/entities';
import { transactionIn } from '../conversations/transactionDetails';
import type {
  ConversationTrace,
  FailingDeliveries,
  MessagePage,
  TracedConversation,
  TracedMessage,
  TracedPosting,
  TransferSummary,
  TransferTrace,
} from '../../shared/contracts/trace';

/** What the operator searches transfers by; every field is optional, the newest come first. */
export interface TransferSearch {
  transferId?: string;
  payerFsp?: string;
  payeeFsp?: string;
  state?: string;
  currency?: string;
  from?: Date;
  to?: Date;
  /** Only transfers whose expiration is before this: with RECEIVED or RESERVED, those stuck past it. */
  expiredBefore?: Date;
  /** A participant's W3C trace ID: the transfers whose messages carried it. */
  traceId?: string;
  limit?: number;
}

const MAX_RESULTS = 500;

/** Which page of a trace's messages to read (MessagePage): at most `limit`, those after `after`. */
export interface MessagePageRequest {
  limit?: number;
  after?: MessageCursor;
}

/** The last message of a page: messages are in the order of their time, then of their number. */
export interface MessageCursor {
  at: Date;
  id: number;
}

export const MESSAGES_PER_PAGE = 100;
export const MAX_MESSAGES_PER_PAGE = 1_000;

/** The cursor a page's `nextCursor` names, or undefined if `text` is none. */
export function messageCursor(text: string): MessageCursor | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  const at = new Date(Number(match?.[1]));
  return match && !Number.isNaN(at.getTime()) ? { at, id: Number(match[2]) } : undefined;
}

const iso = (date: Date) => date.toISOString();

/**
 * The operator's view of transfers: search, and each one's trace, assembled from the switch's records, its message
 * log and the ledger. Bulk items trace through their bulk's messages; a transfer's quote is found through the quote
 * ID its ILP packet names, and the quote's request names the transaction request or third-party transaction it
 * answers.
 */
export class Traces {
  constructor(private readonly db: Database) {}

  async search(search: TransferSearch): Promise<TransferSummary[]> {
    const limit = Math.min(Math.max(search.limit ?? 50, 1), MAX_RESULTS);
    return this.db.read(async (manager) => {
      let ids: string[] | undefined = search.transferId === undefined ? undefined : [search.transferId];
      if (search.traceId !== undefined) {
        const traced = await manager.find(MessageRecord, { select: { conversation: true }, where: { traceId: search.traceId.toLowerCase() }, take: 1000 });
        const named = new Set(traced.flatMap(({ conversation }) => (conversation.startsWith('transfers/') ? [conversation.slice('transfers/'.length)] : [])));
        ids = ids ? ids.filter((id) => named.has(id)) : [...named];
      }
      const where: FindOptionsWhere<TransferRecord> = {
        ...(ids && { transferId: In(ids) }),
        ...(search.payerFsp && { payerFsp: search.payerFsp }),
        ...(search.payeeFsp && { payeeFsp: search.payeeFsp }),
        ...(search.state && { transferState: search.state as TransferRecord['transferState'] }),
        ...(search.currency && { currency: search.currency }),
        ...createdWithin(search.from, search.to),
        ...(search.expiredBefore && { expiration: LessThan(search.expiredBefore) }),
      };
      const records = await manager.find(TransferRecord, { where, order: { createdDate: 'DESC' }, take: limit });
      return records.map(summaryOf);
    });
  }

  /**
   * The participants the switch could not deliver to since `since`, each with how often it failed and its latest
   * failure: an endpoint that is down, or refuses what it is sent, while the switch retries.
   */
  async failingDeliveries(since: Date): Promise<FailingDeliveries[]> {
    const failed = await this.db.read((manager) =>
      manager.find(MessageRecord, {
        where: { direction: 'out', error: Not(IsNull()), createdDate: MoreThanOrEqual(since) },
        order: { createdDate: 'DESC', id: 'DESC' },
        take: 1000,
      }),
    );
    const byParticipant = new Map<string, FailingDeliveries>();
    for (const message of failed) {
      const participant = message.destination ?? '?';
      const seen = byParticipant.get(participant);
      if (seen) seen.failures++;
      else
        byParticipant.set(participant, {
          participant,
          failures: 1,
          latest: {
            conversation: message.conversation,
            method: message.method,
            target: message.target,
            error: message.error ?? '',
            at: iso(message.createdDate),
          },
        });
    }
    return [...byParticipant.values()];
  }

  /**
   * Any conversation's messages, by its resource and ID (`quotes`, `bulkTransfers`, `transactionRequests`,
   * `thirdpartyRequests/transactions`, `consentRequests`, …): with a transaction request its authorizations, with a
   * bulk the transfers it holds. Undefined when the switch saw no message of it.
   */
  async conversation(resource: string, id: string, request: MessagePageRequest = {}): Promise<ConversationTrace | undefined> {
    return this.db.read(async (manager) => {
      const keys = [`${resource}/${id}`, ...(resource === 'transactionRequests' ? [`authorizations/${id}`] : [])];
      const page = await messagesOf(manager, keys, request);
      if (page.messages.length === 0 && !request.after) return undefined;
      const transfers =
        resource === 'bulkTransfers'
          ? (await manager.find(BulkTransferItem, { select: { transferId: true }, where: { bulkTransferId: id }, order: { itemIndex: 'ASC' } })).map(
              (item) => item.transferId,
            )
          : [];
      return { conversation: `${resource}/${id}`, ...page, transfers };
    });
  }

  /** Undefined when the switch knows nothing of the transfer: no record and no message. */
  async transfer(transferId: string, request: MessagePageRequest = {}): Promise<TransferTrace | undefined> {
    return this.db.read(async (manager) => {
      const record = await manager.findOneBy(TransferRecord, { transferId });
      const item = await manager.findOneBy(BulkTransferItem, { transferId });
      const transaction = record?.ilpPacket ? transactionIn(record.ilpPacket) : undefined;
      const quoteId = stringField(transaction, 'quoteId');
      const conversations: TracedConversation[] = [];
      const keys = [`transfers/${transferId}`];
      if (item) {
        conversations.push({ kind: 'bulkTransfer', id: item.bulkTransferId, workflowId: workflowIds.bulkTransfer(item.bulkTransferId) });
        keys.push(`bulkTransfers/${item.bulkTransferId}`);
      } else conversations.push({ kind: 'transfer', id: transferId, workflowId: workflowIds.transfer(transferId), state: record?.transferState });
      if (quoteId) {
        const quote = await manager.findOneBy(QuoteRecord, { resource: 'quotes', quoteId });
        conversations.push({ kind: 'quote', id: quoteId, workflowId: workflowIds.quote(quoteId), state: quote?.state });
        keys.push(`quotes/${quoteId}`);
      }
      const requestId = quoteId && (await transactionRequestIdOf(manager, `quotes/${quoteId}`));
      if (requestId) {
        const transactionRequest = await manager.findOneBy(TransactionRequestRecord, { transactionRequestId: requestId });
        if (transactionRequest) {
          conversations.push({
            kind: 'transactionRequest',
            id: requestId,
            workflowId: workflowIds.transactionRequest(requestId),
            state: transactionRequest.state,
          });
          keys.push(`transactionRequests/${requestId}`, `authorizations/${requestId}`);
        }
        if (await manager.existsBy(MessageRecord, { conversation: `thirdpartyRequests/transactions/${requestId}` })) {
          conversations.push({ kind: 'thirdpartyTransaction', id: requestId, workflowId: workflowIds.thirdpartyTransaction(requestId) });
          keys.push(`thirdpartyRequests/transactions/${requestId}`);
        }
      }
      const page = await messagesOf(manager, keys, request);
      if (!record && page.messages.length === 0 && !request.after) return undefined;
      const journal = await journalOf(manager, transferId);
      return {
        transfer: record
          ? {
              ...summaryOf(record),
              expiration: iso(record.expiration),
              ilpCondition: record.ilpCondition,
              ...(record.fulfilment && { fulfilment: record.fulfilment }),
              ...(record.errorCode && { error: { errorCode: record.errorCode, errorDescription: record.errorDescription ?? '' } }),
            }
          : undefined,
        ...(transaction !== undefined && { transaction }),
        timeline: timelineOf(record, journal),
        conversations,
        ...page,
        journal,
      };
    });
  }
}

/**
 * A page of the conversations' messages, read by the database a page at a time: a conversation someone sent thousands
 * of messages about is not read whole into the gateway.
 */
async function messagesOf(manager: EntityManager, conversations: string[], { limit = MESSAGES_PER_PAGE, after }: MessagePageRequest): Promise<MessagePage> {
  const take = Math.min(Math.max(limit, 1), MAX_MESSAGES_PER_PAGE);
  const conversation = In(conversations);
  const where = after
    ? [
        { conversation, createdDate: MoreThan(after.at) },
        { conversation, createdDate: after.at, id: MoreThan(after.id) },
      ]
    : { conversation };
  const rows = await manager.find(MessageRecord, { where, order: { createdDate: 'ASC', id: 'ASC' }, take: take + 1 });
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  return { messages: page.map(tracedOf), ...(rows.length > take && { nextCursor: `${last.createdDate.getTime()}.${last.id}` }) };
}

function tracedOf(row: MessageRecord): TracedMessage {
  return {
    conversation: row.conversation,
    direction: row.direction,
    method: row.method,
    target: row.target,
    ...(row.source && { source: row.source }),
    ...(row.destination && { destination: row.destination }),
    headers: JSON.parse(row.headers) as Record<string, string>,
    ...(row.body !== null && { body: jsonOrText(row.body) }),
    ...(row.status !== null && { status: row.status }),
    ...(row.error && { error: row.error }),
    at: iso(row.createdDate),
    durationMs: row.durationMs,
  };
}

async function journalOf(manager: EntityManager, transferId: string): Promise<TracedPosting[]> {
  const entries = await manager.find(JournalEntry, { where: { transferId }, order: { id: 'ASC' } });
  const accounts = await manager.findBy(ParticipantAccount, { id: In([...new Set(entries.map((entry) => entry.accountId))]) });
  const participants = await manager.findBy(Participant, { participantId: In([...new Set(accounts.map((account) => account.participantId))]) });
  return entries.map((entry) => {
    const account = accounts.find((candidate) => candidate.id === entry.accountId);
    return {
      phase: entry.phase,
      participant: participants.find((participant) => participant.participantId === account?.participantId)?.name ?? '?',
      ledgerAccountType: account?.ledgerAccountType ?? '?',
      currency: account?.currency ?? '?',
      postedAmount: entry.postedAmount,
      reservedAmount: entry.reservedAmount,
      at: iso(entry.createdDate),
    };
  });
}

function createdWithin(from?: Date, to?: Date): FindOptionsWhere<TransferRecord> {
  if (from && to) return { createdDate: Between(from, to) };
  if (from) return { createdDate: MoreThanOrEqual(from) };
  if (to) return { createdDate: LessThanOrEqual(to) };
  return {};
}

function summaryOf(record: TransferRecord): TransferSummary {
  return {
    transferId: record.transferId,
    payerFsp: record.payerFsp,
    payeeFsp: record.payeeFsp,
    amount: { amount: record.amount, currency: record.currency },
    state: record.transferState,
    createdDate: iso(record.createdDate),
    ...(record.completedTimestamp && { completedDate: iso(record.completedTimestamp) }),
  };
}

/** The ledger's phases, as the states of the transfer they mark. */
const PHASE_STATES: Record<string, string> = { RESERVE: 'RESERVED', COMMIT: 'COMMITTED', RELEASE: 'ABORTED' };

function timelineOf(record: TransferRecord | null, journal: TracedPosting[]): Array<{ state: string; at: string }> {
  const timeline = record ? [{ state: 'RECEIVED', at: iso(record.createdDate) }] : [];
  for (const posting of journal) {
    const state = PHASE_STATES[posting.phase];
    if (state && !timeline.some((step) => step.state === state)) timeline.push({ state, at: posting.at });
  }
  // A transfer refused before it reserved anything ends ABORTED with no posting to mark it.
  if (record?.transferState === 'ABORTED' && record.completedTimestamp && !timeline.some((step) => step.state === 'ABORTED'))
    timeline.push({ state: 'ABORTED', at: iso(record.completedTimestamp) });
  return timeline;
}

function stringField(value: unknown, name: string): string | undefined {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return typeof field === 'string' ? field : undefined;
}

/** The transaction request a quote answers: named in the payer's POST /quotes, the one the switch took. */
async function transactionRequestIdOf(manager: EntityManager, quote: string): Promise<string | undefined> {
  const request = await manager.findOne(MessageRecord, {
    where: { conversation: quote, direction: 'in', method: 'POST', status: LessThan(400) },
    order: { createdDate: 'ASC', id: 'ASC' },
  });
  return request?.body ? stringField(jsonOrText(request.body), 'transactionRequestId') : undefined;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
