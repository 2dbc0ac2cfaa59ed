// Another process appending to the audit trail, as a second gateway process or replica does:
//   node dist/test/helpers/auditAppender.js <databaseUrl> <action> <count> <startAt>
// appends <count> entries at once from the time <startAt> (ms since the epoch) and prints their sequences as JSON.
import { openHubServices } from '../../activities/hub/hubServices';

async function main(): Promise<void> {
  const [databaseUrl, action, count, startAt] = process.argv.slice(2);
  const services = await openHubServices({ databaseUrl, hubParticipantName: 'Hub' });
  await new Promise((resolve) => setTimeout(resolve, Number(startAt) - Date.now()));
  const appended = await Promise.all(Array.from({ length: Number(count) }, (_, i) => services.audit.append({ action, detail: `other ${i}` })));
  await services.db.close();
  process.stdout.write(JSON.stringify(appended.map((entry) => entry.sequence)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
