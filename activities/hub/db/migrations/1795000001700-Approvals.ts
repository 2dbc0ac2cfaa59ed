import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns } from './columns';

/** Changes held for a second person (four eyes), from the request to its decision, expiry and outcome. */
export class Approvals1795000001700 implements MigrationInterface {
  name = 'Approvals1795000001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'approval',
        columns: [
          { ...text('approvalId', 36), isPrimary: true },
          text('state', 10),
          text('changeGroup', 20),
          text('action', 40),
          text('summary', 300),
          { name: 'input', type: 'text' },
          text('requestKey', 64),
          text('requestedBy', 128),
          text('requestedCredential', 12),
          time('requestedDate'),
          time('expiresDate'),
          text('decidedBy', 128, true),
          text('decidedCredential', 12, true),
          time('decidedDate', true),
          text('reason', 512, true),
          { name: 'outcome', type: 'text', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'IDX_approval_state', columnNames: ['state', 'requestedDate'] }),
          new TableIndex({ name: 'IDX_approval_request', columnNames: ['requestKey', 'state'] }),
          new TableIndex({ name: 'IDX_approval_requester', columnNames: ['requestedBy'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('approval');
  }
}
