import test from 'ava';
import crypto from 'node:crypto';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { dfspLinkingQuery } from '../../workflows/dfsp/thirdpartyContracts';
import { simulatedBackends } from '../../activities/dfsp/simulator/simulated';
import { SimulatedBank } from '../../activities/dfsp/simulator/simulatedBank';
import { startDfspConnector } from '../../worker/dfspConnector';
import { connectorBundle, connectorConfig, onboardConnector, startTestDfsp, testLog } from '../helpers/connectors';
import { uniqueName } from '../helpers/database';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { pollUntil } from '../helpers/polling';
import {
  answerOrError,
  authenticate,
  ConsentRequestOptions,
  FIDO_APP,
  fidoCredential,
  genericCredential,
  isTo,
  linkAccount,
  passCredential,
  requestConsent,
  scopesOf,
  TestDfsp,
  userAt,
} from '../helpers/scriptedPisp';
import { GenericSigner, SoftAuthenticator } from '../helpers/softAuthenticator';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';

let hub: SwitchHarness;
let dfsp: TestDfsp;

useSwitch(test, async (started) => {
  hub = started;
  dfsp = await startTestDfsp(hub);
});

test.after.always(async () => {
  await dfsp?.connector.stop();
});

/** Who holds a THIRD_PARTY_LINK, as any participant asks the switch's account lookup. */
async function linkHolder(asker: SimulatedDfsp, address: string): Promise<ReturnType<typeof JSON.parse>> {
  const path = `/participants/THIRD_PARTY_LINK/${address}`;
  await hub.fspiop('GET', path, { source: asker.name });
  return (await answerOrError(asker, path)).body;
}

test('GET /accounts/{ID} lists the user’s accounts for linking; an unknown user is PUT /accounts/{ID}/error 6205', async (t) => {
  const pisp = await hub.provision();
  const { userId, address } = userAt(dfsp);
  await hub.fspiop('GET', `/accounts/${userId}`, { source: pisp.name, destination: dfsp.name });
  const listed = await answerOrError(pisp, `/accounts/${encodeURIComponent(userId)}`);
  t.deepEqual(listed.body, { accounts: [{ accountNickname: 'Alice everyday', address, currency: 'USD' }] });
  t.is(listed.headers['fspiop-source'], dfsp.name);

  await hub.fspiop('GET', '/accounts/nobody', { source: pisp.name, destination: dfsp.name });
  const unknown = await answerOrError(pisp, '/accounts/nobody');
  t.is(unknown.path, '/accounts/nobody/error');
  t.is(unknown.body.errorInformation.errorCode, '6205');
});

test('linking by OTP with a GENERIC credential: the secret goes out of band, the consent is VERIFIED and each account is a THIRD_PARTY_LINK of the DFSP', async (t) => {
  const pisp = await hub.provision();
  const signer = new GenericSigner();
  const linked = await linkAccount(hub, pisp, dfsp, genericCredential(signer), { authChannels: ['OTP'] });
  t.deepEqual(linked.answer.body, { scopes: linked.request.scopes, authChannels: ['OTP'], callbackUri: linked.request.callbackUri });
  t.is(dfsp.backends.thirdparty.secretFor(linked.request.consentRequestId)?.channel, 'OTP');
  t.like(linked.grant.body, { consentRequestId: linked.request.consentRequestId, scopes: linked.request.scopes, status: 'ISSUED' });

  t.is(linked.finished.method, 'PATCH');
  t.deepEqual(linked.finished.body, { credential: { status: 'VERIFIED' } });
  t.is(linked.finished.headers['fspiop-source'], dfsp.name);
  const asker = await hub.provision();
  t.deepEqual(await linkHolder(asker, userAt(dfsp).address), { fspId: dfsp.name });
  t.like(await dfsp.backends.thirdparty.consent(linked.consentId), { pispId: pisp.name, status: 'VERIFIED', credentialType: 'GENERIC', scopes: linked.scopes });
  const view = await dfsp.connector.client.workflow.getHandle(participantWorkflowIds.dfspLinking(linked.request.consentRequestId)).query(dfspLinkingQuery);
  t.like(view, { state: 'LINKED', pisp: pisp.name, consentId: linked.consentId });
});

