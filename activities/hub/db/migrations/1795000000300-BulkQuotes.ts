import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columns } from './columns';

/**
 * Bulk quotes share the quote record: the switch routes and answers them as it does quotes. The record's key
 * becomes the quote ID and its resource, since a DFSP may give a quote and a bulk quote the same ID; the rows
 * written before are quotes.
 */
export class BulkQuotes1795000000300 implements MigrationInterface {
  name = 'BulkQuotes1795000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text } = columns(queryRunner);
    await queryRunner.addColumn('quote', new TableColumn({ ...text('resource', 16), isPrimary: true, default: "'quotes'" }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM quote WHERE resource <> 'quotes'");
    await queryRunner.dropColumn('quote', 'resource');
  }
}
