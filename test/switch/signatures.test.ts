import crypto, { KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import pino from 'pino';
import { PeerSender } from '../../activities/connector/peerSender';
import { TransferRecord } from '../../activities/hub/db/entities';
import { signatureProblem } from '../../activities/shared/platform/jws';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair, quoteBody, transferBody } from '../helpers/fspiopBodies';
import { mojaloopJws, mojaloopJwsMissing } from '../helpers/mojaloopJws';
import { signedCall, type Forgery } from '../helpers/signedCalls';
import { FspiopCall, HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { rsaKeyPair } from '../helpers/keyPairs';

// The switch with JWS validation on for the scheme (JWS_VALIDATE), participants' public keys in a directory of
// <fspId>.pem files (JWS_VERIFICATION_KEYS_DIRECTORY) and a key of the hub's own (JWS_SIGNING_KEY_PATH).
const rsa = () => rsaKeyPair();
const pem = (key: KeyObject) => key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();
const keysDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'jws-keys-'));
const hubKey = rsa();
const hubKeyPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jws-hub-')), 'hub.key');
fs.writeFileSync(hubKeyPath, pem(hubKey.privateKey));

let hub: SwitchHarness;
test.before(async () => {
  hub = await startSwitch({ jws: { validate: true, verificationKeysDirectory: keysDirectory, signingKeyPath: hubKeyPath } });
});
test.after.always(async () => {
  await hub?.close();
});

/** Each participant's private key; its public key is in the keys directory. */
const keys = new Map<string, KeyObject>();
const stranger = rsa();

async function participant(): Promise<SimulatedDfsp> {
  const dfsp = await hub.provision();
  const pair = rsa();
  keys.set(dfsp.name, pair.privateKey);
  fs.writeFileSync(path.join(keysDirectory, `${dfsp.name}.pem`), pem(pair.publicKey));
  return dfsp;
}

/** How a message is signed, where a test forges it: another key, other headers or another body than those sent. */
interface Signing extends Forgery {
  key?: KeyObject;
}

/** A call signed as its FSPIOP-Source signs it, unless a test forges it. */
const signedAs = (method: string, urlPath: string, call: FspiopCall, signing: Signing = {}): Promise<FspiopCall> =>
  signedCall(method, urlPath, call, signing.key ?? keys.get(call.source)!, signing);

const send = async (method: string, urlPath: string, call: FspiopCall, signing?: Signing) =>
  hub.fspiop(method, urlPath, await signedAs(method, urlPath, call, signing));

/** The payee fulfils every transfer it is asked for, signing its answer. */
function fulfilling(payee: SimulatedDfsp, fulfilment: string, transferState: 'COMMITTED' | 'RESERVED' = 'COMMITTED') {
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transfers') return;
    await send('PUT', `/transfers/${request.body.transferId}`, {
      source: payee.name,
      destination: request.body.payerFsp,
      body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState },
    });
  });
}

const isPut = (urlPath: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === urlPath;

/** Headers as a DFSP's server has them, for a validator. */
const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

/**
 * Whether a message a DFSP received holds as signed by `signer`: checked by Mojaloop's own JwsValidator, as an SDK DFSP
 * checks it, where the interop install is there, else by this hub's.
 */
async function holds(request: ReceivedRequest, signer: string, publicKey: KeyObject): Promise<boolean> {
  if (mojaloopJwsMissing) return (await signatureProblem({ headers: headersOf(request), body: request.raw }, publicKey)) === undefined;
  try {
    mojaloopJws(pem(stranger.privateKey), { [signer]: pem(publicKey) }).validate({ headers: headersOf(request), body: request.body });
    return true;
  } catch {
    return false;
  }
}
if (mojaloopJwsMissing) console.warn(`signatures.test: checking received signatures with this hub's validator: ${mojaloopJwsMissing}`);

const publicKeyOf = (name: string) => crypto.createPublicKey(keys.get(name)!);

/** Nothing of the transfer exists at the hub: no conversation, no record. */
async function unknownTransfer(transferId: string): Promise<boolean> {
  const started = await hub.worker.client.workflow
    .getHandle(workflowIds.transfer(transferId))
    .describe()
    .then(() => true)
    .catch(() => false);
  const recorded = await hub.services.db.read((manager) => manager.existsBy(TransferRecord, { transferId }));
  return !started && !recorded;
}

test('a transfer signed by payer and payee commits, each message passed on with its signature untouched', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment);
  const body = transferBody(payer.name, payee.name, '75', { condition });
  const call = await signedAs('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  t.is((await hub.fspiop('POST', '/transfers', call)).status, 202);

  const prepare = await payee.waitFor((r) => r.method === 'POST' && r.path === '/transfers');
  t.is(prepare.headers['fspiop-signature'], call.headers!['fspiop-signature']);
  t.true(await holds(prepare, payer.name, publicKeyOf(payer.name)), "the payer's signature holds at the payee");
  const fulfil = await payer.waitFor(isPut(`/transfers/${body.transferId}`));
  t.is(fulfil.body.transferState, 'COMMITTED');
  t.true(await holds(fulfil, payee.name, publicKeyOf(payee.name)), "the payee's signature holds at the payer");
  t.is(await hub.position(payer), 75);
  t.is(await hub.position(payee), -75);
});

