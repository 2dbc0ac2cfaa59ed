import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const BY_WINDOW = 'IDX_ledger_transfer_window';
const WINDOW_IN_ORDER = new TableIndex({ name: 'IDX_ledger_transfer_window_state', columnNames: ['settlementWindowId', 'state', 'transferId'] });

/**
 * A window's committed payments in the order of their IDs, as a settlement's netting reads them a page at a time
 * (settlement/netting.ts): with the window's index alone SQLite found every payment of the window and sorted them for
 * each page, so the time to net a window grew with the square of its payments. With the state beside the window, a
 * window's close (windows.ts's paymentModels) finds its committed payments by two columns, where SQLite, without
 * statistics, would otherwise as soon pick the index by state and read every committed payment of every window. The
 * new index replaces the old, which it serves every lookup of, so the table keeps the number of indexes it had.
 */
export class WindowPaymentsInOrder1795000002600 implements MigrationInterface {
  name = 'WindowPaymentsInOrder1795000002600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('ledger_transfer', WINDOW_IN_ORDER);
    await queryRunner.dropIndex('ledger_transfer', BY_WINDOW);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('ledger_transfer', new TableIndex({ name: BY_WINDOW, columnNames: ['settlementWindowId'] }));
    await queryRunner.dropIndex('ledger_transfer', WINDOW_IN_ORDER.name!);
  }
}
