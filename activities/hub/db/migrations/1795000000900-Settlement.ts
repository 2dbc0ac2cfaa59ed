import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns';

/**
 * Settlement windows and settlements (Mojaloop's central-settlement): the windows, what each closed one holds, the
 * settlements and each participant's account in them; every committed transfer names the window it belongs to. The
 * first window opens now.
 */
export class Settlement1795000000900 implements MigrationInterface {
  name = 'Settlement1795000000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { id, int, isMysql, money, text, time } = columns(queryRunner);
    const state = (length = 20) => text('state', length);
    await queryRunner.createTable(
      new Table({
        name: 'settlement_window',
        columns: [id('settlementWindowId'), state(), text('reason', 512, true), time('createdDate'), time('changedDate')],
        indices: [{ columnNames: ['state'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'settlement_window_content',
        columns: [
          id('id'),
          int('settlementWindowId'),
          text('ledgerAccountType', 50),
          text('currency', 3),
          state(),
          { ...int('settlementId'), isNullable: true },
          time('createdDate'),
          time('changedDate'),
        ],
        indices: [{ columnNames: ['settlementWindowId', 'ledgerAccountType', 'currency'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'settlement',
        columns: [id('settlementId'), int('settlementModelId'), state(30), text('reason', 512, true), time('createdDate'), time('changedDate')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'settlement_settlement_window',
        columns: [
          { ...int('settlementId'), isPrimary: true },
          { ...int('settlementWindowId'), isPrimary: true },
        ],
        indices: [{ columnNames: ['settlementWindowId'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'settlement_participant_account',
        columns: [
          id('id'),
          int('settlementId'),
          int('participantId'),
          int('accountId'),
          text('currency', 3),
          money('netAmount'),
          int('transferCount'),
          state(30),
          text('reason', 512, true),
          text('externalReference', 256, true),
          time('createdDate'),
          time('changedDate'),
        ],
        indices: [{ columnNames: ['settlementId', 'accountId'], isUnique: true }],
      }),
    );
    await queryRunner.addColumn('ledger_transfer', new TableColumn({ name: 'settlementWindowId', type: 'int', isNullable: true }));
    await queryRunner.createIndex('ledger_transfer', new TableIndex({ name: 'IDX_ledger_transfer_window', columnNames: ['settlementWindowId'] }));
    // As TypeORM writes a datetime on each database: a Date for mysql2, UTC text for SQLite.
    const now = isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
    await queryRunner.query(`INSERT INTO settlement_window (state, reason, createdDate, changedDate) VALUES ('OPEN', 'initial window', ?, ?)`, [now, now]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('ledger_transfer', 'IDX_ledger_transfer_window');
    await queryRunner.dropColumn('ledger_transfer', 'settlementWindowId');
    for (const table of ['settlement_participant_account', 'settlement_settlement_window', 'settlement', 'settlement_window_content', 'settlement_window'])
      await queryRunner.dropTable(table);
  }
}
