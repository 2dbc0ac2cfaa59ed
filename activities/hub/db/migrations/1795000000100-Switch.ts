import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** Account lookup entries, and the transfer and quote records the switch keeps for GET and duplicates. */
export class Switch1795000000100 implements MigrationInterface {
  name = 'Switch1795000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { isMysql, money, id, text, flag, time } = columns(queryRunner);

    await queryRunner.createTable(
      new Table({
        name: 'party_lookup',
        columns: [
          id('id'),
          text('partyIdType', 32),
          text('partyIdentifier', 128),
          text('partySubIdOrType', 128),
          text('currency', 3),
          text('fspId', 32),
          time('createdDate'),
        ],
        indices: [{ columnNames: ['partyIdType', 'partyIdentifier', 'partySubIdOrType', 'currency'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'transfer',
        columns: [
          { ...text('transferId', 64), isPrimary: true },
          text('payerFsp', 32),
          text('payeeFsp', 32),
          money('amount'),
          text('currency', 3),
          text('ilpCondition', 48),
          time('expiration'),
          text('requestHash', 64),
          text('transferState', 20),
          text('fulfilment', 48, true),
          time('completedTimestamp', true),
          text('errorCode', 4, true),
          text('errorDescription', 256, true),
          flag('payeeWantsNotification'),
          time('createdDate'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'quote',
        columns: [
          { ...text('quoteId', 64), isPrimary: true },
          text('payerFsp', 32),
          text('payeeFsp', 32),
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
    for (const table of ['quote', 'transfer', 'party_lookup']) await queryRunner.dropTable(table);
  }
}
