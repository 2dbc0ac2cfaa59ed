import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { moneyColumn } from './money';
import type { BulkTransferState, TransactionRequestRecordState, TransferState } from '../../shared/contracts/bodies';
import type { QuoteResource } from '../../shared/contracts/conversations';

const timestamp = { type: 'datetime', precision: 3 } as const;

/**
 * The built-in account-lookup oracle: which FSP holds a party, per currency. Absent sub-id and
 * currency are stored as '' so the unique key covers them.
 */
@Entity('party_lookup')
@Index(['partyIdType', 'partyIdentifier', 'partySubIdOrType', 'currency'], { unique: true })
export class PartyLookup {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 32 }) partyIdType!: string;
  @Column({ type: 'varchar', length: 128 }) partyIdentifier!: string;
  @Column({ type: 'varchar', length: 128 }) partySubIdOrType!: string;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 32 }) fspId!: string;
  @Column(timestamp) createdDate!: Date;
}

/**
 * A transfer as the switch knows it, for GET /transfers/{ID} and for the duplicate rule after its
 * workflow has finished. The money itself is in ledger_transfer and journal_entry.
 */
@Entity('transfer')
@Index('IDX_transfer_payer_created', ['payerFsp', 'createdDate'])
@Index('IDX_transfer_payee_created', ['payeeFsp', 'createdDate'])
@Index('IDX_transfer_created', ['createdDate'])
@Index('IDX_transfer_state_expiration', ['transferState', 'expiration'])
@Index('IDX_transfer_completed', ['completedTimestamp'])
export class TransferRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 }) transferId!: string;
  @Column({ type: 'varchar', length: 32 }) payerFsp!: string;
  @Column({ type: 'varchar', length: 32 }) payeeFsp!: string;
  @Column({ type: 'decimal', precision: 38, scale: 4, transformer: moneyColumn }) amount!: string;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 48 }) ilpCondition!: string;
  /** As the payer sent it; null for transfers recorded before the hub kept packets. */
  @Column({ type: 'text', nullable: true }) ilpPacket!: string | null;
  @Column(timestamp) expiration!: Date;
  @Column({ type: 'varchar', length: 64 }) requestHash!: string;
  @Column({ type: 'varchar', length: 20 }) transferState!: TransferState;
  @Column({ type: 'varchar', length: 48, nullable: true }) fulfilment!: string | null;
  @Column({ ...timestamp, nullable: true }) completedTimestamp!: Date | null;
  @Column({ type: 'varchar', length: 4, nullable: true }) errorCode!: string | null;
  @Column({ type: 'varchar', length: 256, nullable: true }) errorDescription!: string | null;
  /** The payee answered RESERVED and waits for a PATCH with the final state. */
  @Column({ type: 'boolean' }) payeeWantsNotification!: boolean;
  @Column(timestamp) createdDate!: Date;
}

export type QuoteState = 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'EXPIRED';

/** A quote or bulk quote as the switch routed it: enough to resend its outcome to the payer (duplicate rule, GET). */
@Entity('quote')
export class QuoteRecord {
  @PrimaryColumn({ type: 'varchar', length: 16 }) resource!: QuoteResource;
  /** The quoteId, or the bulkQuoteId of a bulk quote. */
  @PrimaryColumn({ type: 'varchar', length: 64 }) quoteId!: string;
  @Column({ type: 'varchar', length: 32 }) payerFsp!: string;
  @Column({ type: 'varchar', length: 32 }) payeeFsp!: string;
  @Column({ type: 'varchar', length: 64 }) requestHash!: string;
  @Column({ type: 'varchar', length: 20 }) state!: QuoteState;
  /** The payee's PUT /{resource}/{ID} (or error) headers, JSON-encoded, and body as forwarded to the payer; no headers for the hub's own error. */
  @Column({ type: 'text', nullable: true }) responseHeaders!: string | null;
  @Column({ type: 'text', nullable: true }) responseBody!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column({ ...timestamp, nullable: true }) completedDate!: Date | null;
}

/**
 * A transaction request as the switch routed it (Document 2, /transactionRequests): who asked whom, and the last
 * answer passed to the requester, so GET and a repeated request are answered after the conversation ended.
 */
