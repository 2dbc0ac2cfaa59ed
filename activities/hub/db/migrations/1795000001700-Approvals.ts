import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns } from './columns';

/** Changes held for a second person (four eyes), from the request to its decision, expiry and outcome. */
export class Approvals1795000001700 implements MigrationInterface {
  name = 'Approvals1795000001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time, isMysql } = columns(queryRunner);
    // A settlement's change names every account it moves: more than TEXT's 64 KB on MySQL for a large scheme.
    const json = (name: string, nullable = false) => ({ name, type: isMysql ? 'mediumtext' : 'text', isNullable: nullable });
    await queryRunner.createTable(
      new Table({
        name: 'approval',
        columns: [
          { ...text('approvalId', 36), isPrimary: true },
          text('state', 10),
          text('changeGroup', 20),
          text('action', 40),
          text('summary', 300),
          json('input'),
          { ...text('pendingKey', 64, true), isUnique: true },
          text('requestedBy', 128),
          text('requestedCredential', 12),
          time('requestedDate'),
          time('expiresDate'),
          text('decidedBy', 128, true),
          text('decidedCredential', 12, true),
          time('decidedDate', true),
          text('reason', 512, true),
          json('outcome', true),
        ],
        indices: [
          new TableIndex({ name: 'IDX_approval_state', columnNames: ['state', 'requestedDate'] }),
          new TableIndex({ name: 'IDX_approval_requester', columnNames: ['requestedBy'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('approval');
  }
}
