import crypto from 'node:crypto';
import test from 'ava';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let dfspA: SimulatedDfsp;
let dfspB: SimulatedDfsp;

useSwitch(test, async (started) => {
  hub = started;
  dfspA = await hub.provision();
  dfspB = await hub.provision();
});

/** A party identifier no other test (or test file sharing the database) uses. */
const msisdn = () => `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;

const putTo = (path: string) => (r: ReceivedRequest) => r.method === 'PUT' && r.path === path;
/** A PUT at `path` naming `fspId` (tests run concurrently, so simulators are never cleared). */
const answerTo = (path: string, fspId: string | undefined) => (r: ReceivedRequest) => putTo(path)(r) && r.body?.fspId === fspId;

async function register(dfsp: SimulatedDfsp, path: string, currency?: string): Promise<ReceivedRequest> {
  const sent = await hub.fspiop('POST', path, { source: dfsp.name, body: { fspId: dfsp.name, ...(currency ? { currency } : {}) } });
  if (sent.status !== 202) throw new Error(`POST ${path} answered ${sent.status} ${JSON.stringify(sent.body)}`);
  return dfsp.waitFor(putTo(path), 15_000, `PUT ${path}`);
}

test('an FSP registers its party, and another FSP looking it up is told the FSP in a callback from the hub', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  const registered = await register(dfspA, path);
  t.deepEqual(registered.body, { fspId: dfspA.name });
  t.is(registered.headers['fspiop-source'], HUB_ID);
  t.is(registered.headers['fspiop-destination'], dfspA.name);

  const asked = await hub.fspiop('GET', path, { source: dfspB.name });
  t.is(asked.status, 202);
  const answer = await dfspB.waitFor(putTo(path));
  t.deepEqual(answer.body, { fspId: dfspA.name });
  t.is(answer.headers['fspiop-source'], HUB_ID);
  t.is(answer.headers['fspiop-destination'], dfspB.name);
  t.is(answer.headers['content-type'], 'application/vnd.interoperability.participants+json;version=1.1');
  t.is(answer.headers.accept, undefined, 'a callback carries no Accept header (Document 2): Mojaloop DFSPs refuse one');
  t.is(answer.headers['fspiop-uri'], path);
  t.is(answer.headers['fspiop-http-method'], 'PUT');
});

test('a party with a sub-id is a party of its own: found with the sub-id, not without it', async (t) => {
  const id = msisdn();
  const withSubId = `/participants/PERSONAL_ID/${id}/PASSPORT`;
  const registered = await register(dfspA, withSubId);
  t.deepEqual(registered.body, { fspId: dfspA.name });

  await hub.fspiop('GET', withSubId, { source: dfspB.name });
  t.deepEqual((await dfspB.waitFor(putTo(withSubId))).body, { fspId: dfspA.name });

  await hub.fspiop('GET', `/participants/PERSONAL_ID/${id}`, { source: dfspB.name });
  const missing = await dfspB.waitFor(putTo(`/participants/PERSONAL_ID/${id}/error`));
  t.is(missing.body.errorInformation.errorCode, '3204');
});

test('the currency query selects the FSP that holds the party in that currency', async (t) => {
  const id = msisdn();
  const path = `/participants/MSISDN/${id}`;
  await register(dfspA, path, 'USD');
  await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name, currency: 'EUR' } });
  await dfspB.waitFor(putTo(path));

  const asker = await hub.provision();
  await hub.fspiop('GET', `${path}?currency=EUR`, { source: asker.name });
  await t.notThrowsAsync(asker.waitFor(answerTo(path, dfspB.name)));
  await hub.fspiop('GET', `${path}?currency=USD`, { source: asker.name });
  await t.notThrowsAsync(asker.waitFor(answerTo(path, dfspA.name)));
  t.false(asker.received.some((r) => r.body?.fspId === undefined && putTo(path)(r)));
  await hub.fspiop('GET', `${path}?currency=TZS`, { source: asker.name });
  const none = await asker.waitFor(putTo(`${path}/error`));
  t.is(none.body.errorInformation.errorCode, '3204');
});

test('an unknown party is answered 3204 Party not found, from the hub to the requester', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  const asked = await hub.fspiop('GET', path, { source: dfspB.name });
  t.is(asked.status, 202);
  const error = await dfspB.waitFor(putTo(`${path}/error`));
  t.deepEqual(error.body, { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } });
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.is(error.headers['fspiop-destination'], dfspB.name);
});

test('POST /participants registers each party to the requester and reports every entry, an entry for another FSP failing alone', async (t) => {
  const requestId = crypto.randomUUID();
  const [mine1, mine2, theirs] = [msisdn(), msisdn(), msisdn()];
  const partyList = [
    { partyIdType: 'MSISDN', partyIdentifier: mine1, fspId: dfspA.name },
    { partyIdType: 'PERSONAL_ID', partyIdentifier: mine2, partySubIdOrType: 'PASSPORT', fspId: dfspA.name },
    { partyIdType: 'MSISDN', partyIdentifier: theirs, fspId: dfspB.name },
  ];
  const sent = await hub.fspiop('POST', '/participants', { source: dfspA.name, body: { requestId, partyList, currency: 'USD' } });
  t.is(sent.status, 202);

  const result = await dfspA.waitFor(putTo(`/participants/${requestId}`));
  t.is(result.headers['fspiop-source'], HUB_ID);
  t.is(result.body.currency, 'USD');
  t.deepEqual(result.body.partyList.slice(0, 2), [{ partyId: partyList[0] }, { partyId: partyList[1] }]);
  t.deepEqual(result.body.partyList[2].partyId, partyList[2]);
  t.is(result.body.partyList[2].errorInformation.errorCode, '3204');

  await hub.fspiop('GET', `/participants/PERSONAL_ID/${mine2}/PASSPORT?currency=USD`, { source: dfspB.name });
  t.deepEqual((await dfspB.waitFor(putTo(`/participants/PERSONAL_ID/${mine2}/PASSPORT`))).body, { fspId: dfspA.name });
  await hub.fspiop('GET', `/participants/MSISDN/${theirs}`, { source: dfspB.name });
  t.is((await dfspB.waitFor(putTo(`/participants/MSISDN/${theirs}/error`))).body.errorInformation.errorCode, '3204');
});

test('registering a party for another FSP is refused with an error callback', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  const sent = await hub.fspiop('POST', path, { source: dfspA.name, body: { fspId: dfspB.name } });
  t.is(sent.status, 202);
  const error = await dfspA.waitFor(putTo(`${path}/error`));
  t.is(error.body.errorInformation.errorCode, '3003');
  t.false(dfspB.received.some((r) => r.path.startsWith(path)));
});

test('a party is changed only by the FSP that holds it: another FSP registering it gets 3003 and the holder keeps it; the holder may register it again', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  await register(dfspA, path);
  t.is((await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name } })).status, 202);
  const refused = await dfspB.waitFor(putTo(`${path}/error`));
  t.is(refused.body.errorInformation.errorCode, '3003');
  t.notRegex(refused.body.errorInformation.errorDescription, new RegExp(dfspA.name), 'the holder is not named to another FSP');

  const asker = await hub.provision();
  await hub.fspiop('GET', path, { source: asker.name });
  t.deepEqual((await asker.waitFor(putTo(path))).body, { fspId: dfspA.name });
  t.is((await hub.fspiop('POST', path, { source: dfspA.name, body: { fspId: dfspA.name } })).status, 202);
  await t.notThrowsAsync(dfspA.waitFor(() => dfspA.received.filter(answerTo(path, dfspA.name)).length === 2));
});

test('the same holds per currency: an entry another FSP holds in a currency is not taken over, one in another currency may be registered', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  await register(dfspA, path, 'USD');
  await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name, currency: 'USD' } });
  t.is((await dfspB.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3003');
  await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name, currency: 'EUR' } });
  await t.notThrowsAsync(dfspB.waitFor(answerTo(path, dfspB.name)));

  const asker = await hub.provision();
  await hub.fspiop('GET', `${path}?currency=USD`, { source: asker.name });
  await t.notThrowsAsync(asker.waitFor(answerTo(path, dfspA.name)));
  t.false(asker.received.some(answerTo(path, dfspB.name)));
});

// An entry without a currency stands for every currency: a party held so is not taken over by naming a currency, and
// a party held in a currency is not taken over by registering it for every currency.
for (const [first, second] of [
  [undefined, 'USD'],
  ['USD', undefined],
] as const) {
  test(`a party held ${first ? `in ${first}` : 'without a currency'} is refused with 3003 to another FSP registering it ${second ? `in ${second}` : 'without one'}, and still resolves to its holder`, async (t) => {
    const path = `/participants/MSISDN/${msisdn()}`;
    await register(dfspA, path, first);
    await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name, ...(second ? { currency: second } : {}) } });
    t.is((await dfspB.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3003');

    const asker = await hub.provision();
    await hub.fspiop('GET', `${path}?currency=USD`, { source: asker.name });
    await t.notThrowsAsync(asker.waitFor(answerTo(path, dfspA.name)));
    t.false(asker.received.some(answerTo(path, dfspB.name)));
    const party = path.replace('/participants/', '/parties/');
    await hub.fspiop('GET', party, { source: asker.name });
    await t.notThrowsAsync(dfspA.waitFor((r) => r.method === 'GET' && r.path === party));
    t.false(
      dfspB.received.some((r) => r.path === party),
      'GET /parties goes to the holder alone',
    );
  });
}

test('POST /participants leaves parties another FSP holds with it: such an entry fails alone with 3003, the others are registered', async (t) => {
  const [theirs, mine] = [msisdn(), msisdn()];
  await register(dfspA, `/participants/MSISDN/${theirs}`);
  const requestId = crypto.randomUUID();
  const partyList = [
    { partyIdType: 'MSISDN', partyIdentifier: theirs, fspId: dfspB.name },
    { partyIdType: 'MSISDN', partyIdentifier: mine, fspId: dfspB.name },
  ];
  t.is((await hub.fspiop('POST', '/participants', { source: dfspB.name, body: { requestId, partyList } })).status, 202);
  const result = await dfspB.waitFor(putTo(`/participants/${requestId}`));
  t.deepEqual(result.body.partyList[0].partyId, partyList[0]);
  t.is(result.body.partyList[0].errorInformation.errorCode, '3003');
  t.deepEqual(result.body.partyList[1], { partyId: partyList[1] });

  const asker = await hub.provision();
  await hub.fspiop('GET', `/participants/MSISDN/${theirs}`, { source: asker.name });
  t.deepEqual((await asker.waitFor(putTo(`/participants/MSISDN/${theirs}`))).body, { fspId: dfspA.name });
  await hub.fspiop('GET', `/participants/MSISDN/${mine}`, { source: asker.name });
  t.deepEqual((await asker.waitFor(putTo(`/participants/MSISDN/${mine}`))).body, { fspId: dfspB.name });
});

test('a / or ? inside a party identifier or sub-id (Document 2, Party addressing) is 400 with 3101, even percent-encoded', async (t) => {
  const id = msisdn();
  for (const path of [`/participants/MSISDN/${id}%2F1`, `/participants/MSISDN/${id}%3F1`, `/participants/PERSONAL_ID/${id}/A%2FB`]) {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const sent = await hub.fspiop(method, path, { source: dfspA.name, body: method === 'POST' ? { fspId: dfspA.name } : undefined });
      t.is(sent.status, 400, `${method} ${path}`);
      t.is(sent.body.errorInformation.errorCode, '3101', `${method} ${path}`);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(dfspA.received.some((r) => r.path.includes(id)));
});

test('the party’s FSP deletes it (callback without fspId); afterwards it is not found', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  await register(dfspA, path);
  const deleted = await hub.fspiop('DELETE', path, { source: dfspA.name });
  t.is(deleted.status, 202);
  const callback = await dfspA.waitFor(answerTo(path, undefined));
  t.deepEqual(callback.body, {});
  t.is(callback.headers['fspiop-source'], HUB_ID);

  await hub.fspiop('GET', path, { source: dfspB.name });
  t.is((await dfspB.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3204');
});

test('another FSP may not delete a party: 3040 error callback, and the party stays', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}/savings`;
  await register(dfspA, path);
  const refused = await hub.fspiop('DELETE', path, { source: dfspB.name });
  t.is(refused.status, 202);
  const error = await dfspB.waitFor(putTo(`${path}/error`));
  t.is(error.body.errorInformation.errorCode, '3040');

  await hub.fspiop('GET', path, { source: dfspB.name });
  t.deepEqual((await dfspB.waitFor(putTo(path))).body, { fspId: dfspA.name });
});