test('a forged or altered POST /transfers is refused 3105 and changes nothing', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const other = await participant();
  const prepare = (amount: string) => ({ source: payer.name, destination: payee.name, body: transferBody(payer.name, payee.name, amount) });
  const forgeries: Array<[string, () => Promise<{ status: number; body: any }>, string]> = [];
  const forge = (what: string, call: FspiopCall, signing?: Signing, unsigned = false) => {
    const transferId = (call.body as { transferId: string }).transferId;
    forgeries.push([what, () => (unsigned ? hub.fspiop('POST', '/transfers', call) : send('POST', '/transfers', call, signing)), transferId]);
  };
  forge('signed with another key', prepare('1'), { key: stranger.privateKey });
  forge("signed with another participant's key", prepare('2'), { key: keys.get(other.name) });
  const altered = prepare('3');
  forge(
    'its body altered after signing',
    { ...altered, body: { ...altered.body, amount: { amount: '3000', currency: 'USD' } } },
    { signedBody: JSON.stringify(altered.body) },
  );
  forge('signed as sent by another FSPIOP-Source', prepare('4'), { signedHeaders: { 'fspiop-source': other.name } });
  forge('signed for another FSPIOP-URI', prepare('5'), { signedHeaders: { 'fspiop-uri': '/quotes' } });
  forge('signed for another FSPIOP-HTTP-Method', prepare('6'), { signedHeaders: { 'fspiop-http-method': 'PUT' } });
  forge('signed for another FSPIOP-Destination', prepare('7'), { signedHeaders: { 'fspiop-destination': other.name } });
  forge('not signed', prepare('8'), undefined, true);
  const consistent = prepare('9');
  forge('consistently signed for a request other than this one', { ...consistent, headers: { 'fspiop-uri': '/quotes' } });

  for (const [what, attempt, transferId] of forgeries) {
    const refused = await attempt();
    t.is(refused.status, 400, what);
    t.is(refused.body?.errorInformation?.errorCode, '3105', `${what}: ${JSON.stringify(refused.body)}`);
    t.true(await unknownTransfer(transferId), `${what}: no transfer recorded`);
  }
  t.is(await hub.position(payer), 0);
  t.is(await hub.position(payee), 0);
  t.false(
    payee.received.some((r) => r.method === 'POST'),
    'the payee was asked nothing',
  );
});

