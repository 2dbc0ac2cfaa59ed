import { loadConfig } from '../activities/shared/platform/config';
import { openDatabase } from '../activities/hub/db/database';

/**
 * `npm run migrate`: brings the hub's database to the current schema and seeds the Hub participant, then exits.
 * A deployment runs it once before rolling out workers and gateways (a Compose dependency, a Kubernetes Job), so
 * that copies starting together never race to migrate.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config.databaseUrl, config.hubParticipantName);
  await db.close();
  process.stderr.write('migrate: the hub database is up to date\n');
}

main().catch((error) => {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
