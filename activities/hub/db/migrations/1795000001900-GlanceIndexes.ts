import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const DECIDED = new TableIndex({ name: 'IDX_transfer_completed', columnNames: ['completedTimestamp'] });
const JOURNAL_BY_TIME = new TableIndex({ name: 'IDX_journal_entry_account_created', columnNames: ['accountId', 'createdDate'] });

/**
 * What the console's home page reads (activities/hub/metrics/schemeGlance.ts) without scanning the ledger: the transfers
 * decided in the last minutes, by the time of their decision; and a position's journal since a time. The journal's index
 * by account becomes one by account and time, which serves every lookup by account the old one served (and the foreign
 * key), so the hottest table keeps the number of indexes it had.
 */
export class GlanceIndexes1795000001900 implements MigrationInterface {
  name = 'GlanceIndexes1795000001900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('transfer', DECIDED);
    await queryRunner.createIndex('journal_entry', JOURNAL_BY_TIME);
    // Created unnamed by the first migration: found by its one column. Dropped after the new one exists, so MySQL's
    // foreign key on accountId always has an index to use.
    const journal = await queryRunner.getTable('journal_entry');
    const byAccount = journal?.indices.find((index) => index.columnNames.length === 1 && index.columnNames[0] === 'accountId');
    if (byAccount) await queryRunner.dropIndex('journal_entry', byAccount);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('journal_entry', new TableIndex({ columnNames: ['accountId'] }));
    await queryRunner.dropIndex('journal_entry', JOURNAL_BY_TIME.name!);
    await queryRunner.dropIndex('transfer', DECIDED.name!);
  }
}
