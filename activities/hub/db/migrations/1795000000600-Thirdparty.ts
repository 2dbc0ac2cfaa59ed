import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from './columns';

/** Consents (routed, and held by the hub's Auth service), the verifications it answered, and the correlations of observed third-party transactions. */
export class Thirdparty1795000000600 implements MigrationInterface {
  name = 'Thirdparty1795000000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time } = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'consent',
        columns: [
          { ...text('consentId', 64), isPrimary: true },
          text('consentRequestId', 64, true),
          text('dfsp', 32, true),
          text('pisp', 32, true),
          text('state', 16),
          { name: 'scopes', type: 'text', isNullable: true },
          text('credentialType', 16, true),
          { name: 'credential', type: 'text', isNullable: true },
          { name: 'publicKey', type: 'text', isNullable: true },
          text('registrationHash', 64, true),
          time('createdDate'),
          time('revokedAt', true),
          text('revokedBy', 32, true),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'consent_verification',
        columns: [
          { ...text('verificationRequestId', 64), isPrimary: true },
          text('consentId', 64),
          text('requestHash', 64),
          { name: 'failure', type: 'text', isNullable: true },
          time('createdDate'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'thirdparty_correlation',
        columns: [{ ...text('correlationKey', 128), isPrimary: true }, text('transactionRequestId', 64), time('createdDate')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('thirdparty_correlation');
    await queryRunner.dropTable('consent_verification');
    await queryRunner.dropTable('consent');
  }
}