test('deleting a party nobody registered is a 3040 error callback', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  await hub.fspiop('DELETE', path, { source: dfspB.name });
  t.is((await dfspB.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3040');
});

test('a Type that is not a PartyIdType is rejected 400 before any callback', async (t) => {
  const bad = await hub.fspiop('GET', `/participants/PHONE/${msisdn()}`, { source: dfspA.name });
  t.is(bad.status, 400);
  t.regex(bad.body.errorInformation.errorCode, /^31\d\d$/);
  t.regex(bad.body.errorInformation.errorDescription, /Type/);
});

test('a registration without fspId is 400 with 3102, and a currency query that names no currency is 400', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  const noFspId = await hub.fspiop('POST', path, { source: dfspA.name, body: { currency: 'USD' } });
  t.is(noFspId.status, 400);
  t.is(noFspId.body.errorInformation.errorCode, '3102');
  const badCurrency = await hub.fspiop('GET', `${path}?currency=dollars`, { source: dfspA.name });
  t.is(badCurrency.status, 400);
});

test('a method the resource does not offer is 405', async (t) => {
  const patch = await hub.fspiop('PATCH', `/participants/MSISDN/${msisdn()}`, { source: dfspA.name, body: {} });
  t.is(patch.status, 405);
  const getBatch = await hub.fspiop('GET', '/participants', { source: dfspA.name });
  t.is(getBatch.status, 405);
});

