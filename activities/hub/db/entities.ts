import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { moneyColumn } from './money';
import { ConsentRecord, ConsentVerification, ThirdpartyCorrelation } from './thirdpartyEntities';
import { BulkTransferItem, BulkTransferRecord, MessageRecord, PartyLookup, QuoteRecord, TransactionRequestRecord, TransferRecord } from './switchEntities';
import { DeliveryFailures, TransferOutcome } from './metricsEntities';
import { ApprovalRecord } from './approvalEntities';
import { AuditEntryRecord, AuditHead } from './auditEntities';
import { LedgerCheckpoint, LedgerCheckRecord } from './ledgerCheckEntities';
import { Settlement, SettlementParticipantAccount, SettlementSettlementWindow, SettlementWindow, SettlementWindowContent } from './settlementEntities';

const money = { type: 'decimal', precision: 38, scale: 4, transformer: moneyColumn } as const;
const timestamp = { type: 'datetime', precision: 3 } as const;

/** A DFSP of the scheme, or the hub itself. */
@Entity('participant')
export class Participant {
  @PrimaryGeneratedColumn() participantId!: number;
  @Column({ type: 'varchar', length: 30, unique: true }) name!: string;
  @Column({ type: 'boolean' }) isActive!: boolean;
  @Column(timestamp) createdDate!: Date;
  @Column({ type: 'varchar', length: 128 }) createdBy!: string;
  /** The FSPIOP version of the participant's latest message, in which the hub writes to it (ParticipantDirectory.versionFor). */
  @Column({ type: 'varchar', length: 8, nullable: true }) fspiopVersion!: string | null;
}

/**
 * A ledger account of a participant in one currency. `value` is the posted balance; `reservedValue`
 * holds pending debits (prepared transfers, funds-out reservations) until they are committed or released.
 * Both are derived from `journal_entry` and kept here so a reservation can be checked in one row lock.
 */
@Entity('participant_account')
@Index(['participantId', 'currency', 'ledgerAccountType'], { unique: true })
export class ParticipantAccount {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) participantId!: number;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 50 }) ledgerAccountType!: string;
  @Column({ type: 'boolean' }) isActive!: boolean;
  @Column(money) value!: string;
  @Column(money) reservedValue!: string;
  @Column(timestamp) createdDate!: Date;
  @Column({ type: 'varchar', length: 128 }) createdBy!: string;
  @Column(timestamp) changedDate!: Date;
}

/** The Net Debit Cap on a participant's position account. */
@Entity('participant_limit')
@Index(['accountId', 'type'], { unique: true })
export class ParticipantLimit {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) accountId!: number;
  @Column({ type: 'varchar', length: 50 }) type!: string;
  @Column(money) value!: string;
  @Column(money) alarmPercentage!: string;
  @Column(timestamp) changedDate!: Date;
}

/** A callback address template (`{{transferId}}`…) for one endpoint type of a participant. */
@Entity('participant_endpoint')
@Index(['participantId', 'type'], { unique: true })
export class ParticipantEndpoint {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) participantId!: number;
  @Column({ type: 'varchar', length: 100 }) type!: string;
  @Column({ type: 'varchar', length: 512 }) value!: string;
  @Column(timestamp) changedDate!: Date;
}

/**
 * A participant's end-to-end signature settings, as the admin API set them: the public key its FSPIOP-Signatures are
 * verified with (it supersedes the key directory's `<name>.pem`), and whether its messages are validated (null: as the
 * scheme's JWS_VALIDATE says).
 */
@Entity('participant_jws')
export class ParticipantJws {
  @PrimaryColumn({ type: 'varchar', length: 30 }) name!: string;
  @Column({ type: 'text', nullable: true }) publicKey!: string | null;
  @Column({ type: 'boolean', nullable: true }) validate!: boolean | null;
  @Column(timestamp) changedDate!: Date;
}

@Entity('ledger_account_type')
export class LedgerAccountType {
  @PrimaryColumn({ type: 'varchar', length: 50 }) name!: string;
  @Column({ type: 'varchar', length: 512 }) description!: string;
  @Column({ type: 'boolean' }) isActive!: boolean;
  @Column({ type: 'boolean' }) isSettleable!: boolean;
  @Column(timestamp) createdDate!: Date;
}

@Entity('settlement_model')
export class SettlementModel {
  @PrimaryGeneratedColumn() settlementModelId!: number;
  @Column({ type: 'varchar', length: 30, unique: true }) name!: string;
  @Column({ type: 'boolean' }) isActive!: boolean;
  @Column({ type: 'varchar', length: 20 }) settlementGranularity!: string;
  @Column({ type: 'varchar', length: 20 }) settlementInterchange!: string;
  @Column({ type: 'varchar', length: 20 }) settlementDelay!: string;
  @Column({ type: 'varchar', length: 3, nullable: true }) currency!: string | null;
  @Column({ type: 'boolean' }) requireLiquidityCheck!: boolean;
  @Column({ type: 'varchar', length: 50 }) ledgerAccountType!: string;
  @Column({ type: 'varchar', length: 50 }) settlementAccountType!: string;
  @Column({ type: 'boolean' }) autoPositionReset!: boolean;
  @Column(timestamp) createdDate!: Date;
}

