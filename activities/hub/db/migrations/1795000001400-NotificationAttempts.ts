import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns';

/**
 * An e-mail counts the mail server's refusals and is set aside after its last, so one bad address holds up no other;
 * it names the participant and currency it tells of, so alarms about one position are sent at most once a period.
 */
export class NotificationAttempts1795000001400 implements MigrationInterface {
  name = 'NotificationAttempts1795000001400';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time } = columns(queryRunner);
    await queryRunner.addColumns('notification', [
      new TableColumn({ name: 'aboutParticipantId', type: 'int', isNullable: true }),
      new TableColumn(text('currency', 3, true)),
      new TableColumn({ name: 'attempts', type: 'int', default: 0 }),
      new TableColumn(text('lastError', 500, true)),
      new TableColumn(time('notBefore', true)),
      new TableColumn(time('setAsideDate', true)),
    ]);
    await queryRunner.createIndices('notification', [
      new TableIndex({ name: 'IDX_notification_about', columnNames: ['aboutParticipantId', 'currency', 'endpointType'] }),
      new TableIndex({ name: 'IDX_notification_set_aside', columnNames: ['setAsideDate'] }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('notification', 'IDX_notification_set_aside');
    await queryRunner.dropIndex('notification', 'IDX_notification_about');
    for (const column of ['setAsideDate', 'notBefore', 'lastError', 'attempts', 'currency', 'aboutParticipantId'])
      await queryRunner.dropColumn('notification', column);
  }
}
