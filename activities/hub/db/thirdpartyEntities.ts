import { Column, Entity, PrimaryColumn } from 'typeorm';

const timestamp = { type: 'datetime', precision: 3 } as const;

/** A consent's state (Document 1 leaves the moves "not shown"; Mojaloop's API names ISSUED and REVOKED). */
export type ConsentState = 'ISSUED' | 'REVOKED';

/**
 * A consent as the hub knows it. Every consent the switch routes gets a row when its DFSP sends POST /consents to the
 * PISP: its IDs and its two participants, so later messages find their linking and only the consent's DFSP or PISP
 * may unlink it. A consent registered with the hub's Auth service also holds its scopes and credential, so the Auth
 * service answers from here after the consent's workflow history is gone.
 */
@Entity('consent')
export class ConsentRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 }) consentId!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) consentRequestId!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) dfsp!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) pisp!: string | null;
  @Column({ type: 'varchar', length: 16 }) state!: ConsentState;
  /** The scopes registered with the Auth service, as JSON; null for a consent only routed. */
  @Column({ type: 'text', nullable: true }) scopes!: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) credentialType!: 'FIDO' | 'GENERIC' | null;
  /** The credential as registered (SignedCredential), as JSON: the Auth service echoes it, VERIFIED, in PUT /consents/{ID}. */
  @Column({ type: 'text', nullable: true }) credential!: string | null;
  /** The public key the Auth service verifies signatures with, as JSON (see activities/hub/auth/credentials). */
  @Column({ type: 'text', nullable: true }) publicKey!: string | null;
  /** The FIDO signature counter last seen: an assertion must carry a greater one. */
  @Column({ type: 'bigint', default: 0, transformer: { to: (value: number) => value, from: (value: string | number) => Number(value) } })
  signCount!: number;
  /** SHA-256 of the canonical registration (POST /consents to the Auth service), for the duplicate rule. */
  @Column({ type: 'varchar', length: 64, nullable: true }) registrationHash!: string | null;
  /**
   * The last verification served and why it failed (null when VERIFIED): a retried
   * verification gets the same outcome instead of failing on the counter it already advanced.
   */
  @Column({ type: 'varchar', length: 64, nullable: true }) lastVerificationId!: string | null;
  @Column({ type: 'text', nullable: true }) lastVerificationError!: string | null;
  @Column(timestamp) createdDate!: Date;
  @Column({ ...timestamp, nullable: true }) revokedAt!: Date | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) revokedBy!: string | null;
}

/**
 * Which third-party transaction a message belongs to when its path does not say: an authorization
 * (`authorization:<authorizationRequestId>`), the challenge it carried (`challenge:<sha256>`), a verification.
 */
@Entity('thirdparty_correlation')
export class ThirdpartyCorrelation {
  @PrimaryColumn({ type: 'varchar', length: 128 }) correlationKey!: string;
  @Column({ type: 'varchar', length: 64 }) transactionRequestId!: string;
  @Column(timestamp) createdDate!: Date;
}