test("a payee's forged fulfilment, or one replayed at another transfer's path, is refused 3105: the reservation stands until a signed one commits it", async (t) => {
  const payer = await participant();
  const payee = await participant();
  const { fulfilment, condition } = ilpPair();
  const first = transferBody(payer.name, payee.name, '20', { condition });
  const second = transferBody(payer.name, payee.name, '30', { condition });
  for (const body of [first, second]) t.is((await send('POST', '/transfers', { source: payer.name, destination: payee.name, body })).status, 202);
  await payee.waitFor((r) => r.method === 'POST' && r.body.transferId === second.transferId);
  const answer = { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' };

  const forged = await send(
    'PUT',
    `/transfers/${first.transferId}`,
    { source: payee.name, destination: payer.name, body: answer },
    { key: stranger.privateKey },
  );
  t.is(forged.body?.errorInformation?.errorCode, '3105');
  const genuine = await signedAs('PUT', `/transfers/${first.transferId}`, { source: payee.name, destination: payer.name, body: answer });
  const replayed = await hub.fspiop('PUT', `/transfers/${second.transferId}`, genuine);
  t.is(replayed.status, 400);
  t.is(replayed.body?.errorInformation?.errorCode, '3105', 'a signature for /transfers/{first} does not hold at /transfers/{second}');
  t.is(await hub.position(payer), 50, 'both still reserved');
  t.false(
    payer.received.some((r) => r.method === 'PUT'),
    'the payer heard nothing',
  );

  t.is((await hub.fspiop('PUT', `/transfers/${first.transferId}`, genuine)).status, 200);
  const committed = await payer.waitFor(isPut(`/transfers/${first.transferId}`));
  t.is(committed.body.transferState, 'COMMITTED');
});

test('the hub signs what it originates (errors, PATCH notifications) with its own key, and Mojaloop validates it', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const { fulfilment, condition } = ilpPair();
  fulfilling(payee, fulfilment, 'RESERVED');
  const reserved = transferBody(payer.name, payee.name, '10', { condition });
  await send('POST', '/transfers', { source: payer.name, destination: payee.name, body: reserved });
  const patch = await payee.waitFor((r) => r.method === 'PATCH' && r.path === `/transfers/${reserved.transferId}`);
  t.is(patch.headers['fspiop-source'], HUB_ID);
  t.true(await holds(patch, HUB_ID, hubKey.publicKey), 'the PATCH holds as signed by the hub');
  t.false(await holds(patch, HUB_ID, stranger.publicKey), 'and with no other key');

  fulfilling(payee, ilpPair().fulfilment);
  const wrong = transferBody(payer.name, payee.name, '11');
  await send('POST', '/transfers', { source: payer.name, destination: payee.name, body: wrong });
  const error = await payer.waitFor(isPut(`/transfers/${wrong.transferId}/error`));
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.is(error.body.errorInformation.errorCode, '3100');
  t.true(await holds(error, HUB_ID, hubKey.publicKey), 'the error callback holds as signed by the hub');
});

test('a signed request the switch routes by its body reaches the payee as signed: no FSPIOP-Destination is added to it', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const body = quoteBody(payer.name, payee.name, '5');
  t.is((await send('POST', '/quotes', { source: payer.name, body })).status, 202);
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.path === '/quotes' && r.body.quoteId === body.quoteId);
  t.is(forwarded.headers['fspiop-destination'], undefined);
  t.true(await holds(forwarded, payer.name, publicKeyOf(payer.name)));
});

test('a participant the admin API exempts from validation sends unsigned; a rotated key takes effect at once and a key in the database supersedes the directory’s', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const unsigned = () => hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body: quoteBody(payer.name, payee.name, '1') });
  t.is((await unsigned()).body?.errorInformation?.errorCode, '3105');
  const exempt = await hub.admin.call('PUT', `/participants/${payer.name}/jws`, { validate: false });
  t.like(exempt.body, { validate: false, validateSource: 'participant', publicKeySource: 'directory' });
  t.is((await unsigned()).status, 202);
  await hub.admin.call('PUT', `/participants/${payer.name}/jws`, { validate: null });
  t.is((await unsigned()).status, 400, 'back to the scheme: validated');

  const signedQuote = (key?: KeyObject) =>
    send('POST', '/quotes', { source: payer.name, destination: payee.name, body: quoteBody(payer.name, payee.name, '1') }, { key });
  const rotated = rsa();
  const registered = await hub.admin.call('PUT', `/participants/${payer.name}/jws`, { publicKey: pem(rotated.publicKey) });
  t.like(registered.body, { validate: true, validateSource: 'scheme', publicKey: pem(rotated.publicKey), publicKeySource: 'database' });
  t.is((await signedQuote()).body?.errorInformation?.errorCode, '3105', "the directory's key no longer holds");
  t.is((await signedQuote(rotated.privateKey)).status, 202);
  await hub.admin.call('PUT', `/participants/${payer.name}/jws`, { publicKey: null });
  t.is((await signedQuote()).status, 202, "removed from the database, the directory's key holds again");
  t.like((await hub.admin.call('GET', `/participants/${payer.name}/jws`)).body, { publicKeySource: 'directory' });
});

