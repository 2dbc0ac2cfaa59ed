import crypto from 'node:crypto';
import test from 'ava';
import { consentChallenge } from '../../activities/shared/contracts/challenges';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { playThirdpartyDfsp, startTestPisp, ThirdpartyDfspScript } from '../helpers/connectors';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { GenericSigner } from '../../activities/pisp/genericSigner';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

/** The secret the connector derives each consent's GENERIC key from. */
const GENERIC_KEY_SECRET = crypto.randomBytes(32).toString('base64');

let hub: SwitchHarness;
let pisp: Awaited<ReturnType<typeof startTestPisp>>;

useSwitch(test, async (started) => {
  hub = started;
  pisp = await startTestPisp(hub, { genericKeySecret: GENERIC_KEY_SECRET });
});

test.after.always(async () => {
  await pisp?.connector.stop();
});

/** A DFSP at the switch that plays the third-party DFSP role as `script` says. */
async function thirdpartyDfsp(script: ThirdpartyDfspScript = {}): Promise<SimulatedDfsp> {
  const dfsp = await hub.provision();
  playThirdpartyDfsp(hub, dfsp, script);
  return dfsp;
}

/** The app's POST /linking/request-consent for one account of `userId` at `dfsp`. */
function requestConsent(dfsp: SimulatedDfsp, overrides: object = {}) {
  const consentRequestId = crypto.randomUUID();
  const body = {
    toParticipantId: dfsp.name,
    consentRequestId,
    accounts: [{ accountNickname: 'Savings', address: `${dfsp.name}.${consentRequestId.slice(0, 8)}`, currency: 'USD' }],
    actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'],
    userId: 'alice.example.org',
    callbackUri: 'https://pisp.example.org/linked',
    ...overrides,
  };
  return { consentRequestId, body, sent: pisp.app('POST', '/linking/request-consent', body) };
}