test('a /participants callback sent to the hub is acknowledged 200 and goes no further', async (t) => {
  const path = `/participants/MSISDN/${msisdn()}`;
  const put = await hub.fspiop('PUT', path, { source: dfspA.name, destination: dfspB.name, body: { fspId: dfspA.name } });
  t.is(put.status, 200);
  const error = await hub.fspiop('PUT', `${path}/error`, {
    source: dfspA.name,
    destination: dfspB.name,
    body: { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } },
  });
  t.is(error.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(dfspB.received.some((r) => r.path.startsWith(path)));
});

test('an MSISDN in international format with a leading + is one party, in paths and in callbacks', async (t) => {
  const id = `+${msisdn()}`;
  const path = `/participants/MSISDN/${encodeURIComponent(id)}`;
  const registered = await register(dfspA, path);
  t.deepEqual(registered.body, { fspId: dfspA.name });
  // Sent unencoded, as the path allows: the + is not a space.
  await hub.fspiop('GET', `/participants/MSISDN/${id}`, { source: dfspB.name });
  t.deepEqual((await dfspB.waitFor(putTo(path))).body, { fspId: dfspA.name });
});

// The third-party API's entries (Document 1): a consent, registered by the Auth service that administers it, and an
// account link, registered by the DFSP that issued it. Mojaloop's auth-service registers with the `participants`
// media type of FSPIOP v1.1 and without FSPIOP-Destination, as the harness sends it.
for (const type of ['CONSENT', 'THIRD_PARTY_LINK']) {
  test(`a ${type} is registered by its holder and found by another FSP, in callbacks from the hub`, async (t) => {
    const path = `/participants/${type}/${crypto.randomUUID()}`;
    const registered = await register(dfspA, path);
    t.deepEqual(registered.body, { fspId: dfspA.name });
    t.is(registered.headers['fspiop-source'], HUB_ID);

    t.is((await hub.fspiop('GET', path, { source: dfspB.name })).status, 202);
    const answer = await dfspB.waitFor(putTo(path));
    t.deepEqual(answer.body, { fspId: dfspA.name });
    t.is(answer.headers['fspiop-destination'], dfspB.name);
    t.is(answer.headers['content-type'], 'application/vnd.interoperability.participants+json;version=1.1');
  });

  test(`an unknown ${type} is answered 3204 Party not found`, async (t) => {
    const path = `/participants/${type}/${crypto.randomUUID()}`;
    t.is((await hub.fspiop('GET', path, { source: dfspB.name })).status, 202);
    const error = await dfspB.waitFor(putTo(`${path}/error`));
    t.deepEqual(error.body, { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } });
    t.is(error.headers['fspiop-source'], HUB_ID);
  });

  test(`only the holder deletes a ${type}: another FSP gets 3040 and it stays; the holder's DELETE removes it`, async (t) => {
    const path = `/participants/${type}/${crypto.randomUUID()}`;
    await register(dfspA, path);
    t.is((await hub.fspiop('DELETE', path, { source: dfspB.name })).status, 202);
    const refused = await dfspB.waitFor(putTo(`${path}/error`));
    t.is(refused.body.errorInformation.errorCode, '3040');
    await hub.fspiop('GET', path, { source: dfspB.name });
    t.deepEqual((await dfspB.waitFor(putTo(path))).body, { fspId: dfspA.name });

    t.is((await hub.fspiop('DELETE', path, { source: dfspA.name })).status, 202);
    t.deepEqual((await dfspA.waitFor(answerTo(path, undefined))).body, {});
    const asker = await hub.provision();
    await hub.fspiop('GET', path, { source: asker.name });
    t.is((await asker.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3204');
  });

  test(`a ${type} is never moved: another FSP registering it gets 3003 and the holder keeps it; the holder may register it again`, async (t) => {
    const path = `/participants/${type}/${crypto.randomUUID()}`;
    await register(dfspA, path);
    t.is((await hub.fspiop('POST', path, { source: dfspB.name, body: { fspId: dfspB.name } })).status, 202);
    const refused = await dfspB.waitFor(putTo(`${path}/error`));
    t.is(refused.body.errorInformation.errorCode, '3003');
    t.regex(refused.body.errorInformation.errorDescription, /registered to another FSP/);
    t.notRegex(refused.body.errorInformation.errorDescription, new RegExp(dfspA.name));

    const asker = await hub.provision();
    await hub.fspiop('GET', path, { source: asker.name });
    t.deepEqual((await asker.waitFor(putTo(path))).body, { fspId: dfspA.name });
    // A retry of the holder's registration (an Auth service that timed out waiting) is answered like the first.
    t.is((await hub.fspiop('POST', path, { source: dfspA.name, body: { fspId: dfspA.name } })).status, 202);
    const registrations = () => dfspA.received.filter(answerTo(path, dfspA.name)).length;
    await t.notThrowsAsync(dfspA.waitFor(() => registrations() === 2));
  });
}

test('a consent has one holder whatever the currency: registered with one, found and deleted under another', async (t) => {
  const path = `/participants/CONSENT/${crypto.randomUUID()}`;
  await register(dfspA, path, 'USD');
  await hub.fspiop('GET', `${path}?currency=EUR`, { source: dfspB.name });
  t.deepEqual((await dfspB.waitFor(putTo(path))).body, { fspId: dfspA.name });

  await hub.fspiop('DELETE', `${path}?currency=EUR`, { source: dfspA.name });
  await dfspA.waitFor(answerTo(path, undefined));
  const asker = await hub.provision();
  await hub.fspiop('GET', path, { source: asker.name });
  t.is((await asker.waitFor(putTo(`${path}/error`))).body.errorInformation.errorCode, '3204');
});

test('CONSENT and THIRD_PARTY_LINK take no SubId, and /parties does not route them: 400 before any callback', async (t) => {
  const id = crypto.randomUUID();
  const withSubId = await hub.fspiop('GET', `/participants/CONSENT/${id}/x`, { source: dfspA.name });
  t.is(withSubId.status, 400);
  t.is(withSubId.body.errorInformation.errorCode, '3101');
  t.regex(withSubId.body.errorInformation.errorDescription, /SubId/);
  const postWithSubId = await hub.fspiop('POST', `/participants/THIRD_PARTY_LINK/${id}/x`, { source: dfspA.name, body: { fspId: dfspA.name } });
  t.is(postWithSubId.status, 400);

  for (const type of ['CONSENT', 'THIRD_PARTY_LINK']) {
    const party = await hub.fspiop('GET', `/parties/${type}/${id}`, { source: dfspA.name });
    t.is(party.status, 400, type);
    t.regex(party.body.errorInformation.errorDescription, /Type/);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(dfspA.received.some((r) => r.path.includes(id)));
});

test('POST /participants registers account links; one another FSP holds fails alone with 3003', async (t) => {
  const [mine, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
  await register(dfspB, `/participants/THIRD_PARTY_LINK/${theirs}`);
  const requestId = crypto.randomUUID();
  const partyList = [
    { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: mine, fspId: dfspA.name },
    { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: theirs, fspId: dfspA.name },
    { partyIdType: 'MSISDN', partyIdentifier: msisdn(), fspId: dfspA.name },
  ];
  t.is((await hub.fspiop('POST', '/participants', { source: dfspA.name, body: { requestId, partyList } })).status, 202);

  const result = await dfspA.waitFor(putTo(`/participants/${requestId}`));
  t.deepEqual(result.body.partyList[0], { partyId: partyList[0] });
  t.deepEqual(result.body.partyList[1].partyId, partyList[1]);
  t.is(result.body.partyList[1].errorInformation.errorCode, '3003');
  t.deepEqual(result.body.partyList[2], { partyId: partyList[2] });

  const asker = await hub.provision();
  await hub.fspiop('GET', `/participants/THIRD_PARTY_LINK/${mine}`, { source: asker.name });
  t.deepEqual((await asker.waitFor(putTo(`/participants/THIRD_PARTY_LINK/${mine}`))).body, { fspId: dfspA.name });
  await hub.fspiop('GET', `/participants/THIRD_PARTY_LINK/${theirs}`, { source: asker.name });
  t.deepEqual((await asker.waitFor(putTo(`/participants/THIRD_PARTY_LINK/${theirs}`))).body, { fspId: dfspB.name });
});
