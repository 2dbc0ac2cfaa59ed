import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns } from './columns';

/** The participants, accounts, limits, endpoints, settlement models and the double-entry journal. */
export class Ledger1795000000000 implements MigrationInterface {
  name = 'Ledger1795000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createParticipantTables(queryRunner);
    await createSchemeTables(queryRunner);
    await createJournalTables(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'journal_entry',
      'ledger_transfer',
      'settlement_model',
      'ledger_account_type',
      'participant_endpoint',
      'participant_limit',
      'participant_account',
      'participant',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}

/** The participants, their accounts with the limits on them, and their endpoints. */
async function createParticipantTables(queryRunner: QueryRunner): Promise<void> {
  const { money, id, text, int, flag, time } = columns(queryRunner);
  await queryRunner.createTable(
    new Table({
      name: 'participant',
      columns: [id('participantId'), { ...text('name', 30), isUnique: true }, flag('isActive'), time('createdDate'), text('createdBy', 128)],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'participant_account',
      columns: [
        id('id'),
        int('participantId'),
        text('currency', 3),
        text('ledgerAccountType', 50),
        flag('isActive'),
        money('value'),
        money('reservedValue'),
        time('createdDate'),
        text('createdBy', 128),
        time('changedDate'),
      ],
      foreignKeys: [{ columnNames: ['participantId'], referencedTableName: 'participant', referencedColumnNames: ['participantId'] }],
      indices: [{ columnNames: ['participantId', 'currency', 'ledgerAccountType'], isUnique: true }],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'participant_limit',
      columns: [id('id'), int('accountId'), text('type', 50), money('value'), money('alarmPercentage'), time('changedDate')],
      foreignKeys: [{ columnNames: ['accountId'], referencedTableName: 'participant_account', referencedColumnNames: ['id'] }],
      indices: [{ columnNames: ['accountId', 'type'], isUnique: true }],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'participant_endpoint',
      columns: [id('id'), int('participantId'), text('type', 100), text('value', 512), time('changedDate')],
      foreignKeys: [{ columnNames: ['participantId'], referencedTableName: 'participant', referencedColumnNames: ['participantId'] }],
      indices: [{ columnNames: ['participantId', 'type'], isUnique: true }],
    }),
  );
}

/** The kinds of ledger account and the settlement models that settle them. */
async function createSchemeTables(queryRunner: QueryRunner): Promise<void> {
  const { id, text, flag, time } = columns(queryRunner);
  await queryRunner.createTable(
    new Table({
      name: 'ledger_account_type',
      columns: [{ ...text('name', 50), isPrimary: true }, text('description', 512), flag('isActive'), flag('isSettleable'), time('createdDate')],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'settlement_model',
      columns: [
        id('settlementModelId'),
        { ...text('name', 30), isUnique: true },
        flag('isActive'),
        text('settlementGranularity', 20),
        text('settlementInterchange', 20),
        text('settlementDelay', 20),
        text('currency', 3, true),
        flag('requireLiquidityCheck'),
        text('ledgerAccountType', 50),
        text('settlementAccountType', 50),
        flag('autoPositionReset'),
        time('createdDate'),
      ],
    }),
  );
}

/** The double-entry journal: each transfer the ledger records, and the entries it posts to the accounts. */
async function createJournalTables(queryRunner: QueryRunner): Promise<void> {
  const { money, id, text, int, time } = columns(queryRunner);
  await queryRunner.createTable(
    new Table({
      name: 'ledger_transfer',
      columns: [
        { ...text('transferId', 64), isPrimary: true },
        text('kind', 30),
        text('state', 20),
        int('debitAccountId'),
        int('creditAccountId'),
        money('amount'),
        text('currency', 3),
        text('externalReference', 256, true),
        text('reason', 512, true),
        time('createdDate'),
        time('completedDate', true),
      ],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'journal_entry',
      columns: [id('id'), text('transferId', 64), int('accountId'), text('phase', 20), money('postedAmount'), money('reservedAmount'), time('createdDate')],
      foreignKeys: [{ columnNames: ['accountId'], referencedTableName: 'participant_account', referencedColumnNames: ['id'] }],
      indices: [{ columnNames: ['transferId', 'accountId', 'phase'], isUnique: true }],
    }),
  );
  await queryRunner.createIndex('journal_entry', new TableIndex({ columnNames: ['accountId'] }));
}
