import { Column, Entity, PrimaryColumn } from 'typeorm';
import { moneyColumn } from './money';

const money = { type: 'decimal', precision: 38, scale: 4, transformer: moneyColumn } as const;
const timestamp = { type: 'datetime', precision: 3 } as const;

/**
 * The ledger check's checkpoint, a row per account: its journal's sums over the rows up to `throughJournalId`, and the
 * sum of the movements committed in them, so a check reads only the journal rows after it. Every row carries the same
 * `throughJournalId`: all are written in one transaction.
 */
@Entity('ledger_checkpoint')
export class LedgerCheckpoint {
  @PrimaryColumn({ type: 'int' }) accountId!: number;
  @Column({ type: 'int' }) throughJournalId!: number;
  @Column(money) journalValue!: string;
  @Column(money) journalReservedValue!: string;
  @Column(money) movedValue!: string;
  @Column(timestamp) takenDate!: Date;
}

/**
 * The latest check of the ledger (one row, `name` 'latest'): its outcome as GET /ledger/checks/latest answers it, and
 * when the last full check ran, so the scheduled check knows when the next is due.
 */
@Entity('ledger_check')
export class LedgerCheckRecord {
  @PrimaryColumn({ type: 'varchar', length: 20 }) name!: string;
  @Column(timestamp) checkedAt!: Date;
  @Column({ type: 'boolean' }) holds!: boolean;
  /** The check's outcome (LedgerCheck), as JSON. */
  @Column({ type: 'text' }) outcome!: string;
  @Column({ ...timestamp, nullable: true }) lastFullDate!: Date | null;
}
