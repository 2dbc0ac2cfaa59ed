import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** E-mails to participants (Document 3's notification endpoints), queued with the change that causes them and sent after. */
export class Notifications1795000001000 implements MigrationInterface {
  name = 'Notifications1795000001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { id, int, text, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'notification',
        columns: [
          id('id'),
          int('participantId'),
          text('endpointType', 100),
          text('subject', 200),
          { name: 'body', type: 'text' },
          time('createdDate'),
          time('sentDate', true),
        ],
        indices: [{ columnNames: ['sentDate'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notification');
  }
}