test('linking by WEB with a FIDO credential: the PISP is given the bank’s authUri, and the credential the user’s device made is VERIFIED', async (t) => {
  const pisp = await hub.provision();
  const authenticator = await SoftAuthenticator.create({ ...FIDO_APP, format: 'packed' });
  const { address } = userAt(dfsp, 'bob');
  const linked = await linkAccount(hub, pisp, dfsp, fidoCredential(authenticator), {
    authChannels: ['WEB'],
    userId: userAt(dfsp, 'bob').userId,
    scopes: scopesOf(address),
  });
  t.deepEqual(linked.answer.body.authChannels, ['WEB']);
  // The bank's login page: the simulated bank's own, on the connector's outbound address.
  t.is(linked.answer.body.authUri, `${dfsp.connector.outboundUrl}/simulator/login?consentRequestId=${linked.request.consentRequestId}`);
  t.is(linked.answer.body.callbackUri, linked.request.callbackUri);
  t.deepEqual(linked.finished.body, { credential: { status: 'VERIFIED' } });
  t.deepEqual(await linkHolder(await hub.provision(), address), { fspId: dfsp.name });
  t.like(await dfsp.backends.thirdparty.consent(linked.consentId), { status: 'VERIFIED', credentialType: 'FIDO' });
});

/** A consent request by Bob for his own account. */
const bobsRequest = () => ({ userId: userAt(dfsp, 'bob').userId, scopes: scopesOf(userAt(dfsp, 'bob').address) });

// Document 1: the DFSP picks the channel. The bank knows which channels each user can authenticate on, in its order
// of preference (the simulated bank: Alice OTP only, Bob WEB then OTP), and takes the first the PISP offers.
const choices: Array<{ who: 'alice' | 'bob'; offered: Array<'WEB' | 'OTP'>; callbackUri?: string; chosen: 'WEB' | 'OTP'; why: string }> = [
  { who: 'alice', offered: ['WEB', 'OTP'], chosen: 'OTP', why: 'the user has no web login' },
  { who: 'bob', offered: ['WEB', 'OTP'], chosen: 'WEB', why: 'the bank prefers its login page' },
  { who: 'bob', offered: ['OTP', 'WEB'], chosen: 'WEB', why: 'the bank’s order counts, not the PISP’s' },
  { who: 'bob', offered: ['WEB', 'OTP'], callbackUri: 'http://pisp.example.org/linked', chosen: 'OTP', why: 'an http callbackUri rules out WEB only' },
];

for (const { who, offered, callbackUri, chosen, why } of choices) {
  test(`the DFSP picks the channel: ${who} offered ${offered.join(' and ')}${callbackUri ? ' with an http callbackUri' : ''} authenticates on ${chosen} (${why})`, async (t) => {
    const pisp = await hub.provision();
    const { userId, address } = userAt(dfsp, who);
    const { request, answer } = await requestConsent(hub, pisp, dfsp, { userId, scopes: scopesOf(address), authChannels: offered, callbackUri });
    t.is(answer.path, `/consentRequests/${request.consentRequestId}`);
    t.deepEqual(answer.body.authChannels, [chosen]);
    t.is(answer.body.authUri !== undefined, chosen === 'WEB', 'an authUri comes with WEB only');
    t.is(dfsp.backends.thirdparty.secretFor(request.consentRequestId)?.channel, chosen);
  });
}

const refusals: Array<{ code: string; why: string; options: () => ConsentRequestOptions }> = [
  { code: '6101', why: 'a scope names an account the user does not hold', options: () => ({ scopes: scopesOf(userAt(dfsp, 'bob').address) }) },
  // Statements are an action of the API this DFSP does not offer PISPs.
  {
    code: '6101',
    why: 'a scope asks for an action the DFSP does not offer',
    options: () => ({ scopes: scopesOf(userAt(dfsp).address, ['ACCOUNTS_STATEMENT']) }),
  },
  // Bob may log in on the web; with an http callbackUri WEB is ruled out, and the PISP offered nothing else.
  {
    code: '6204',
    why: 'the WEB channel, the only one offered, comes with an http callbackUri',
    options: () => ({ authChannels: ['WEB'], callbackUri: 'http://pisp.example.org/linked', ...bobsRequest() }),
  },
  // Alice has no web banking: the bank can only send her an OTP.
  { code: '6104', why: 'the PISP offers no channel the bank can authenticate the user on', options: () => ({ authChannels: ['WEB'] }) },
  { code: '6205', why: 'there is no such user', options: () => ({ userId: 'nobody@nowhere' }) },
];

