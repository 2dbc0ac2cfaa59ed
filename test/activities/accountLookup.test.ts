import crypto from 'node:crypto';
import test from 'ava';
import { openHubServices, HubServices } from '../../activities/hub/hubServices';
import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import { HUB_NAME } from '../helpers/adminHarness';
import { testDatabaseUrl, uniqueName } from '../helpers/database';

// The hub's own Auth service calls the account lookup directly, as an activity would, not over HTTP.
let services: HubServices;
let lookup: AccountLookup;
test.before(async () => {
  services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: HUB_NAME });
  lookup = new AccountLookup(services.db);
});
test.after.always(async () => {
  await services?.db.close();
});

test('the Auth service registers a consent, finds its holder by consentId alone, and removes it', async (t) => {
  const authService = uniqueName('auth');
  const consent = { partyIdType: 'CONSENT', partyIdentifier: crypto.randomUUID() };
  t.is(await lookup.owner(consent), undefined);
  t.deepEqual(await lookup.register([consent], authService), []);
  t.is(await lookup.owner(consent), authService);
  t.is(await lookup.owner(consent, 'USD'), authService, 'a consent is held in no particular currency');
  t.is(await lookup.owner({ ...consent, partyIdType: 'THIRD_PARTY_LINK' }), undefined, 'a link of the same ID is another entry');

  t.is(await lookup.remove(consent, uniqueName(), 'USD'), 'notOwner');
  t.is(await lookup.remove(consent, authService, 'USD'), 'removed');
  t.is(await lookup.owner(consent), undefined);
  t.is(await lookup.remove(consent, authService), 'notFound');
});

test('a consent or link another FSP holds is returned unregistered, beside the parties registered with it', async (t) => {
  const [holder, other] = [uniqueName(), uniqueName()];
  const consent = { partyIdType: 'CONSENT', partyIdentifier: crypto.randomUUID() };
  const link = { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: crypto.randomUUID() };
  await lookup.register([consent, link], holder, 'USD');

  const party = { partyIdType: 'MSISDN', partyIdentifier: `255${crypto.randomInt(10 ** 8, 10 ** 9)}` };
  const newLink = { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: crypto.randomUUID() };
  const refused = await lookup.register([link, party, consent, newLink], other);
  t.deepEqual(new Set(refused), new Set([consent, link]));
  t.is(await lookup.owner(consent), holder);
  t.is(await lookup.owner(link), holder);
  t.is(await lookup.owner(party), other);
  t.is(await lookup.owner(newLink), other);
  t.deepEqual(await lookup.register([consent, link], holder), [], 'its holder registering it again is no refusal');
});

test('a party belongs to one FSP per currency: an entry without a currency conflicts with every other FSP entry of it', async (t) => {
  const [holder, other] = [uniqueName(), uniqueName()];
  const anyCurrency = { partyIdType: 'MSISDN', partyIdentifier: `255${crypto.randomInt(10 ** 8, 10 ** 9)}` };
  await lookup.register([anyCurrency], holder);
  t.deepEqual(await lookup.register([anyCurrency], other, 'USD'), [anyCurrency]);
  t.is(await lookup.owner(anyCurrency, 'USD'), holder);
  t.deepEqual(await lookup.owners(anyCurrency), [holder]);

  const inUsd = { partyIdType: 'MSISDN', partyIdentifier: `255${crypto.randomInt(10 ** 8, 10 ** 9)}` };
  await lookup.register([inUsd], holder, 'USD');
  t.deepEqual(await lookup.register([inUsd], other), [inUsd]);
  t.deepEqual(await lookup.register([inUsd], other, 'EUR'), [], 'another currency is another entry');
  t.is(await lookup.owner(inUsd, 'USD'), holder);
  t.is(await lookup.owner(inUsd, 'EUR'), other);
  t.deepEqual(await lookup.register([inUsd], holder), [inUsd], 'nor may its holder then claim every currency');
});

test('two FSPs registering one party at once, one for every currency and one in USD: exactly one holds it', async (t) => {
  for (let round = 0; round < 10; round++) {
    const [first, second] = [uniqueName(), uniqueName()];
    const party = { partyIdType: 'MSISDN', partyIdentifier: `255${crypto.randomInt(10 ** 8, 10 ** 9)}` };
    const [refusedFirst, refusedSecond] = await Promise.all([lookup.register([party], first), lookup.register([party], second, 'USD')]);
    t.is(refusedFirst.length + refusedSecond.length, 1, 'one of the two is refused');
    const holder = refusedFirst.length === 0 ? first : second;
    t.deepEqual(await lookup.owners(party), [holder]);
  }
});

test("a party is the one the database compares equal: on MySQL (its collation ignores accents) 'josé' in USD is refused to another FSP while 'jose' is held for every currency", async (t) => {
  const [holder, other] = [uniqueName(), uniqueName()];
  const suffix = crypto.randomBytes(4).toString('hex');
  const plain = { partyIdType: 'ALIAS', partyIdentifier: `jose${suffix}` };
  const accented = { partyIdType: 'ALIAS', partyIdentifier: `josé${suffix}` };
  await lookup.register([plain], holder);
  const refused = await lookup.register([accented], other, 'USD');
  if (services.db.isMysql) {
    t.deepEqual(refused, [accented], 'the same party to MySQL');
    t.is(await lookup.owner(accented, 'USD'), holder);
    t.is(await lookup.owner(plain, 'USD'), holder);
  } else {
    t.deepEqual(refused, [], 'another party to SQLite, which compares exactly');
    t.is(await lookup.owner(accented, 'USD'), other);
    t.is(await lookup.owner(plain, 'USD'), holder);
  }
});