test("a third-party authorization signed as Mojaloop's signer cuts its path (/authorizations/{ID}, as the thirdparty-sdk signs it) is this request's; another ID's is not", async (t) => {
  const pisp = await participant();
  const dfsp = await participant();
  const authorizationRequestId = crypto.randomUUID();
  const answer = (uri: string) => ({
    source: pisp.name,
    destination: dfsp.name,
    body: { responseType: 'REJECTED' },
    headers: { 'fspiop-uri': uri },
  });
  const urlPath = `/thirdpartyRequests/authorizations/${authorizationRequestId}`;
  t.is((await send('PUT', urlPath, answer(`/authorizations/${authorizationRequestId}`))).status, 200);
  const elsewhere = await send('PUT', urlPath, answer(`/authorizations/${crypto.randomUUID()}`));
  t.is(elsewhere.status, 400);
  t.is(elsewhere.body.errorInformation.errorCode, '3105');
});

test('the admin API refuses what cannot be a key or a setting, and a participant it does not know', async (t) => {
  const dfsp = await participant();
  const put = (body: unknown, name = dfsp.name) => hub.admin.call('PUT', `/participants/${name}/jws`, body);
  const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  t.is((await put({ publicKey: pem(ec) })).body.errorInformation.errorCode, '3100');
  t.is((await put({ publicKey: 'not a key' })).body.errorInformation.errorCode, '3100');
  const { privateKey, publicKey } = rsaKeyPair();
  const handedOver = await put({ publicKey: pem(privateKey) });
  t.is(handedOver.body.errorInformation.errorCode, '3100', 'a private key is refused, never kept or shown back');
  t.regex(handedOver.body.errorInformation.errorDescription, /private key/);
  const registered = await put({ publicKey: `${pem(publicKey)}and whatever else came with it` });
  t.is(registered.body.publicKey, pem(publicKey), 'the key is kept as its own PEM, nothing around it');
  t.is((await put({ validate: 'yes' })).body.errorInformation.errorCode, '3101');
  t.is((await put({ key: 'x' })).body.errorInformation.errorCode, '3103');
  t.is((await put({})).body.errorInformation.errorCode, '3102');
  const unknown = await put({ validate: true }, 'nosuchdfsp');
  t.is(unknown.status, 400);
  t.is(unknown.body.errorInformation.errorCode, '3200');
  t.is((await hub.admin.call('GET', '/participants/nosuchdfsp/jws')).status, 400);
});

test('a message refused for another reason keeps its own error: a body that is not JSON is 3101, a sender the hub does not know 3200', async (t) => {
  const payer = await participant();
  const notJson = await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payer.name, body: '{"transferId":' });
  t.is(notJson.body?.errorInformation?.errorCode, '3101');
  const stray = await hub.fspiop('POST', '/transfers', { source: 'nosuchdfsp', body: transferBody('nosuchdfsp', payer.name, '1') });
  t.is(stray.body?.errorInformation?.errorCode, '3200');
});