export type LedgerTransferState = 'RESERVED' | 'COMMITTED' | 'ABORTED';

/**
 * One movement of money between two accounts, TigerBeetle style: reserved (pending), then either
 * committed (posted) or aborted (voided), never edited. The debit account's value rises, the credit
 * account's falls, so every currency's accounts always sum to zero.
 */
@Entity('ledger_transfer')
@Index('IDX_ledger_transfer_state_expiry', ['state', 'expiresAt'])
@Index('IDX_ledger_transfer_window_state', ['settlementWindowId', 'state', 'transferId'])
export class LedgerTransfer {
  @PrimaryColumn({ type: 'varchar', length: 64 }) transferId!: string;
  @Column({ type: 'varchar', length: 30 }) kind!: string;
  @Column({ type: 'varchar', length: 20 }) state!: LedgerTransferState;
  @Column({ type: 'int' }) debitAccountId!: number;
  @Column({ type: 'int' }) creditAccountId!: number;
  @Column(money) amount!: string;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 256, nullable: true }) externalReference!: string | null;
  @Column({ type: 'varchar', length: 512, nullable: true }) reason!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column({ ...timestamp, nullable: true }) completedDate!: Date | null;
  /** When a reservation lapses: a commit at or after it is refused, and the sweep releases it some time after. */
  @Column({ ...timestamp, nullable: true }) expiresAt!: Date | null;
  /** The settlement window a committed transfer belongs to: the one open when the ledger committed it. */
  @Column({ type: 'int', nullable: true }) settlementWindowId!: number | null;
  /**
   * A committed payment's settlement model as it committed, null where none settled its currency: a gross one settled
   * it in that commit's own step; under any other its window's net settlement takes it (models.ts's windowModelFor).
   */
  @Column({ type: 'int', nullable: true }) settlementModelId!: number | null;
}

/**
 * Every change of an account's value or reservedValue is one row here. The unique key
 * (transferId, accountId, phase) makes a retried ledger operation unable to apply twice.
 */
@Entity('journal_entry')
@Index(['transferId', 'accountId', 'phase'], { unique: true })
@Index('IDX_journal_entry_account_created', ['accountId', 'createdDate'])
export class JournalEntry {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 64 }) transferId!: string;
  @Column({ type: 'int' }) accountId!: number;
  @Column({ type: 'varchar', length: 20 }) phase!: string;
  @Column(money) postedAmount!: string;
  @Column(money) reservedAmount!: string;
  @Column(timestamp) createdDate!: Date;
}

/**
 * An e-mail to a participant's notification address (`participantId`), queued in the transaction of what it tells and
 * sent after it; or, refused by the mail server `attempts` times, set aside for the operator (`setAsideDate`).
 */
@Entity('notification')
@Index('IDX_notification_about', ['aboutParticipantId', 'currency', 'endpointType'])
export class Notification {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) participantId!: number;
  @Column({ type: 'varchar', length: 100 }) endpointType!: string;
  /** The participant and currency it tells of (null on e-mails queued before they were kept). */
  @Column({ type: 'int', nullable: true }) aboutParticipantId!: number | null;
  @Column({ type: 'varchar', length: 3, nullable: true }) currency!: string | null;
  @Column({ type: 'varchar', length: 200 }) subject!: string;
  @Column({ type: 'text' }) body!: string;
  @Column(timestamp) createdDate!: Date;
  @Index() @Column({ ...timestamp, nullable: true }) sentDate!: Date | null;
  /** Times the mail server refused it. */
  @Column({ type: 'int', default: 0 }) attempts!: number;
  /** The mail server's latest refusal. */
  @Column({ type: 'varchar', length: 500, nullable: true }) lastError!: string | null;
  /** Not tried again before this: after a refusal, or while an alarm e-mail of the same kind was sent too lately. */
  @Column({ ...timestamp, nullable: true }) notBefore!: Date | null;
  @Index('IDX_notification_set_aside') @Column({ ...timestamp, nullable: true }) setAsideDate!: Date | null;
}

export const entities = [
  LedgerCheckpoint,
  LedgerCheckRecord,
  Participant,
  ParticipantAccount,
  ParticipantLimit,
  ParticipantEndpoint,
  ParticipantJws,
  LedgerAccountType,
  SettlementModel,
  LedgerTransfer,
  JournalEntry,
  PartyLookup,
  TransferRecord,
  QuoteRecord,
  TransactionRequestRecord,
  BulkTransferRecord,
  BulkTransferItem,
  ConsentRecord,
  ConsentVerification,
  ThirdpartyCorrelation,
  SettlementWindow,
  SettlementWindowContent,
  Settlement,
  SettlementSettlementWindow,
  SettlementParticipantAccount,
  Notification,
  MessageRecord,
  TransferOutcome,
  DeliveryFailures,
  ApprovalRecord,
  AuditEntryRecord,
  AuditHead,
];

export {
  BulkTransferItem,
  BulkTransferRecord,
  MessageRecord,
  ConsentRecord,
  ConsentVerification,
  PartyLookup,
  QuoteRecord,
  ThirdpartyCorrelation,
  TransactionRequestRecord,
  TransferRecord,
};
