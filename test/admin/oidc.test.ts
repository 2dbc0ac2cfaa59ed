import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { generateKeyPair } from 'jose';
import { loadConfig } from '../../activities/shared/platform/config';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { answerBody } from '../helpers/http';
import { TestIdentityProvider, HUB_AT_PROVIDER } from '../helpers/identityProvider';

// The admin and settlement APIs with the scheme's identity provider (OIDC_*), over HTTP, against a real OpenID Provider
// (oidc-provider) that the test starts: its access tokens are credentials, with the roles their claim gives; a token
// that is expired, for another audience, wrongly signed or from another issuer is refused 403, saying why.

const AUDIENCE = HUB_AT_PROVIDER.audience;
const ADMIN_SECRET = crypto.randomBytes(24).toString('base64url');
const secret = () => crypto.randomBytes(24).toString('base64url');

let provider: TestIdentityProvider;
let hub: AdminHarness;
/** The same provider's tokens, read by a hub that takes roles from a group claim through OIDC_ROLE_MAP. */
let byGroups: AdminHarness;

const oidcSettings = (issuer: string) => ({
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: 'hub-console',
  OIDC_AUDIENCE: AUDIENCE,
  OIDC_RESOURCE: AUDIENCE,
  OIDC_SCOPES: 'openid profile hub',
  OIDC_PROVIDER_NAME: 'Scheme login',
});

test.before(async () => {
  provider = await TestIdentityProvider.listen({
    ...HUB_AT_PROVIDER,
    accounts: {},
    machines: {
      'settlement-bot': { secret: secret(), roles: ['finance'], groups: ['/hub/treasury'] },
      dashboard: { secret: secret(), roles: ['viewer'], groups: ['/hub/readers'] },
      'stranger-bot': { secret: secret(), roles: ['auditor-of-something-else'], groups: ['/other'] },
    },
  });
  // Unused by these tests beyond ADMIN_API_TOKENS: a machine of the scheme's with a static token keeps working beside it.
  const access = loadConfig({ ...oidcSettings(provider.issuer), ADMIN_API_TOKENS: `ops:admin:${ADMIN_SECRET}` }).adminAccess;
  // Mojaloop's settlement API (/v2) too: its reads need no Temporal, and a refusal comes before any workflow.
  const temporal = { client: {} as never, taskQueue: 'unused' };
  hub = await startAdmin(undefined, { access, temporal });
  byGroups = await startAdmin(hub.services, {
    access: loadConfig({ ...oidcSettings(provider.issuer), OIDC_ROLES_CLAIM: 'groups', OIDC_ROLE_MAP: '/hub/treasury:finance,/hub/readers:viewer' })
      .adminAccess,
  });
  await provider.allowConsole(hub.url);
});

test.after.always(async () => {
  await byGroups?.close();
  await hub?.close();
  await provider?.close();
});

async function call(at: AdminHarness, method: string, urlPath: string, bearer?: string, body?: unknown) {
  const response = await fetch(`${at.url}${urlPath}`, {
    method,
    headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await answerBody(response)) as any };
}

const asAdmin = (method: string, urlPath: string, body?: unknown) => call(hub, method, urlPath, ADMIN_SECRET, body);

const fundsIn = (currency = 'USD') => ({
  transferId: crypto.randomUUID(),
  externalReference: 'bank-ref',
  action: 'recordFundsIn',
  reason: 'deposit',
  amount: { amount: '250', currency },
});

async function participantWithSettlement() {
  const name = uniqueName();
  const { body } = await asAdmin('POST', '/participants', { name, currency: 'USD' });
  return { name, settlement: body.accounts.find((account: any) => account.ledgerAccountType === 'SETTLEMENT').id as number };
}

/** A refusal of the token: 403 with ErrorInformation 3000 saying why, the challenge that tells the console to sign in again, and no part of the token. */
function refusedToken(t: any, answer: Awaited<ReturnType<typeof call>>, token: string, reason: RegExp) {
  t.is(answer.status, 403);
  t.is(answer.body.errorInformation.errorCode, '3000');
  t.regex(answer.body.errorInformation.errorDescription, reason);
  t.is(answer.headers.get('www-authenticate'), 'Bearer realm="hub-admin", error="invalid_token"');
  for (const part of token.split('.')) t.false(JSON.stringify(answer.body).includes(part), 'the token is not echoed');
}

