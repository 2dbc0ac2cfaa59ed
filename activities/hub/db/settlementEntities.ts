import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { moneyColumn } from './money';

const money = { type: 'decimal', precision: 38, scale: 4, transformer: moneyColumn } as const;
const timestamp = { type: 'datetime', precision: 3 } as const;

/**
 * The longest `reason` and `externalReference` the settlement tables hold (MySQL refuses a longer one): the settlement
 * API's schemas refuse longer ones too, the same on every database.
 */
export const SETTLEMENT_TEXT_LENGTHS = { reason: 512, externalReference: 256 } as const;
const reasonColumn = { type: 'varchar', length: SETTLEMENT_TEXT_LENGTHS.reason, nullable: true } as const;

export type SettlementWindowState = 'OPEN' | 'CLOSED' | 'PENDING_SETTLEMENT' | 'SETTLED' | 'ABORTED';

/**
 * A period of committed transfers settled together (Mojaloop's settlement window). One is OPEN at any time: every
 * transfer committed while it is open belongs to it (ledger_transfer.settlementWindowId).
 */
@Entity('settlement_window')
@Index(['state'])
export class SettlementWindow {
  @PrimaryGeneratedColumn() settlementWindowId!: number;
  @Column({ type: 'varchar', length: 20 }) state!: SettlementWindowState;
  @Column(reasonColumn) reason!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column(timestamp) changedDate!: Date;
}

/** What a closed window holds, per ledger account type and currency: each is settled on its own, by its own settlement. */
@Entity('settlement_window_content')
@Index(['settlementWindowId', 'ledgerAccountType', 'currency'], { unique: true })
export class SettlementWindowContent {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) settlementWindowId!: number;
  @Column({ type: 'varchar', length: 50 }) ledgerAccountType!: string;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 20 }) state!: SettlementWindowState;
  @Column({ type: 'int', nullable: true }) settlementId!: number | null;
  @Column(timestamp) createdDate!: Date;
  @Column(timestamp) changedDate!: Date;
}

export type SettlementState =
  'PENDING_SETTLEMENT' | 'PS_TRANSFERS_RECORDED' | 'PS_TRANSFERS_RESERVED' | 'PS_TRANSFERS_COMMITTED' | 'SETTLING' | 'SETTLED' | 'ABORTED';

/** A settlement of closed windows' content under one settlement model. */
@Entity('settlement')
export class Settlement {
  @PrimaryGeneratedColumn() settlementId!: number;
  @Column({ type: 'int' }) settlementModelId!: number;
  @Column({ type: 'varchar', length: 30 }) state!: SettlementState;
  @Column(reasonColumn) reason!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column(timestamp) changedDate!: Date;
}

/**
 * One participant's position account in a settlement: what it owes the others (netAmount above zero) or is owed
 * (below zero) over the settlement's windows, and where its settlement stands.
 */
@Entity('settlement_participant_account')
@Index(['settlementId', 'accountId'], { unique: true })
export class SettlementParticipantAccount {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) settlementId!: number;
  @Column({ type: 'int' }) participantId!: number;
  /** The participant's POSITION account (central-settlement's participantCurrencyId): the account ID its API shows. */
  @Column({ type: 'int' }) accountId!: number;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
  @Column(money) netAmount!: string;
  /** How many of the windows' transfers it paid or received. */
  @Column({ type: 'int' }) transferCount!: number;
  @Column({ type: 'varchar', length: 30 }) state!: SettlementState;
  @Column(reasonColumn) reason!: string | null;
  @Column({ type: 'varchar', length: SETTLEMENT_TEXT_LENGTHS.externalReference, nullable: true }) externalReference!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column(timestamp) changedDate!: Date;
}

/** The windows a settlement was made of, kept after an abort frees their content for another. */
@Entity('settlement_settlement_window')
export class SettlementSettlementWindow {
  @PrimaryColumn({ type: 'int' }) settlementId!: number;
  @PrimaryColumn({ type: 'int' }) settlementWindowId!: number;
}
