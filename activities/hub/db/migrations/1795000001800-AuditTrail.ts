import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { GENESIS_HASH } from '../../audit/auditChain';
import { columns } from './columns';

/**
 * The audit trail (activities/hub/audit/auditTrail.ts): its entries, inserted and never updated, and the head of
 * their hash chain, one row that every append locks. Searched newest first by actor, by action, or by time alone.
 */
export class AuditTrail1795000001800 implements MigrationInterface {
  name = 'AuditTrail1795000001800';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, time, isMysql } = columns(queryRunner);
    const optional = (name: string, length: number) => text(name, length, true);
    // A snapshot of a participant's endpoints or limits may outgrow MySQL's TEXT (64 KiB).
    const snapshot = (name: string) => ({ name, type: isMysql ? 'mediumtext' : 'text', isNullable: true });
    await queryRunner.createTable(
      new Table({
        name: 'audit_entry',
        columns: [
          { name: 'sequence', type: 'bigint', isPrimary: true },
          time('at'),
          optional('actor', 128),
          text('roles', 128),
          optional('credential', 16),
          text('action', 128),
          optional('method', 8),
          optional('route', 256),
          optional('target', 1000),
          optional('permission', 32),
          optional('bodyDigest', 64),
          snapshot('stateBefore'),
          snapshot('stateAfter'),
          { name: 'status', type: 'int', isNullable: true },
          optional('errorCode', 4),
          optional('approvalId', 64),
          optional('detail', 500),
          optional('address', 64),
          optional('userAgent', 256),
          optional('reference', 128),
          text('previousHash', 64),
          text('hash', 64),
        ],
        indices: [
          { name: 'IDX_audit_at', columnNames: ['at'] },
          { name: 'IDX_audit_actor', columnNames: ['actor', 'sequence'] },
          { name: 'IDX_audit_action', columnNames: ['action', 'sequence'] },
          { name: 'IDX_audit_reference', columnNames: ['reference'], isUnique: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({ name: 'audit_head', columns: [{ name: 'id', type: 'int', isPrimary: true }, { name: 'sequence', type: 'bigint' }, text('hash', 64)] }),
    );
    await queryRunner.manager.createQueryBuilder().insert().into('audit_head').values({ id: 1, sequence: 0, hash: GENESIS_HASH }).execute();
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_head');
    await queryRunner.dropTable('audit_entry');
  }
}
