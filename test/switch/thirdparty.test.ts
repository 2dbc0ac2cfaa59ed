import test from 'ava';
import crypto from 'node:crypto';
import type { thirdparty } from '@mojaloop/api-snippets';
import { consentChallenge } from '../../activities/shared/contracts/challenges';
import { Consents } from '../../activities/hub/auth/consents';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { observedConversationQuery } from '../../workflows/kit/observer';
import { consentQuery } from '../../workflows/hub/consent';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { uniqueName } from '../helpers/database';
import { GenericSigner, SoftAuthenticator } from '../helpers/softAuthenticator';
import { pollUntil } from '../helpers/polling';
import { sendAccepted, withSwitch } from '../helpers/switchHarness';
import { AUTH_SERVICE, genericCredential, linkThroughSwitch, scopesAt } from '../helpers/thirdpartyFlows';

const fixture = withSwitch(test);
const AUTH = AUTH_SERVICE;
// The Auth service's defaults (activities/shared/platform/config.ts): the PISP app a FIDO credential is made for.
const origin = 'http://localhost:3000';
const rpId = 'localhost';

async function parties(): Promise<{ dfsp: SimulatedDfsp; pisp: SimulatedDfsp }> {
  return { dfsp: await fixture.hub.provision(), pisp: await fixture.hub.provision() };
}

const fido = (authenticator: SoftAuthenticator) => (consentId: string, scopes: thirdparty.Schemas.Scope[]) => ({
  credentialType: 'FIDO' as const,
  status: 'PENDING' as const,
  fidoPayload: authenticator.register(consentChallenge({ consentId, scopes })),
});

const generic = (signer: GenericSigner) => (consentId: string, scopes: thirdparty.Schemas.Scope[]) => genericCredential(signer, consentId, scopes);

/** A linking through the switch, once the Auth service has answered the DFSP's registration (its answer beside). */
async function linked(dfsp: SimulatedDfsp, pisp: SimulatedDfsp, credential: Parameters<typeof linkThroughSwitch>[3]) {
  const linking = await linkThroughSwitch(fixture.hub, dfsp, pisp, credential);
  const answer = await dfsp.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/consents/${linking.consentId}`) && fromAuth(r));
  return { ...linking, answer };
}

/** The Auth service's answers to `dfsp` about the resource at `path`, once there are `count` of them (fewer after ten seconds). */
function answersFromAuth(dfsp: SimulatedDfsp, path: string, count: number): Promise<ReceivedRequest[]> {
  const answers = () => Promise.resolve(dfsp.received.filter((r) => r.method === 'PUT' && r.path.startsWith(path) && fromAuth(r)));
  return pollUntil(answers, (seen) => seen.length >= count);
}

/** A message the hub's Auth service sent (the PISP's own PUT /consents/{ID} passes the DFSP's simulator too). */
const fromAuth = (r: ReceivedRequest) => r.headers['fspiop-source'] === AUTH;

function t_ok(response: { status: number; body: unknown }, status: number): void {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
}

const verification = (consentId: string, challenge: string, signed: object) => ({
  verificationRequestId: crypto.randomUUID(),
  challenge,
  consentId,
  ...signed,
});

async function verify(dfsp: SimulatedDfsp, body: { verificationRequestId: string }) {
  t_ok(await fixture.hub.fspiop('POST', '/thirdpartyRequests/verifications', { source: dfsp.name, destination: AUTH, body }), 202);
  return dfsp.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/thirdpartyRequests/verifications/${body.verificationRequestId}`));
}

test('linking with a FIDO credential ends VERIFIED: the Auth service answers the DFSP and registers CONSENT/{ID} as its own', async (t) => {
  const { dfsp, pisp } = await parties();
  const authenticator = await SoftAuthenticator.create({ origin, rpId, format: 'packed' });
  const { consentId, scopes, consentRequestId, answer } = await linked(dfsp, pisp, fido(authenticator));
  t.is(answer.path, `/consents/${consentId}`);
  t.is(answer.headers['fspiop-source'], AUTH);
  t.is(answer.headers['content-type'], 'application/vnd.interoperability.thirdparty+json;version=1.0');
  t.is(answer.body.credential.status, 'VERIFIED');
  t.deepEqual(answer.body.scopes, scopes);
  t.is(
    await fixture.hub.services.db.read(
      async (m) => (await m.query(`SELECT fspId FROM party_lookup WHERE partyIdType = 'CONSENT' AND partyIdentifier = '${consentId}'`))[0]?.fspId,
    ),
    AUTH,
  );
  const linkingView = await fixture.hub.worker.client.workflow.getHandle(workflowIds.linking(consentRequestId)).query(observedConversationQuery);
  t.true(linkingView.messages.length >= 3);
});