const stateOf = async (workflowId: string) => (await pisp.connector.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(State);

test('pre-linking: GET /linking/providers lists the third-party DFSPs the switch knows', async (t) => {
  const dfsp = await thirdpartyDfsp();
  const { status, body } = await pisp.app('GET', '/linking/providers');
  t.is(status, 200);
  t.is(body.currentState, 'providersLookupSuccess');
  t.true(body.providers.includes(dfsp.name));
});

test('two discovery lookups of the same ID at once both get the answer', async (t) => {
  // A third-party DFSP to list: without one the switch answers 7201, whichever test runs first.
  const dfsp = await thirdpartyDfsp();
  const [first, second] = await Promise.all([pisp.app('GET', '/linking/providers'), pisp.app('GET', '/linking/providers')]);
  t.is(first.status, 200);
  t.true(first.body.providers.includes(dfsp.name));
  t.deepEqual(second.body, first.body);
});

test("discovery: GET /linking/accounts/{fspId}/{userId} answers with the DFSP's accounts of the user, or its 6205; a user ID the SDK's API does not allow is refused 3100", async (t) => {
  const accounts = [{ accountNickname: 'Everyday', address: 'dfsp.bob.1234', currency: 'USD' }];
  const dfsp = await thirdpartyDfsp({ accounts: { 'bob.example.org': accounts } });
  const found = await pisp.app('GET', `/linking/accounts/${dfsp.name}/bob.example.org`);
  t.is(found.status, 200);
  t.deepEqual(found.body, { accounts, currentState: 'COMPLETED' });
  const unknown = await pisp.app('GET', `/linking/accounts/${dfsp.name}/nobody.example.org`);
  t.is(unknown.status, 500);
  t.is(unknown.body.errorInformation.errorCode, '6205');
  t.deepEqual(unknown.body.accounts, []);
  // The thirdparty-sdk's outbound API types it as an AccountAddress: no '@', no final '.'.
  const malformed = await pisp.app('GET', `/linking/accounts/${dfsp.name}/bob@example.org`);
  t.is(malformed.status, 400);
  t.is(malformed.body.errorInformation.errorCode, '3100');
});

test('discovery of one user ID at two DFSPs at once: each lookup gets its own DFSP’s accounts', async (t) => {
  const atFirst = [{ accountNickname: 'Everyday', address: 'first.alice.1', currency: 'USD' }];
  const atSecond = [{ accountNickname: 'Savings', address: 'second.alice.2', currency: 'USD' }];
  const [first, second] = await Promise.all([
    thirdpartyDfsp({ accounts: { 'alice.example.org': atFirst } }),
    thirdpartyDfsp({ accounts: { 'alice.example.org': atSecond } }),
  ]);
  const [fromFirst, fromSecond] = await Promise.all([
    pisp.app('GET', `/linking/accounts/${first.name}/alice.example.org`),
    pisp.app('GET', `/linking/accounts/${second.name}/alice.example.org`),
  ]);
  t.deepEqual(fromFirst.body, { accounts: atFirst, currentState: 'COMPLETED' });
  t.deepEqual(fromSecond.body, { accounts: atSecond, currentState: 'COMPLETED' });
  for (const dfsp of [first, second])
    t.is(dfsp.received.filter((r) => r.method === 'GET' && r.path.startsWith('/accounts/')).length, 1, 'each DFSP was asked once');
});

test('a linking takes its grant from the DFSP it asked: a POST /consents from another participant is no grant', async (t) => {
  const dfsp = await thirdpartyDfsp();
  const mallory = await hub.provision();
  const { consentRequestId, sent } = requestConsent(dfsp);
  t.is((await sent).status, 200);
  const forged = await fetch(`${pisp.connector.inboundUrl}/consents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'fspiop-source': mallory.name, 'fspiop-destination': pisp.name, date: new Date().toUTCString() },
    body: JSON.stringify({
      consentId: crypto.randomUUID(),
      consentRequestId,
      scopes: [{ address: 'mallory.1', actions: ['ACCOUNTS_TRANSFER'] }],
      status: 'ISSUED',
    }),
  });
  t.is(forged.status, 202, 'delivered to the conversation, as the switch delivers it');
  const authenticated = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '123456' });
  t.is(authenticated.body.currentState, 'consentReceivedAwaitingCredential');
  t.not(authenticated.body.consent.scopes[0].address, 'mallory.1');
  t.is(authenticated.body.challenge, consentChallenge(authenticated.body.consent), 'the challenge of the DFSP’s own grant');
});

test('linking by OTP ends accountsLinked with a GENERIC credential the connector signs and the Auth service verifies', async (t) => {
  const dfsp = await thirdpartyDfsp({ channel: 'OTP', authToken: '246810' });
  const { consentRequestId, body, sent } = requestConsent(dfsp);
  const requested = await sent;
  t.is(requested.status, 200);
  t.is(requested.body.currentState, 'OTPAuthenticationChannelResponseReceived');
  t.deepEqual(requested.body.channelResponse.authChannels, ['OTP']);
  const forwarded = await dfsp.waitFor((r) => r.method === 'POST' && r.path === '/consentRequests');
  t.deepEqual(forwarded.body.scopes, [{ address: body.accounts[0].address, actions: body.actions }]);
  t.is(forwarded.headers['fspiop-source'], pisp.name);

  const authenticated = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '246810' });
  t.is(authenticated.status, 200);
  t.is(authenticated.body.currentState, 'consentReceivedAwaitingCredential');
  const { consent, challenge } = authenticated.body;
  t.is(consent.consentRequestId, consentRequestId);
  t.is(challenge, consentChallenge(consent), 'the registration challenge of Document 1');

  const linked = await pisp.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, { credential: { credentialType: 'GENERIC' } });
  t.deepEqual(linked.body, { credential: { status: 'VERIFIED' }, currentState: 'accountsLinked' });
  t.is(linked.status, 200);
  const registered = await dfsp.waitFor(
    (r) => r.method === 'PUT' && r.path === `/consents/${consent.consentId}` && r.headers['fspiop-source'] === AUTH_SERVICE,
  );
  t.is(registered.body.credential.status, 'VERIFIED', "the hub's Auth service verified the connector's signature");
  const signed = await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consent.consentId}` && r.headers['fspiop-source'] === pisp.name);
  t.is(signed.body.credential.credentialType, 'GENERIC');
  t.is(
    signed.body.credential.genericPayload.publicKey,
    GenericSigner.derived(GENERIC_KEY_SECRET, consent.consentId).publicKey,
    "the consent's own key, derived from the connector's secret: a restart with the same secret signs with it again",
  );
  t.is(await stateOf(participantWorkflowIds.pispLinking(consentRequestId)), 'accountsLinked');
});

test('each consent has a GENERIC key of its own, derived from the secret alone', (t) => {
  const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
  t.is(GenericSigner.derived(GENERIC_KEY_SECRET, a).publicKey, GenericSigner.derived(GENERIC_KEY_SECRET, a).publicKey);
  t.not(GenericSigner.derived(GENERIC_KEY_SECRET, a).publicKey, GenericSigner.derived(GENERIC_KEY_SECRET, b).publicKey);
  t.not(GenericSigner.derived('another secret', a).publicKey, GenericSigner.derived(GENERIC_KEY_SECRET, a).publicKey);
});

test('linking by WEB hands the app the authUri, and a FIDO credential made on the user’s device is passed on', async (t) => {
  const dfsp = await thirdpartyDfsp({ channel: 'WEB', authToken: 'web-secret' });
  const { consentRequestId, sent } = requestConsent(dfsp);
  const requested = await sent;
  t.is(requested.body.currentState, 'WebAuthenticationChannelResponseReceived');
  t.is(requested.body.channelResponse.authUri, `https://${dfsp.name}.example.org/login`);
  const authenticated = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: 'web-secret' });
  t.is(authenticated.body.currentState, 'consentReceivedAwaitingCredential');
  const device = await SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });
  const payload = device.register(authenticated.body.challenge);
  const linked = await pisp.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, { credential: { payload } });
  t.deepEqual(linked.body, { credential: { status: 'VERIFIED' }, currentState: 'accountsLinked' });
  const signed = await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${authenticated.body.consent.consentId}`);
  t.deepEqual(signed.body.credential, { credentialType: 'FIDO', status: 'PENDING', fidoPayload: payload });
});

test("a DFSP's error to the consent request answers request-consent errored with its ErrorInformation", async (t) => {
  const refusal = { errorCode: '6101', errorDescription: 'DFSP does not support the scopes' };
  const dfsp = await thirdpartyDfsp({ consentRequestError: refusal });
  const { consentRequestId, sent } = requestConsent(dfsp);
  const answered = await sent;
  t.is(answered.status, 500);
  t.deepEqual(answered.body, { currentState: 'errored', errorInformation: refusal });
  t.is(await stateOf(participantWorkflowIds.pispLinking(consentRequestId)), 'errored');
});

test('a wrong authToken answers authenticate errored with the DFSP’s error, and the linking is over', async (t) => {
  const dfsp = await thirdpartyDfsp({ authToken: '111111' });
  const { consentRequestId, sent } = requestConsent(dfsp);
  t.is((await sent).status, 200);
  const answered = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '999999' });
  t.is(answered.status, 500);
  t.is(answered.body.currentState, 'errored');
  t.is(answered.body.errorInformation.errorCode, '7200');
  t.false(
    dfsp.received.some((r) => r.method === 'POST' && r.path === '/consents'),
    'no consent was granted',
  );
});

test('a call out of order is refused 409, and the conversation still takes the step it waits for', async (t) => {
  const dfsp = await thirdpartyDfsp();
  const { consentRequestId, sent } = requestConsent(dfsp);
  t.is((await sent).status, 200);
  const early = await pisp.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, { credential: { credentialType: 'GENERIC' } });
  t.is(early.status, 409);
  t.regex(early.body.errorInformation.errorDescription, /waits for authenticate/);
  const authenticated = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: '123456' });
  t.is(authenticated.body.currentState, 'consentReceivedAwaitingCredential');
  const unknown = await pisp.app('PATCH', `/linking/request-consent/${crypto.randomUUID()}/authenticate`, { authToken: '123456' });
  t.is(unknown.status, 404);
});

test('a request-consent body without accounts, or with a bad consentRequestId, is refused 400 and nothing is sent', async (t) => {
  const dfsp = await thirdpartyDfsp();
  const missing = await requestConsent(dfsp, { accounts: undefined }).sent;
  t.is(missing.status, 400);
  t.is(missing.body.errorInformation.errorCode, '3102');
  t.regex(missing.body.errorInformation.errorDescription, /accounts/);
  const malformed = await requestConsent(dfsp, { consentRequestId: 'not-a-uuid' }).sent;
  t.is(malformed.status, 400);
  t.regex(malformed.body.errorInformation.errorDescription, /consentRequestId/);
  const notJson = await pisp.app('POST', '/linking/request-consent', '{');
  t.is(notJson.status, 400);
  t.is(notJson.body.errorInformation.errorCode, '3101');
  t.is(dfsp.received.length, 0);
});
