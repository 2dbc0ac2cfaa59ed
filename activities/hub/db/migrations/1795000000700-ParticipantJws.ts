import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** Participants' end-to-end signature settings: the public key set through the admin API, and validation on or off. */
export class ParticipantJws1795000000700 implements MigrationInterface {
  name = 'ParticipantJws1795000000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'participant_jws',
        columns: [
          { ...text('name', 30), isPrimary: true },
          { name: 'publicKey', type: 'text', isNullable: true },
          { name: 'validate', type: 'boolean', isNullable: true },
          time('changedDate'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('participant_jws');
  }
}