test('linking with a GENERIC credential ends VERIFIED; a credential that does not sign the derived challenge is refused with 7212', async (t) => {
  const { dfsp, pisp } = await parties();
  const signer = new GenericSigner();
  const good = await linked(dfsp, pisp, generic(signer));
  t.is(good.answer.body.credential.status, 'VERIFIED');

  const bad = await linked(dfsp, pisp, () => ({ credentialType: 'GENERIC', status: 'PENDING', genericPayload: signer.register('another challenge') }));
  const refused = bad.answer;
  t.is(refused.path, `/consents/${bad.consentId}/error`);
  t.is(refused.body.errorInformation.errorCode, '7212');
});

test('verifications: a signed challenge verifies; a wrong key, a wrong challenge and a replayed counter do not (7105)', async (t) => {
  const { dfsp, pisp } = await parties();
  const authenticator = await SoftAuthenticator.create({ origin, rpId, format: 'fido-u2f' });
  const { consentId } = await linked(dfsp, pisp, fido(authenticator));

  const challenge = crypto.randomBytes(32).toString('base64');
  const passed = await verify(dfsp, verification(consentId, challenge, { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert(challenge) }));
  t.deepEqual(passed.body, { authenticationResponse: 'VERIFIED' });
  t.is(passed.headers['fspiop-source'], AUTH);

  const replayed = await verify(
    dfsp,
    verification(consentId, challenge, { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert(challenge, { replay: true }) }),
  );
  t.true(replayed.path.endsWith('/error'));
  t.is(replayed.body.errorInformation.errorCode, '7105');

  const other = await SoftAuthenticator.create({ origin, rpId, format: 'packed' });
  other.register(challenge);
  const wrongKey = await verify(dfsp, verification(consentId, challenge, { signedPayloadType: 'FIDO', fidoSignedPayload: other.assert(challenge) }));
  t.is(wrongKey.body.errorInformation.errorCode, '7105');

  const wrongChallenge = await verify(
    dfsp,
    verification(consentId, challenge, { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert('not the challenge') }),
  );
  t.is(wrongChallenge.body.errorInformation.errorCode, '7105');

  // The consent's workflow records each verification once its answer is sent.
  const handle = fixture.hub.worker.client.workflow.getHandle(workflowIds.consent(consentId));
  const view = await pollUntil(
    () => handle.query(consentQuery),
    (consent) => consent.verifications.length >= 4,
  );
  t.deepEqual(
    view.verifications.map((v) => v.verified),
    [true, false, false, false],
  );
});

test('unlinking by the PISP through the CONSENT lookup: the Auth service revokes, both sides get PATCH REVOKED, and the consent never verifies again (7213)', async (t) => {
  const { dfsp, pisp } = await parties();
  const signer = new GenericSigner();
  const { consentId } = await linked(dfsp, pisp, generic(signer));

  // Addressed to the DFSP, as Document 1 has the PISP do; the switch finds the Auth service owns the consent.
  t_ok(await fixture.hub.fspiop('DELETE', `/consents/${consentId}`, { source: pisp.name, destination: dfsp.name }), 202);
  for (const side of [dfsp, pisp]) {
    const patch = await side.waitFor((r) => r.method === 'PATCH' && r.path === `/consents/${consentId}`);
    t.is(patch.body.status, 'REVOKED');
    t.truthy(Date.parse(patch.body.revokedAt));
  }
  t.false(
    dfsp.received.some((r) => r.method === 'DELETE'),
    'the DELETE is not passed on to the DFSP',
  );

  const challenge = 'a challenge after the unlinking';
  const refused = await verify(dfsp, verification(consentId, challenge, { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) }));
  t.is(refused.body.errorInformation.errorCode, '7213');
});

