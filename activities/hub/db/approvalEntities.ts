import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const timestamp = { type: 'datetime', precision: 3 } as const;

/** The longest reason a decision may give (refused longer at the gateway, so MySQL never has to). */
export const APPROVAL_REASON_LENGTH = 512;

/**
 * A change held for a second person (four eyes): what was asked (a named admin action and its validated input), by
 * whom, and what became of it. The gateway writes it PENDING before it answers, so GET /approvals lists it at once; the
 * approval's workflow (`approval/<id>`) records its decision, expiry and outcome.
 */
@Entity('approval')
@Index('IDX_approval_state', ['state', 'requestedDate'])
export class ApprovalRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 }) approvalId!: string;
  @Column({ type: 'varchar', length: 10 }) state!: string;
  @Column({ type: 'varchar', length: 20 }) changeGroup!: string;
  @Column({ type: 'varchar', length: 40 }) action!: string;
  @Column({ type: 'varchar', length: 300 }) summary!: string;
  /** The action's input as JSON (MEDIUMTEXT on MySQL: a settlement's accounts may outgrow TEXT's 64 KB). */
  @Column({ type: 'text' }) input!: string;
  /**
   * SHA-256 of requester, action and input while the approval is PENDING, null once it is not: unique, so a request
   * repeated while it is held (two clicks at once included) finds the approval it already has.
   */
  @Column({ type: 'varchar', length: 64, nullable: true, unique: true }) pendingKey!: string | null;
  @Index('IDX_approval_requester') @Column({ type: 'varchar', length: 128 }) requestedBy!: string;
  @Column({ type: 'varchar', length: 12 }) requestedCredential!: string;
  @Column(timestamp) requestedDate!: Date;
  @Column(timestamp) expiresDate!: Date;
  @Column({ type: 'varchar', length: 128, nullable: true }) decidedBy!: string | null;
  @Column({ type: 'varchar', length: 12, nullable: true }) decidedCredential!: string | null;
  @Column({ ...timestamp, nullable: true }) decidedDate!: Date | null;
  @Column({ type: 'varchar', length: APPROVAL_REASON_LENGTH, nullable: true }) reason!: string | null;
  /** What performing it did (ApprovalOutcome as JSON), once approved. */
  @Column({ type: 'text', nullable: true }) outcome!: string | null;
}
