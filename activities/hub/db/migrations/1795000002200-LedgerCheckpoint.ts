import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** The ledger check's checkpoint (a row per account) and its latest outcome, the alarm the console shows. */
export class LedgerCheckpoint1795000002200 implements MigrationInterface {
  name = 'LedgerCheckpoint1795000002200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { money, text, int, flag, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'ledger_checkpoint',
        columns: [
          { ...int('accountId'), isPrimary: true },
          int('throughJournalId'),
          money('journalValue'),
          money('journalReservedValue'),
          money('movedValue'),
          time('takenDate'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ledger_check',
        columns: [{ ...text('name', 20), isPrimary: true }, time('checkedAt'), flag('holds'), { name: 'outcome', type: 'text' }, time('lastFullDate', true)],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('ledger_check');
    await queryRunner.dropTable('ledger_checkpoint');
  }
}