for (const { code, why, options } of refusals) {
  test(`a consent request is refused with PUT /consentRequests/{ID}/error ${code} when ${why}`, async (t) => {
    const pisp = await hub.provision();
    const { request, answer } = await requestConsent(hub, pisp, dfsp, options());
    t.is(answer.path, `/consentRequests/${request.consentRequestId}/error`);
    t.is(answer.body.errorInformation.errorCode, code);
    t.is(dfsp.backends.thirdparty.secretFor(request.consentRequestId), undefined, 'the user was sent no secret');
  });
}

test('a consent request for a suspended account is refused with 6104 (another DFSP check)', async (t) => {
  const suspendedDfsp = await startTestDfsp(hub);
  t.teardown(() => suspendedDfsp.connector.stop());
  suspendedDfsp.backends.thirdparty.suspend(userAt(suspendedDfsp).address);
  const pisp = await hub.provision();
  const { request, answer } = await requestConsent(hub, pisp, suspendedDfsp);
  t.is(answer.path, `/consentRequests/${request.consentRequestId}/error`);
  t.is(answer.body.errorInformation.errorCode, '6104');
});

test('a wrong authToken ends the linking with PUT /consentRequests/{ID}/error 7205, and no consent is granted', async (t) => {
  const pisp = await hub.provision();
  const { request } = await requestConsent(hub, pisp, dfsp);
  const secret = dfsp.backends.thirdparty.secretFor(request.consentRequestId)!.secret;
  const refused = await authenticate(hub, pisp, dfsp, request.consentRequestId, `${secret}0`);
  t.is(refused.path, `/consentRequests/${request.consentRequestId}/error`);
  t.is(refused.body.errorInformation.errorCode, '7205');
  t.false(pisp.received.some(isTo('POST', '/consents')));
});

test('a credential the Auth service rejects ends the linking with PUT /consents/{ID}/error 7213: no link, nothing kept', async (t) => {
  const pisp = await hub.provision();
  const signer = new GenericSigner();
  const { request } = await requestConsent(hub, pisp, dfsp, { scopes: scopesOf(userAt(dfsp).address) });
  const grant = await authenticate(hub, pisp, dfsp, request.consentRequestId, dfsp.backends.thirdparty.secretFor(request.consentRequestId)!.secret);
  const { consentId, scopes } = grant.body;
  // Signed over another challenge than the one derived from the consent.
  const forged = { credentialType: 'GENERIC' as const, status: 'PENDING' as const, genericPayload: signer.register(crypto.randomBytes(32).toString('hex')) };
  const ended = await passCredential(hub, pisp, dfsp, consentId, scopes, forged);
  t.is(ended.path, `/consents/${consentId}/error`);
  t.is(ended.body.errorInformation.errorCode, '7213');
  t.is(await dfsp.backends.thirdparty.consent(consentId), undefined);
  t.false(pisp.received.some(isTo('PATCH', `/consents/${consentId}`)));
});

test('unlinking through the Auth service: the PISP’s DELETE revokes the consent there, and the DFSP’s bank learns it from the PATCH', async (t) => {
  const pisp = await hub.provision();
  const linked = await linkAccount(hub, pisp, dfsp, genericCredential(new GenericSigner()));
  t.is((await hub.fspiop('DELETE', `/consents/${linked.consentId}`, { source: pisp.name, destination: dfsp.name })).status, 202);
  // The PISP was told VERIFIED on the same path when the linking ended; now it is told REVOKED.
  const told = await pisp.waitFor((r) => isTo('PATCH', `/consents/${linked.consentId}`)(r) && r.body.status === 'REVOKED', 15_000);
  t.is(told.headers['fspiop-source'], AUTH_SERVICE);
  const kept = await pollUntil(
    () => dfsp.backends.thirdparty.consent(linked.consentId),
    (consent) => consent?.status === 'REVOKED',
  );
  t.is(kept?.status, 'REVOKED');
});

