import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * The FSPIOP version each participant last wrote in: with 2.0 beside 1.x, the hub writes its own messages (errors,
 * notifications, answers from its records) to a participant in a version it reads (ParticipantDirectory.versionFor).
 */
export class ParticipantFspiopVersion1795000002700 implements MigrationInterface {
  name = 'ParticipantFspiopVersion1795000002700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('participant', new TableColumn({ name: 'fspiopVersion', type: 'varchar', length: '8', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('participant', 'fspiopVersion');
  }
}
