import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A committed payment records the settlement model its currency had as it committed: a gross one settled it in that
 * step, so no net settlement may take it again, whatever model the currency moves to before its window is settled.
 * Payments committed before this record, where their journal shows a gross settlement, take their currency's gross
 * model (its own, else the default one).
 */
export class PaymentSettlement1795000001200 implements MigrationInterface {
  name = 'PaymentSettlement1795000001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('ledger_transfer', new TableColumn({ name: 'settlementModelId', type: 'int', isNullable: true }));
    await queryRunner.query(
      `UPDATE ledger_transfer SET settlementModelId = (
         SELECT m.settlementModelId FROM settlement_model m
         WHERE m.settlementGranularity = 'GROSS' AND m.ledgerAccountType = 'POSITION'
           AND (m.currency = ledger_transfer.currency OR m.currency IS NULL)
         ORDER BY m.currency IS NULL, m.settlementModelId DESC LIMIT 1)
       WHERE kind = 'TRANSFER' AND state = 'COMMITTED'
         AND EXISTS (SELECT 1 FROM journal_entry j WHERE j.transferId = ledger_transfer.transferId AND j.phase = 'GROSS_SETTLEMENT')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('ledger_transfer', 'settlementModelId');
  }
}
