import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * A reservation carries its expiry: the ledger refuses to commit one after it, and the sweep finds expired ones in
 * the ledger itself. Reservations standing when this runs take their transfer's expiration.
 */
export class ReservationExpiry1795000000800 implements MigrationInterface {
  name = 'ReservationExpiry1795000000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('ledger_transfer', new TableColumn({ name: 'expiresAt', type: 'datetime', precision: 3, isNullable: true }));
    await queryRunner.createIndex('ledger_transfer', new TableIndex({ name: 'IDX_ledger_transfer_state_expiry', columnNames: ['state', 'expiresAt'] }));
    await queryRunner.query(
      `UPDATE ledger_transfer SET expiresAt = (SELECT t.expiration FROM transfer t WHERE t.transferId = ledger_transfer.transferId)
       WHERE kind = 'TRANSFER' AND state = 'RESERVED'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('ledger_transfer', 'IDX_ledger_transfer_state_expiry');
    await queryRunner.dropColumn('ledger_transfer', 'expiresAt');
  }
}
