import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** The transaction requests the switch routes, kept for GET and the duplicate rule. */
export class TransactionRequests1795000000200 implements MigrationInterface {
  name = 'TransactionRequests1795000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { isMysql, text, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'transaction_request',
        columns: [
          { ...text('transactionRequestId', 64), isPrimary: true },
          text('payeeFsp', 32),
          text('payerFsp', 32, true),
          text('requestHash', 64),
          text('state', 20),
          { name: 'responseHeaders', type: 'text', isNullable: true },
          { name: 'responseBody', type: isMysql ? 'mediumtext' : 'text', isNullable: true },
          time('createdDate'),
          time('completedDate', true),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('transaction_request');
  }
}