test('unlinking by the DFSP; a participant that is neither side of the consent may not unlink it', async (t) => {
  const { dfsp, pisp } = await parties();
  const stranger = await fixture.hub.provision();
  const signer = new GenericSigner();
  const { consentId } = await linked(dfsp, pisp, generic(signer));

  t_ok(await fixture.hub.fspiop('DELETE', `/consents/${consentId}`, { source: stranger.name, destination: AUTH }), 202);
  const refused = await stranger.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}/error`);
  t.is(refused.body.errorInformation.errorCode, '7200');

  t_ok(await fixture.hub.fspiop('DELETE', `/consents/${consentId}`, { source: dfsp.name, destination: AUTH }), 202);
  const patch = await pisp.waitFor((r) => r.method === 'PATCH' && r.path === `/consents/${consentId}`);
  t.is(patch.body.status, 'REVOKED');
});

test('a DELETE for a consent the Auth service does not hold goes to the DFSP named in FSPIOP-Destination', async (t) => {
  const { dfsp, pisp } = await parties();
  const consentId = crypto.randomUUID();
  t_ok(await fixture.hub.fspiop('DELETE', `/consents/${consentId}`, { source: pisp.name, destination: dfsp.name }), 202);
  const passed = await dfsp.waitFor((r) => r.method === 'DELETE' && r.path === `/consents/${consentId}`);
  t.is(passed.headers['fspiop-source'], pisp.name);
});

test('a registration repeated is answered as the first was; one with another credential under the same consentId is 3106', async (t) => {
  const { dfsp, pisp } = await parties();
  const signer = new GenericSigner();
  const { consentId, scopes, consentRequestId, credential } = await linked(dfsp, pisp, generic(signer));
  const body = { consentId, consentRequestId, scopes, credential, status: 'ISSUED' };
  t_ok(await fixture.hub.fspiop('POST', '/consents', { source: dfsp.name, destination: AUTH, body }), 202);
  const answers = (count: number) => answersFromAuth(dfsp, `/consents/${consentId}`, count);
  const [, again] = await answers(2);
  t.is(again.path, `/consents/${consentId}`);
  t.is(again.body.credential.status, 'VERIFIED');

  const other = new GenericSigner().register(consentChallenge({ consentId, scopes }));
  const modified = { ...body, credential: { credentialType: 'GENERIC', status: 'PENDING', genericPayload: other } };
  t_ok(await fixture.hub.fspiop('POST', '/consents', { source: dfsp.name, destination: AUTH, body: modified }), 202);
  const [, , refused] = await answers(3);
  t.is(refused.path, `/consents/${consentId}/error`);
  t.is(refused.body.errorInformation.errorCode, '3106');
});

test("GET /consents/{ID} at the Auth service answers the consent's DFSP and PISP; another participant, or another DFSP's verification, learns nothing (7213)", async (t) => {
  const { dfsp, pisp } = await parties();
  const stranger = await fixture.hub.provision();
  const signer = new GenericSigner();
  const { consentId, scopes } = await linked(dfsp, pisp, generic(signer));

  t_ok(await fixture.hub.fspiop('GET', `/consents/${consentId}`, { source: pisp.name, destination: AUTH }), 202);
  const consent = await pisp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}` && fromAuth(r));
  t.deepEqual(consent.body.scopes, scopes);
  t.is(consent.body.credential.status, 'VERIFIED');

  t_ok(await fixture.hub.fspiop('GET', `/consents/${consentId}`, { source: stranger.name, destination: AUTH }), 202);
  const hidden = await stranger.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/consents/${consentId}`));
  t.is(hidden.path, `/consents/${consentId}/error`);
  t.is(hidden.body.errorInformation.errorCode, '7213');

  const challenge = 'a challenge another DFSP asks about';
  const probe = await verify(stranger, verification(consentId, challenge, { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) }));
  t.is(probe.body.errorInformation.errorCode, '7213');
});

test('a verification repeated under its ID gets the same answer (no counter replay); another request under that ID is 3106', async (t) => {
  const { dfsp, pisp } = await parties();
  const authenticator = await SoftAuthenticator.create({ origin, rpId, format: 'packed' });
  const { consentId } = await linked(dfsp, pisp, fido(authenticator));
  const challenge = crypto.randomBytes(32).toString('base64');
  const body = verification(consentId, challenge, { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert(challenge) });
  t.deepEqual((await verify(dfsp, body)).body, { authenticationResponse: 'VERIFIED' });

  t_ok(await fixture.hub.fspiop('POST', '/thirdpartyRequests/verifications', { source: dfsp.name, destination: AUTH, body }), 202);
  const answers = (count: number) => answersFromAuth(dfsp, `/thirdpartyRequests/verifications/${body.verificationRequestId}`, count);
  const [, again] = await answers(2);
  t.deepEqual(again.body, { authenticationResponse: 'VERIFIED' });

  const other = { ...body, fidoSignedPayload: authenticator.assert('another challenge') };
  t_ok(await fixture.hub.fspiop('POST', '/thirdpartyRequests/verifications', { source: dfsp.name, destination: AUTH, body: other }), 202);
  const [, , refused] = await answers(3);
  t.is(refused.body.errorInformation.errorCode, '3106');
});

test('a CONSENT entry registered by someone else first is taken over by the Auth service, so unlinking still reaches it', async (t) => {
  const { dfsp, pisp } = await parties();
  const signer = new GenericSigner();
  const consentId = crypto.randomUUID();
  // The PISP claims the consent's ID in the account lookup before the DFSP registers the consent.
  const claimed = await fixture.hub.fspiop('POST', `/participants/CONSENT/${consentId}`, { source: pisp.name, body: { fspId: pisp.name } });
  t.is(claimed.status, 202);
  await pisp.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/participants/CONSENT/${consentId}`));
  const scopes = scopesAt(dfsp);
  await sendAccepted(fixture.hub, 'POST', '/consents', dfsp.name, pisp.name, { consentId, consentRequestId: crypto.randomUUID(), scopes, status: 'ISSUED' });
  await sendAccepted(fixture.hub, 'POST', '/consents', dfsp.name, AUTH, {
    consentId,
    scopes,
    credential: genericCredential(signer, consentId, scopes),
    status: 'ISSUED',
  });
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}` && fromAuth(r));

  t_ok(await fixture.hub.fspiop('DELETE', `/consents/${consentId}`, { source: pisp.name, destination: dfsp.name }), 202);
  const patch = await pisp.waitFor((r) => r.method === 'PATCH' && r.path === `/consents/${consentId}`);
  t.is(patch.body.status, 'REVOKED');
});

test('a grant (POST /consents without credential) is recorded only when addressed to an active participant; to the Auth service it is refused first', async (t) => {
  const { dfsp, pisp } = await parties();
  const inactive = uniqueName('inactive');
  t_ok(await fixture.hub.admin.call('POST', '/participants', { name: inactive, currency: 'USD' }), 200);
  const consents = new Consents(fixture.hub.services.db);
  const grant = () => ({
    consentId: crypto.randomUUID(),
    consentRequestId: crypto.randomUUID(),
    scopes: [{ address: 'a.b', actions: ['ACCOUNTS_TRANSFER'] }],
    status: 'ISSUED',
  });
  const send = (destination: string, body: object) => fixture.hub.fspiop('POST', '/consents', { source: dfsp.name, destination, body });

  const toAuth = grant();
  const refused = await send(AUTH, toAuth);
  t.is(refused.status, 400, JSON.stringify(refused.body));
  t.is(refused.body.errorInformation.errorCode, '3102');
  t.is(await consents.find(toAuth.consentId), null, 'a grant to the Auth service is not recorded');

  for (const destination of [uniqueName('unknown'), inactive]) {
    const body = grant();
    t_ok(await send(destination, body), 202);
    t.is(await consents.find(body.consentId), null, `a grant to ${destination}, which cannot take it, is not recorded`);
  }

  const delivered = grant();
  t_ok(await send(pisp.name, delivered), 202);
  t.like(await consents.find(delivered.consentId), { dfsp: dfsp.name, pisp: pisp.name, consentRequestId: delivered.consentRequestId });
});