test('encrypted fields (FSPIOP-Encryption, signed) pass schema validation and reach the payer untouched; the switch passes on any FSPIOP-Encryption, holding the fields it reads to their schema', async (t) => {
  const payer = await participant();
  const payee = await participant();
  const id = `4470${crypto.randomInt(10 ** 7, 10 ** 8)}`;
  const urlPath = `/parties/MSISDN/${id}`;
  // dateOfBirth holds cipher text (BASE64URL), which its schema's date pattern refuses.
  const cipher = crypto.randomBytes(24).toString('base64url');
  const party = { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: id, fspId: payee.name }, personalInfo: { dateOfBirth: cipher } } };
  const entry = {
    encryptedKey: 'a2V5',
    protectedHeader: 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0',
    initializationVector: 'aXY',
    authenticationTag: 'dGFn',
  };
  const encryption = JSON.stringify({ encryptedFields: [{ fieldName: 'party.personalInfo.dateOfBirth', ...entry }] });
  const call = { source: payee.name, destination: payer.name, body: party, headers: { 'fspiop-encryption': encryption } };

  const clear = await send('PUT', urlPath, { ...call, headers: {} });
  t.is(clear.body?.errorInformation?.errorCode, '3100', 'without FSPIOP-Encryption the cipher text is a date that does not match its pattern');
  const encrypted = await send('PUT', urlPath, call);
  t.is(encrypted.status, 200);
  const received = await payer.waitFor(isPut(urlPath));
  t.is(received.headers['fspiop-encryption'], encryption);
  t.is(received.body.party.personalInfo.dateOfBirth, cipher);
  t.true(await holds(received, payee.name, publicKeyOf(payee.name)), 'the signature over it holds at the payer');

  const unsignedHeader = await send('PUT', urlPath, call, { signedHeaders: { 'fspiop-encryption': '' } });
  t.is(unsignedHeader.body?.errorInformation?.errorCode, '3105', 'FSPIOP-Encryption must be signed');
  // The header is the recipient's to check: the switch passes on one it cannot read, and one naming a field it routes
  // by, untouched, and holds such fields to their schema as ever.
  const amount = JSON.stringify({ encryptedFields: [{ fieldName: 'amount.amount', ...entry }] });
  const body = transferBody(payer.name, payee.name, '1');
  const readBySwitch = await send('POST', '/transfers', { source: payer.name, destination: payee.name, body, headers: { 'fspiop-encryption': amount } });
  t.is(readBySwitch.status, 202);
  t.is((await payee.waitFor((r) => r.method === 'POST' && r.path === '/transfers')).headers['fspiop-encryption'], amount);
  const cipherAmount = { ...transferBody(payer.name, payee.name, '1'), amount: { amount: cipher, currency: 'USD' } };
  const routedCipher = await send('POST', '/transfers', {
    source: payer.name,
    destination: payee.name,
    body: cipherAmount,
    headers: { 'fspiop-encryption': amount },
  });
  t.is(routedCipher.status, 400, 'an amount the switch books by must be in clear');
  for (const unreadable of ['{"encryptedFields":{}}', 'not json', '[]']) {
    const clearParty = { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: id, fspId: payee.name } } };
    payer.received.length = 0;
    const passed = await send('PUT', urlPath, { ...call, body: clearParty, headers: { 'fspiop-encryption': unreadable } });
    t.is(passed.status, 200, unreadable);
    t.is((await payer.waitFor(isPut(urlPath))).headers['fspiop-encryption'], unreadable, 'passed on untouched');
  }
  const notCipher = await send('PUT', urlPath, { ...call, headers: { 'fspiop-encryption': 'not json' } });
  t.is(notCipher.status, 400, 'a header it cannot read exempts no field from its schema');
});

test("our connectors sign what they send when given a key (JWS_SIGNING_KEY_PATH): the validating switch takes a connector's quote and passes it on as signed", async (t) => {
  const payer = await participant();
  const payee = await participant();
  const keyPath = path.join(keysDirectory, `${payer.name}.key`);
  fs.writeFileSync(keyPath, pem(keys.get(payer.name)!));
  const connector = new PeerSender({ participantId: payer.name, peerEndpoint: hub.url, jwsSigningKeyPath: keyPath, log: pino({ level: 'silent' }) });
  const body = quoteBody(payer.name, payee.name, '3');
  await connector.send({ to: payee.name, resource: 'quotes', name: 'request', body });
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.path === '/quotes' && r.body.quoteId === body.quoteId);
  t.true(await holds(forwarded, payer.name, publicKeyOf(payer.name)));
  const unsigned = new PeerSender({ participantId: payer.name, peerEndpoint: hub.url, log: pino({ level: 'silent' }) });
  const refused = await unsigned
    .send({ to: payee.name, resource: 'quotes', name: 'request', body: quoteBody(payer.name, payee.name, '3') })
    .catch((error: Error) => error);
  t.regex(String(refused), /3105/, 'without its key the same connector is refused');
});