test('a finance access token the provider issued records funds and reads the scheme, at the admin and settlement APIs; the hub names its holder', async (t) => {
  const token = await provider.clientCredentials('settlement-bot');
  const { name, settlement } = await participantWithSettlement();
  t.is((await call(hub, 'POST', `/participants/${name}/accounts/${settlement}`, token, fundsIn())).status, 202);
  const accounts = await call(hub, 'GET', `/participants/${name}/accounts`, token);
  t.is(accounts.status, 200);
  t.is(accounts.body.find((account: any) => account.id === settlement).value, -250);
  t.is((await call(hub, 'GET', '/v2/settlementWindows?state=OPEN', token)).status, 200);
  const signedIn = await call(hub, 'POST', '/console/signIn', token, {});
  t.deepEqual(signedIn.body, { name: 'settlement-bot', roles: ['finance'], credential: 'oidc' });
});

test("a viewer's access token reads but changes nothing: 403 naming its holder and role, and a challenge that says the roles fall short", async (t) => {
  const token = await provider.clientCredentials('dashboard');
  t.is((await call(hub, 'GET', '/participants', token)).status, 200);
  const { name, settlement } = await participantWithSettlement();
  const refused = await call(hub, 'POST', `/participants/${name}/accounts/${settlement}`, token, fundsIn());
  t.is(refused.status, 403);
  t.is(refused.body.errorInformation.errorDescription, 'Generic client error - Forbidden: dashboard has role viewer, which does not allow moving funds');
  t.is(refused.headers.get('www-authenticate'), 'Bearer realm="hub-admin", error="insufficient_scope"');
  t.is((await call(hub, 'POST', '/v2/settlements', token, { reason: 'x', settlementModel: 'x', settlementWindows: [{ id: 1 }] })).status, 403);
  const trace = await call(hub, 'GET', `/transfers/${crypto.randomUUID()}/trace`, token);
  t.regex(trace.body.errorInformation.errorDescription, /does not allow reading messages and parties' data/);
  t.is((await asAdmin('GET', `/participants/${name}/accounts`)).body.find((account: any) => account.id === settlement).value, 0, 'nothing moved');
});

test('OIDC_ROLES_CLAIM and OIDC_ROLE_MAP: the roles may come from the groups a token carries, mapped to hub roles', async (t) => {
  const finance = await provider.clientCredentials('settlement-bot');
  t.deepEqual((await call(byGroups, 'POST', '/console/signIn', finance, {})).body, { name: 'settlement-bot', roles: ['finance'], credential: 'oidc' });
  const viewer = await provider.clientCredentials('dashboard');
  t.deepEqual((await call(byGroups, 'POST', '/console/signIn', viewer, {})).body.roles, ['viewer']);
});

test('a token of the provider that gives no role at this hub is refused 403', async (t) => {
  const token = await provider.clientCredentials('stranger-bot');
  refusedToken(
    t,
    await call(hub, 'GET', '/participants', token),
    token,
    /^Generic client error - Forbidden: stranger-bot has no role at this hub: its roles claim names none$/,
  );
  refusedToken(
    t,
    await call(byGroups, 'GET', '/participants', token),
    token,
    /stranger-bot has no role at this hub: OIDC_ROLE_MAP maps no value of its groups claim$/,
  );
});

test('a token the provider issued for another resource server is refused: it is not for this hub', async (t) => {
  const token = await provider.clientCredentials('settlement-bot', 'https://reports.example/api');
  refusedToken(t, await call(hub, 'GET', '/participants', token), token, /Forbidden: the access token's audience is not this hub's \(OIDC_AUDIENCE\)$/);
});

test('an expired token is refused, saying when it expired; one expired within the clock skew (30 s) is still taken', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const expired = await provider.sign({ sub: 'settlement-bot', roles: ['finance'], iat: now - 900, exp: now - 300 });
  refusedToken(
    t,
    await call(hub, 'GET', '/participants', expired),
    expired,
    new RegExp(`Forbidden: the access token expired at ${new Date((now - 300) * 1000).toISOString()}`),
  );
  const justExpired = await provider.sign({ sub: 'settlement-bot', roles: ['finance'], iat: now - 600, exp: now - 10 });
  t.is((await call(hub, 'GET', '/participants', justExpired)).status, 200);
  const noExpiry = await provider.sign({ sub: 'settlement-bot', roles: ['finance'], exp: undefined });
  refusedToken(t, await call(hub, 'GET', '/participants', noExpiry), noExpiry, /the access token has no exp claim/);
});

test('a token signed by another key is refused: a key the provider does not publish, a forged signature under its key ID, a shared-secret algorithm', async (t) => {
  const { privateKey: stranger } = await generateKeyPair('RS256');
  const claims = { sub: 'settlement-bot', roles: ['finance'] };
  const unknownKey = await provider.sign(claims, { key: stranger, kid: 'another-key' });
  refusedToken(t, await call(hub, 'GET', '/participants', unknownKey), unknownKey, /signed by a key the identity provider does not publish$/);
  const forged = await provider.sign(claims, { key: stranger });
  refusedToken(t, await call(hub, 'GET', '/participants', forged), forged, /the access token's signature does not verify with the identity provider's keys$/);
  const hmac = await provider.sign(claims, { key: crypto.randomBytes(32), alg: 'HS256' });
  refusedToken(t, await call(hub, 'GET', '/participants', hmac), hmac, /signed with an algorithm this hub does not accept/);
});

