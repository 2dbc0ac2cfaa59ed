import test from 'ava';
import { Participant } from '../../activities/hub/db/entities';
import { ParticipantDirectory } from '../../activities/hub/delivery/directory';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';

// The FSPIOP version the hub writes its own messages to a participant in is the one it last heard the participant
// write in, kept with the participant on the real database (participant.fspiopVersion).

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

const stored = async (name: string) => (await admin.services.db.read((manager) => manager.findOneByOrFail(Participant, { name }))).fspiopVersion;

test('a participant heard in 1.1 is written to in 1.1 until it is heard in 2.0; a change of minor version alone is not stored', async (t) => {
  const name = uniqueName('versions');
  t.is((await admin.call('POST', '/participants', { name, currency: 'USD' })).status, 200);
  const directory = new ParticipantDirectory(admin.services.db, 0);
  t.is(await directory.versionFor(name, '2.0'), '2.0', 'never heard from: the conversation’s version');

  await directory.heard(name, '1.1');
  t.is(await stored(name), '1.1');
  await directory.heard(name, '1.0');
  t.is(await stored(name), '1.1', 'the same major version: nothing written');
  t.is(await directory.versionFor(name, '2.0'), '1.1');
  t.is(await directory.versionFor(name, '1.0'), '1.0');

  await directory.heard(name, '2.0');
  t.is(await stored(name), '2.0');
  t.is(await directory.versionFor(name, '1.1'), '2.0');
});
