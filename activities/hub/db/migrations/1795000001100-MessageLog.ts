import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns } from './columns';

/** TRANSFER_SEARCH: the operator's transfer search, by payer, by payee, or by time alone, newest first. */
const TRANSFER_SEARCH = [
  new TableIndex({ name: 'IDX_transfer_payer_created', columnNames: ['payerFsp', 'createdDate'] }),
  new TableIndex({ name: 'IDX_transfer_payee_created', columnNames: ['payeeFsp', 'createdDate'] }),
  new TableIndex({ name: 'IDX_transfer_created', columnNames: ['createdDate'] }),
];

/** The message log the operator's traces read (activities/shared/contracts/messageLog.ts), and the indexes of the transfer search. */
export class MessageLog1795000001100 implements MigrationInterface {
  name = 'MessageLog1795000001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { id, int, text, time, isMysql } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'message',
        columns: [
          id('id'),
          text('conversation', 300),
          text('direction', 3),
          text('method', 8),
          text('target', 1000),
          text('source', 32, true),
          text('destination', 32, true),
          { name: 'headers', type: 'text' },
          // A bulk's body may be the whole 5 MB FSPIOP allows.
          { name: 'body', type: isMysql ? 'mediumtext' : 'text', isNullable: true },
          { name: 'status', type: 'int', isNullable: true },
          text('error', 1000, true),
          text('traceId', 32, true),
          time('createdDate'),
          int('durationMs'),
        ],
        indices: [
          { name: 'IDX_message_conversation', columnNames: ['conversation', 'id'] },
          { name: 'IDX_message_trace', columnNames: ['traceId'] },
        ],
      }),
    );
    for (const index of TRANSFER_SEARCH) await queryRunner.createIndex('transfer', index);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of TRANSFER_SEARCH) await queryRunner.dropIndex('transfer', index.name!);
    await queryRunner.dropTable('message');
  }
}
