import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** Bulk transfers and their items; each item's money and state are in `transfer` and the ledger, as for any transfer. */
export class BulkTransfers1795000000400 implements MigrationInterface {
  name = 'BulkTransfers1795000000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { int, text, time } = columns(queryRunner);
    const longText = (name: string, nullable = false) => ({ name, type: 'text', isNullable: nullable });

    await queryRunner.createTable(
      new Table({
        name: 'bulk_transfer',
        columns: [
          { ...text('bulkTransferId', 64), isPrimary: true },
          text('payerFsp', 32),
          text('payeeFsp', 32),
          time('expiration'),
          text('requestHash', 64),
          text('bulkTransferState', 20),
          longText('request'),
          text('errorCode', 4, true),
          text('errorDescription', 256, true),
          time('completedTimestamp', true),
          time('createdDate'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'bulk_transfer_item',
        columns: [
          { ...text('bulkTransferId', 64), isPrimary: true },
          { ...int('itemIndex'), isPrimary: true },
          text('transferId', 64),
          // An individual transfer is at most an ILP packet of 32,768 characters and a little more: within a MySQL TEXT.
          longText('request'),
          text('errorCode', 4, true),
          text('errorDescription', 256, true),
        ],
        foreignKeys: [{ columnNames: ['bulkTransferId'], referencedTableName: 'bulk_transfer', referencedColumnNames: ['bulkTransferId'] }],
        indices: [{ columnNames: ['transferId'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['bulk_transfer_item', 'bulk_transfer']) await queryRunner.dropTable(table);
  }
}