test('a token from another issuer is refused, even signed with a key the hub knows', async (t) => {
  const token = await provider.sign({ iss: 'https://login.evil.example', sub: 'settlement-bot', roles: ['admin'] });
  refusedToken(t, await call(hub, 'GET', '/participants', token), token, /Forbidden: the access token is from another issuer than OIDC_ISSUER$/);
});

test('a JWT of another type, such as a logout token (typ logout+jwt), is no access token, though the provider signed it', async (t) => {
  const token = await provider.sign({ sub: 'settlement-bot', roles: ['finance'] }, { typ: 'logout+jwt' });
  refusedToken(t, await call(hub, 'GET', '/participants', token), token, /Forbidden: the token is not an access token/);
});

test('static tokens still work beside the provider; a wrong one, or anything that is no JWT, is refused as before', async (t) => {
  t.is((await asAdmin('GET', '/participants')).status, 200);
  const wrong = await call(hub, 'GET', '/participants', 'not-a-token-this-hub-knows');
  refusedToken(t, wrong, 'not-a-token-this-hub-knows', /^Generic client error - Forbidden: the bearer token is not one this hub accepts$/);
  const unreadable = 'eyJub3QiOiJhIGhlYWRlciJ9.bm90IGEgY2xhaW1zIHNldA.c2lnbmVkIGJ5IG5vIG9uZQ';
  refusedToken(t, await call(hub, 'GET', '/participants', unreadable), unreadable, /neither one this hub accepts nor an access token it can read$/);
  const none = await call(hub, 'GET', '/participants');
  t.is(none.status, 401);
  t.regex(none.body.errorInformation.errorDescription, /authentication required \(a bearer token or an access token of http:\/\/127\.0\.0\.1:\d+\)/);
});

test('the console learns where to sign in from an open route that gives only what a public client needs', async (t) => {
  const settings = await call(hub, 'GET', '/console/signIn/settings');
  t.is(settings.status, 200);
  t.deepEqual(settings.body, {
    identityProvider: {
      name: 'Scheme login',
      issuer: provider.issuer,
      clientId: 'hub-console',
      authorizationEndpoint: `${provider.issuer}/auth`,
      tokenEndpoint: `${provider.issuer}/token`,
      endSessionEndpoint: `${provider.issuer}/session/end`,
      scope: 'openid profile hub',
      resource: AUDIENCE,
    },
  });
  const page = await fetch(`${hub.url}/console/`, { headers: { 'sec-fetch-dest': 'document' } });
  t.is(
    page.headers.get('content-security-policy'),
    `default-src 'self'; connect-src 'self' ${provider.issuer}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
});

test.serial('the hub asks the provider for its metadata and keys once, not on every request, and never more often than every 30 s on a failure', async (t) => {
  const from = provider.requests.length;
  const token = await provider.clientCredentials('dashboard');
  for (let i = 0; i < 5; i++) t.is((await call(hub, 'GET', '/participants', token)).status, 200);
  // Tokens naming keys the provider never had: the key set is fetched again once at most, in its cool-down.
  const { privateKey: stranger } = await generateKeyPair('RS256');
  for (let i = 0; i < 5; i++) {
    const forged = await provider.sign({ sub: 'x', roles: ['admin'] }, { key: stranger, kid: `kid-${i}` });
    t.is((await call(hub, 'GET', '/participants', forged)).status, 403);
  }
  const fetched = provider.requests.slice(from).filter((path) => path !== '/token');
  t.true(fetched.filter((path) => path === '/.well-known/openid-configuration').length <= 1, fetched.join(' '));
  t.true(fetched.filter((path) => path === '/jwks').length <= 2, fetched.join(' '));

  // A provider that cannot answer: 503, and the hub does not ask again for every caller.
  let asked = 0;
  const broken = http.createServer((_request, response) => {
    asked++;
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  const down = await startAdmin(hub.services, { access: loadConfig(oidcSettings(issuer)).adminAccess });
  try {
    for (let i = 0; i < 4; i++) {
      const answer = await call(down, 'GET', '/participants', token);
      t.is(answer.status, 503);
      t.is(answer.body.errorInformation.errorDescription, 'Service currently unavailable - the identity provider cannot be reached (discovery answered 500)');
    }
    t.is(asked, 1);
  } finally {
    await down.close();
    broken.closeAllConnections();
    await new Promise((resolve) => broken.close(resolve));
  }
});
