import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { COMPLETION_BUCKETS } from '../../metrics/schemeCounters';
import { columns } from './columns';

const OPEN_TRANSFERS = new TableIndex({ name: 'IDX_transfer_state_expiration', columnNames: ['transferState', 'expiration'] });

/**
 * What a Prometheus scrape reads instead of whole tables (activities/hub/metrics/schemeCounters.ts): the decided
 * transfers counted per payer, state and time bucket, counted here once from the transfers decided so far; the
 * failed deliveries per participant, from now on; and an index that finds the transfers still open (RECEIVED,
 * RESERVED) without reading the decided ones, which the reservation sweep's search for expired ones uses as well.
 */
export class SchemeCounters1795000001600 implements MigrationInterface {
  name = 'SchemeCounters1795000001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { text, isMysql } = columns(queryRunner);
    const count = (name: string) => ({ name, type: 'bigint' });
    await queryRunner.createTable(
      new Table({
        name: 'transfer_outcome',
        columns: [
          { ...text('payerFsp', 32), isPrimary: true },
          { ...text('transferState', 20), isPrimary: true },
          { ...text('le', 8), isPrimary: true },
          count('transfers'),
          { name: 'seconds', type: 'double' },
        ],
      }),
    );
    await queryRunner.createTable(new Table({ name: 'delivery_failure', columns: [{ ...text('participant', 32), isPrimary: true }, count('failures')] }));
    await queryRunner.createIndex('transfer', OPEN_TRANSFERS);
    const seconds = isMysql
      ? 'TIMESTAMPDIFF(MICROSECOND, createdDate, completedTimestamp) / 1000000'
      : '(julianday(completedTimestamp) - julianday(createdDate)) * 86400.0';
    const bucket = `CASE ${COMPLETION_BUCKETS.map((le) => `WHEN ${seconds} <= ${le} THEN '${le}'`).join(' ')} ELSE '+Inf' END`;
    // Read first, then written: an INSERT … SELECT would hold shared locks on every transfer row while it reads them
    // (InnoDB, REPEATABLE READ), and the hub still running the previous version would wait to decide any.
    const counted: Array<{ payerFsp: string; transferState: string; le: string; transfers: string | number; seconds: string | number }> =
      await queryRunner.query(
        `SELECT payerFsp, transferState, le, COUNT(*) AS transfers, SUM(took) AS seconds FROM (
           SELECT payerFsp, transferState, ${seconds} AS took, ${bucket} AS le FROM transfer
           WHERE transferState IN ('COMMITTED', 'ABORTED') AND completedTimestamp IS NOT NULL
         ) decided GROUP BY payerFsp, transferState, le`,
      );
    for (let at = 0; at < counted.length; at += 500) {
      const rows = counted.slice(at, at + 500).map((row) => ({ ...row, transfers: String(row.transfers), seconds: Number(row.seconds) }));
      await queryRunner.manager.createQueryBuilder().insert().into('transfer_outcome').values(rows).execute();
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('transfer', OPEN_TRANSFERS.name!);
    await queryRunner.dropTable('delivery_failure');
    await queryRunner.dropTable('transfer_outcome');
  }
}
