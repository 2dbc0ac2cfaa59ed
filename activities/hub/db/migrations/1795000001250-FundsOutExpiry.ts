import { MigrationInterface, QueryRunner } from 'typeorm';
import { columns } from './columns';

/** central-ledger's INTERNAL_TRANSFER_VALIDITY_SECONDS, which funds.ts's FUNDS_OUT_VALIDITY_MS keeps from now on. */
const VALIDITY_SECONDS = 432_000;

/**
 * A funds-out reservation now lapses as central-ledger's does, five days after it was made, and the sweep releases it.
 * Those standing when this runs were made without an expiry (among them, any the console reserved and never got to
 * commit): each takes the one it would have had, so the sweep releases the stranded and leaves the recent waiting.
 */
export class FundsOutExpiry1795000001250 implements MigrationInterface {
  name = 'FundsOutExpiry1795000001250';

  async up(queryRunner: QueryRunner): Promise<void> {
    const lapse = columns(queryRunner).isMysql
      ? `DATE_ADD(createdDate, INTERVAL ${VALIDITY_SECONDS} SECOND)`
      : `strftime('%Y-%m-%d %H:%M:%f', createdDate, '+${VALIDITY_SECONDS} seconds')`;
    await queryRunner.query(`UPDATE ledger_transfer SET expiresAt = ${lapse} WHERE kind = 'FUNDS_OUT' AND state = 'RESERVED' AND expiresAt IS NULL`);
  }

  async down(): Promise<void> {
    // The expiries stay: a funds-out reservation without one is what this migration ended.
  }
}
