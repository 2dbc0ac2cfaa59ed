import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A sequence number as a JavaScript number: BIGINT arrives as a string from MySQL (bigNumberStrings). */
const sequence = { type: 'bigint', transformer: { to: (value: number) => value, from: (value: string | number) => Number(value) } } as const;
const text = (length: number) => ({ type: 'varchar', length, nullable: true }) as const;

/**
 * One entry of the audit trail (activities/hub/audit/auditTrail.ts). Rows are only ever inserted: `hash` covers every
 * other column and the previous entry's hash, so an edited or deleted row breaks the chain that GET /audit/verify walks.
 * Snapshots are kept as the JSON text that was hashed, so the hash is recomputed from exactly what is stored (their
 * columns are named stateBefore and stateAfter: BEFORE is a reserved word of MySQL's).
 */
@Entity('audit_entry')
export class AuditEntryRecord {
  @PrimaryColumn(sequence) sequence!: number;
  @Column({ type: 'datetime', precision: 3 }) at!: Date;
  @Column(text(128)) actor!: string | null;
  /** The caller's roles, comma-separated ('' for none). */
  @Column({ type: 'varchar', length: 128 }) roles!: string;
  @Column(text(16)) credential!: string | null;
  @Column({ type: 'varchar', length: 128 }) action!: string;
  @Column(text(8)) method!: string | null;
  @Column(text(256)) route!: string | null;
  @Column(text(1000)) target!: string | null;
  @Column(text(32)) permission!: string | null;
  @Column(text(64)) bodyDigest!: string | null;
  @Column({ name: 'stateBefore', type: 'text', nullable: true }) before!: string | null;
  @Column({ name: 'stateAfter', type: 'text', nullable: true }) after!: string | null;
  @Column({ type: 'int', nullable: true }) status!: number | null;
  @Column(text(4)) errorCode!: string | null;
  @Column(text(64)) approvalId!: string | null;
  @Column(text(500)) detail!: string | null;
  @Column(text(64)) address!: string | null;
  @Column(text(256)) userAgent!: string | null;
  /** What makes an append idempotent (an activity's, retried): one entry per reference. */
  @Column(text(128)) reference!: string | null;
  @Column({ type: 'varchar', length: 64 }) previousHash!: string;
  @Column({ type: 'varchar', length: 64 }) hash!: string;
}

/**
 * The head of the chain, one row: the last entry's sequence and hash. Every append locks it, so appends by any number
 * of processes are serialised and the chain never forks; verification checks that the entries reach it.
 */
@Entity('audit_head')
export class AuditHead {
  @PrimaryColumn({ type: 'int' }) id!: number;
  @Column(sequence) sequence!: number;
  @Column({ type: 'varchar', length: 64 }) hash!: string;
}