test('unlinking at the DFSP: a DELETE the switch routes to the DFSP revokes the consent there and the PISP gets PATCH REVOKED; another PISP is refused', async (t) => {
  const pisp = await hub.provision();
  const stranger = await hub.provision();
  // A consent whose credential no Auth service at the switch holds (a DFSP-hosted Auth service, Document 1 linking rule 5).
  const consentId = crypto.randomUUID();
  await dfsp.backends.thirdparty.storeConsent({
    consentId,
    consentRequestId: crypto.randomUUID(),
    pispId: pisp.name,
    userId: userAt(dfsp).userId,
    scopes: scopesOf(userAt(dfsp).address),
    status: 'VERIFIED',
    credentialType: 'GENERIC',
  });

  await hub.fspiop('DELETE', `/consents/${consentId}`, { source: stranger.name, destination: dfsp.name });
  const refused = await stranger.waitFor(isTo('PUT', `/consents/${consentId}/error`), 15_000);
  t.is(refused.body.errorInformation.errorCode, '7213');
  t.is((await dfsp.backends.thirdparty.consent(consentId))?.status, 'VERIFIED');

  await hub.fspiop('DELETE', `/consents/${consentId}`, { source: pisp.name, destination: dfsp.name });
  const told = await pisp.waitFor(isTo('PATCH', `/consents/${consentId}`), 15_000);
  t.is(told.body.status, 'REVOKED');
  t.is(told.headers['fspiop-source'], dfsp.name);
  t.is((await dfsp.backends.thirdparty.consent(consentId))?.status, 'REVOKED');
});

/** How many messages a conversation of `on` has been handed so far (signals in its history). */
async function messagesHandedTo(on: TestDfsp, workflowId: string): Promise<number> {
  const history = await on.connector.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((event) => event.workflowExecutionSignaledEventAttributes).length;
}

/** Once the linking's workflow has ended: a POST with its ID is then a repeat of a finished linking. */
const linkingEnded = (consentRequestId: string) =>
  pollUntil(
    async () => (await dfsp.connector.client.workflow.getHandle(participantWorkflowIds.dfspLinking(consentRequestId)).describe()).status.name,
    (status) => status !== 'RUNNING',
  );

/** A DFSP connector that registers consents with `authService`, an Auth service the test plays. */
async function dfspWithAuthService(authService: SimulatedDfsp): Promise<TestDfsp> {
  const name = uniqueName();
  const bank = new SimulatedBank(name);
  const backends = simulatedBackends(bank);
  const connector = await startDfspConnector(connectorConfig(hub, name, { authServiceId: authService.name }), testLog(), backends, {
    workflowBundlePath: connectorBundle('dfsp'),
  });
  await onboardConnector(hub, connector);
  return { name, bank, backends, connector };
}

test('a PISP that answers the registration in the Auth service’s place (PUT /consents/{ID} VERIFIED) is not taken: the Auth service’s verdict is', async (t) => {
  const authService = await hub.provision();
  const withAuth = await dfspWithAuthService(authService);
  t.teardown(() => withAuth.connector.stop());
  const pisp = await hub.provision();
  const { request } = await requestConsent(hub, pisp, withAuth);
  const grant = await authenticate(hub, pisp, withAuth, request.consentRequestId, withAuth.backends.thirdparty.secretFor(request.consentRequestId)!.secret);
  const { consentId, scopes } = grant.body;
  const credential = genericCredential(new GenericSigner())(consentId, scopes);
  await hub.fspiop('PUT', `/consents/${consentId}`, { source: pisp.name, destination: withAuth.name, body: { scopes, credential } });

  // While the DFSP waits for the Auth service's answer, the PISP sends one of its own.
  const registration = await authService.waitFor((r) => isTo('POST', '/consents')(r) && r.body.consentId === consentId);
  const forged = await hub.fspiop('PUT', `/consents/${consentId}`, {
    source: pisp.name,
    destination: withAuth.name,
    body: { scopes, credential: { ...credential, status: 'VERIFIED' } },
  });
  t.is(forged.status, 202, 'the switch delivers it');
  const exchangeId = participantWorkflowIds.exchange('consents', consentId);
  t.is(
    await pollUntil(
      () => messagesHandedTo(withAuth, exchangeId),
      (handed) => handed >= 1,
    ),
    1,
    'the forged answer reached the registration',
  );
  // The Auth service refuses the credential: that is the answer the DFSP takes.
  await hub.fspiop('PUT', `/consents/${consentId}/error`, {
    source: authService.name,
    destination: withAuth.name,
    body: { errorInformation: { errorCode: '7213', errorDescription: 'Consent is invalid' } },
  });
  t.is(registration.headers['fspiop-destination'], authService.name);
  const ended = await pisp.waitFor(
    (r) => isTo('PATCH', `/consents/${consentId}`)(r) || isTo('PUT', `/consents/${consentId}/error`)(r),
    20_000,
    'end of linking',
  );
  t.is(ended.path, `/consents/${consentId}/error`);
  t.is(ended.body.errorInformation.errorCode, '7213');
  t.is(await withAuth.backends.thirdparty.consent(consentId), undefined, 'no consent kept');
});

