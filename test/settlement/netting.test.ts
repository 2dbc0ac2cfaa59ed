import test from 'ava';
import { LedgerTransfer } from '../../activities/hub/db/entities';
import { openHubServices, type HubServices } from '../../activities/hub/hubServices';
import { paymentPage } from '../../activities/hub/settlement/netting';
import { testDatabaseUrl } from '../helpers/database';

let services: HubServices;

test.before(async () => {
  services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: 'Hub' });
});

test.after.always(async () => {
  await services?.db.close();
});

/** How the database means to run a query: SQLite's plan lines, or MySQL's EXPLAIN rows as text. */
async function planOf([sql, parameters]: [string, unknown[]]): Promise<string[]> {
  const mysql = services.db.isMysql;
  const rows: Array<Record<string, unknown>> = await services.db.dataSource.query(`${mysql ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${sql}`, parameters);
  return rows.map((row) => (mysql ? `${String(row.key)} ${String(row.Extra)}` : String(row.detail)));
}

test("a settlement nets its window's payments a page at a time, each page read in ID order from an index, not found and sorted among the whole window", async (t) => {
  const page = services.db.dataSource
    .getRepository(LedgerTransfer)
    .createQueryBuilder()
    .setFindOptions(paymentPage(1, 'USD', [1], '4b1c7f2e-0000-4000-8000-000000000000'))
    .getQueryAndParameters() as [string, unknown[]];
  const plan = await planOf(page);
  t.false(
    plan.some((line) => /TEMP B-TREE|filesort/i.test(line)),
    `a page sorts the window's payments: ${plan.join('; ')}`,
  );
});
