import { Between, EntityManager, FindOptionsWhere, In, IsNull, LessThan, LessThanOrEqual, MoreThanOrEqual, Not } from 'typeorm';
import { workflowIds } from '../../../api/contracts/conversations';
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
  TracedConversation,
  TracedMessage,
  TracedPosting,
  TransferSummary,
  TransferTrace,
} from '../../../api/contracts/trace';

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
  async conversation(resource: string, id: string): Promise<ConversationTrace | undefined> {
    return this.db.read(async (manager) => {
      const keys = [`${resource}/${id}`, ...(resource === 'transactionRequests' ? [`authorizations/${id}`] : [])];
      const messages = await messagesOf(manager, keys);
      if (messages.length === 0) return undefined;
      const transfers =
        resource === 'bulkTransfers'
          ? (await manager.find(BulkTransferItem, { select: { transferId: true }, where: { bulkTransferId: id }, order: { itemIndex: 'ASC' } })).map(
              (item) => item.transferId,
            )
          : [];
      return { conversation: `${resource}/${id}`, messages, transfers };
    });
  }

  /** Undefined when the switch knows nothing of the transfer: no record and no message. */
  async transfer(transferId: string): Promise<TransferTrace | undefined> {
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
      let messages = await messagesOf(manager, keys);
      const requestId = quoteId && transactionRequestIdIn(messages, `quotes/${quoteId}`);
      if (requestId) {
        const request = await manager.findOneBy(TransactionRequestRecord, { transactionRequestId: requestId });
        const thirdparty = await manager.countBy(MessageRecord, { conversation: `thirdpartyRequests/transactions/${requestId}` });
        if (request) {
          conversations.push({ kind: 'transactionRequest', id: requestId, workflowId: workflowIds.transactionRequest(requestId), state: request.state });
          keys.push(`transactionRequests/${requestId}`, `authorizations/${requestId}`);
        }
        if (thirdparty > 0) {
          conversations.push({ kind: 'thirdpartyTransaction', id: requestId, workflowId: workflowIds.thirdpartyTransaction(requestId) });
          keys.push(`thirdpartyRequests/transactions/${requestId}`);
        }
        messages = await messagesOf(manager, keys);
      }
      if (!record && messages.length === 0) return undefined;
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
        messages,
        journal,
      };
    });
  }
}

async function messagesOf(manager: EntityManager, conversations: string[]): Promise<TracedMessage[]> {
  const rows = await manager.find(MessageRecord, { where: { conversation: In(conversations) }, order: { createdDate: 'ASC', id: 'ASC' } });
  return rows.map((row) => ({
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
  }));
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

/** The transaction request a quote answers: named in the payer's POST /quotes. */
function transactionRequestIdIn(messages: TracedMessage[], quote: string): string | undefined {
  const request = messages.find((message) => message.conversation === quote && message.direction === 'in' && message.method === 'POST');
  return stringField(request?.body, 'transactionRequestId');
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