@Entity('transaction_request')
export class TransactionRequestRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 }) transactionRequestId!: string;
  /** The requester: the payee FSP, which sent the POST. */
  @Column({ type: 'varchar', length: 32 }) payeeFsp!: string;
  /** The payer FSP the request went to; null when the request named none. */
  @Column({ type: 'varchar', length: 32, nullable: true }) payerFsp!: string | null;
  @Column({ type: 'varchar', length: 64 }) requestHash!: string;
  @Column({ type: 'varchar', length: 20 }) state!: TransactionRequestRecordState;
  /** The last answer's headers (null for the hub's own error) and body, JSON-encoded, as passed to the requester. */
  @Column({ type: 'text', nullable: true }) responseHeaders!: string | null;
  @Column({ type: 'text', nullable: true }) responseBody!: string | null;
  @Column(timestamp) createdDate!: Date;
  /** When the last answer was passed on; the retention period runs from it. */
  @Column({ ...timestamp, nullable: true }) completedDate!: Date | null;
}

/**
 * A bulk transfer as the switch knows it, for GET /bulkTransfers/{ID} and the duplicate rule. Each of its
 * individual transfers is a `TransferRecord` and a ledger movement of its own; `BulkTransferItem` links them.
 */
@Entity('bulk_transfer')
export class BulkTransferRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 }) bulkTransferId!: string;
  @Column({ type: 'varchar', length: 32 }) payerFsp!: string;
  @Column({ type: 'varchar', length: 32 }) payeeFsp!: string;
  @Column(timestamp) expiration!: Date;
  @Column({ type: 'varchar', length: 64 }) requestHash!: string;
  @Column({ type: 'varchar', length: 20 }) bulkTransferState!: BulkTransferState;
  /** The payer's POST body without its individual transfers (JSON): what the hub's POST to the payee repeats. */
  @Column({ type: 'text' }) request!: string;
  /** Why the bulk as a whole was rejected (its checks, the payee's PUT …/error); items carry their own outcome. */
  @Column({ type: 'varchar', length: 4, nullable: true }) errorCode!: string | null;
  @Column({ type: 'varchar', length: 256, nullable: true }) errorDescription!: string | null;
  @Column({ ...timestamp, nullable: true }) completedTimestamp!: Date | null;
  @Column(timestamp) createdDate!: Date;
}

/**
 * One individual transfer of a bulk, in the bulk's order. An item accepted at prepare has the `TransferRecord` of
 * its transferId (amount, condition, state, outcome) and a ledger movement; a refused one carries its error here,
 * and has a record of its own only if its transferId was not taken (repeated in the bulk, another transfer's).
 */
@Entity('bulk_transfer_item')
@Index(['transferId'])
export class BulkTransferItem {
  @PrimaryColumn({ type: 'varchar', length: 64 }) bulkTransferId!: string;
  @PrimaryColumn({ type: 'int' }) itemIndex!: number;
  @Column({ type: 'varchar', length: 64 }) transferId!: string;
  /** The IndividualTransfer as the payer sent it (JSON), passed on to the payee as it came. */
  @Column({ type: 'text' }) request!: string;
  /** Why the item was refused at prepare; it was then never sent to the payee. */
  @Column({ type: 'varchar', length: 4, nullable: true }) errorCode!: string | null;
  @Column({ type: 'varchar', length: 256, nullable: true }) errorDescription!: string | null;
}

/** A message the switch received or delivered (activities/shared/contracts/messageLog.ts), kept for tracing. */
@Entity('message')
@Index('IDX_message_conversation', ['conversation', 'id'])
export class MessageRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 300 }) conversation!: string;
  @Column({ type: 'varchar', length: 3 }) direction!: 'in' | 'out';
  @Column({ type: 'varchar', length: 8 }) method!: string;
  @Column({ type: 'varchar', length: 1000 }) target!: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) source!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) destination!: string | null;
  /** JSON of the headers. */
  @Column({ type: 'text' }) headers!: string;
  @Column({ type: 'text', nullable: true }) body!: string | null;
  @Column({ type: 'int', nullable: true }) status!: number | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) error!: string | null;
  /** From the W3C traceparent it carried: a participant's trace finds the conversation. */
  @Index('IDX_message_trace') @Column({ type: 'varchar', length: 32, nullable: true }) traceId!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column({ type: 'int' }) durationMs!: number;
}