test('an authToken another participant PATCHes is not taken: the linking waits for its own PISP’s', async (t) => {
  const pisp = await hub.provision();
  const intruder = await hub.provision();
  const { request } = await requestConsent(hub, pisp, dfsp);
  const secret = dfsp.backends.thirdparty.secretFor(request.consentRequestId)!.secret;
  // The intruder learnt the ID and passes a wrong token first: taken, it would end the linking with 7205.
  const sent = await hub.fspiop('PATCH', `/consentRequests/${request.consentRequestId}`, {
    source: intruder.name,
    destination: dfsp.name,
    body: { authToken: `${secret}0` },
  });
  t.is(sent.status, 202);
  t.is(
    await pollUntil(
      () => messagesHandedTo(dfsp, participantWorkflowIds.dfspLinking(request.consentRequestId)),
      (handed) => handed >= 2,
    ),
    2,
    'the POST and the intruder’s PATCH reached the linking',
  );
  const grant = await authenticate(hub, pisp, dfsp, request.consentRequestId, secret);
  t.is(grant.method, 'POST', JSON.stringify(grant.body));
  t.false(pisp.received.some(isTo('PUT', `/consentRequests/${request.consentRequestId}/error`)));
});

test('a repeated POST /consentRequests of a finished linking is answered: its PISP is told the outcome again, anyone else 3106', async (t) => {
  const pisp = await hub.provision();
  const linked = await linkAccount(hub, pisp, dfsp, genericCredential(new GenericSigner()));
  const verified = () => pisp.received.filter(isTo('PATCH', `/consents/${linked.consentId}`));
  t.is(verified().length, 1);
  t.is(await linkingEnded(linked.request.consentRequestId), 'COMPLETED');
  await hub.fspiop('POST', '/consentRequests', { source: pisp.name, destination: dfsp.name, body: linked.request });
  const toldAgain = await pollUntil(
    async () => verified(),
    (patches) => patches.length === 2,
  );
  t.deepEqual(toldAgain[1]?.body, { credential: { status: 'VERIFIED' } });

  const other = await hub.provision();
  await hub.fspiop('POST', '/consentRequests', { source: other.name, destination: dfsp.name, body: linked.request });
  const used = await answerOrError(other, `/consentRequests/${linked.request.consentRequestId}`);
  t.is(used.path, `/consentRequests/${linked.request.consentRequestId}/error`);
  t.is(used.body.errorInformation.errorCode, '3106');
  t.false(other.received.some((r) => r.path.startsWith('/consents')));

  // A linking that failed on the consent request: its PISP gets the same error again.
  const refusedPisp = await hub.provision();
  const { request } = await requestConsent(hub, refusedPisp, dfsp);
  await authenticate(hub, refusedPisp, dfsp, request.consentRequestId, 'wrong');
  const errors = () => refusedPisp.received.filter(isTo('PUT', `/consentRequests/${request.consentRequestId}/error`));
  t.is(await linkingEnded(request.consentRequestId), 'COMPLETED');
  await hub.fspiop('POST', '/consentRequests', { source: refusedPisp.name, destination: dfsp.name, body: request });
  const again = await pollUntil(
    async () => errors(),
    (seen) => seen.length === 2,
  );
  t.is(again[1]?.body.errorInformation.errorCode, '7205');
});
