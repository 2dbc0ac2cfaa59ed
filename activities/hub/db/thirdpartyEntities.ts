import { Column, Entity, PrimaryColumn } from 'typeorm';

const timestamp = { type: 'datetime', precision: 3 } as const;

/**
 * A consent's state (Document 1 leaves the moves "not shown"; Mojaloop's API names ISSUED and REVOKED). A consent the
 * switch only routed is ISSUED as its DFSP granted it; whether its credential was verified is the DFSP's Auth service's
 * business, not recorded here.
 */
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
  /**
   * The public key the Auth service verifies signatures with, as JSON (see activities/hub/auth/credentials); a FIDO
   * key carries the signature counter last seen, which an assertion must exceed.
   */
  @Column({ type: 'text', nullable: true }) publicKey!: string | null;
  /** SHA-256 of the canonical registration (POST /consents to the Auth service), for the duplicate rule. */
  @Column({ type: 'varchar', length: 64, nullable: true }) registrationHash!: string | null;
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

/**
 * A verification the hub's Auth service answered, by its ID: a retry with the same request gets the same outcome
 * (instead of failing on the counter it advanced), one with another request under the same ID is refused (3106).
 */
@Entity('consent_verification')
export class ConsentVerification {
  @PrimaryColumn({ type: 'varchar', length: 64 }) verificationRequestId!: string;
  @Column({ type: 'varchar', length: 64 }) consentId!: string;
  @Column({ type: 'varchar', length: 64 }) requestHash!: string;
  /** Why it did not verify; null when VERIFIED. */
  @Column({ type: 'text', nullable: true }) failure!: string | null;
  @Column(timestamp) createdDate!: Date;
}
