import test from 'ava';
import { exposureProblem, loadConfig } from '../../../../../activities/shared/platform/config';

// The settings as operators write them in the environment, and the start-up errors that name what is wrong.

const SECRET = 'a3f1c9e07b2d4e6f8a0b1c2d3e4f5a6b';
const tokens = (value: string) => loadConfig({ ADMIN_API_TOKENS: value }).adminAccess.tokens;

test('ADMIN_API_TOKENS: a bare secret is an unnamed admin token, name:role:secret a named one of that role', (t) => {
  t.deepEqual(tokens(`${SECRET}, prometheus:metrics:${SECRET}x, ops:admin:${SECRET}y`), [
    { name: undefined, role: 'admin', secret: SECRET },
    { name: 'prometheus', role: 'metrics', secret: `${SECRET}x` },
    { name: 'ops', role: 'admin', secret: `${SECRET}y` },
  ]);
});

test('ADMIN_API_TOKENS: the secret is everything after the second colon', (t) => {
  t.deepEqual(tokens(`scraper:metrics:${SECRET}:with:colons`), [{ name: 'scraper', role: 'metrics', secret: `${SECRET}:with:colons` }]);
});

test('ADMIN_API_TOKENS: a role the hub does not know is refused at start, naming the roles and never the secret', (t) => {
  const error = t.throws(() => tokens(`grafana:reader:${SECRET}`))!;
  t.is(error.message, 'an ADMIN_API_TOKENS role is one of viewer, operator, finance, admin, metrics, got "reader" (token grafana)');
  t.throws(() => tokens(`ops::${SECRET}`), { message: /role is one of viewer, operator, finance, admin, metrics, got ""/ });
});

test('ADMIN_API_TOKENS: an entry with a single colon is neither form and is refused, without quoting it', (t) => {
  const error = t.throws(() => tokens(`prometheus:${SECRET}`))!;
  t.regex(error.message, /secret alone or name:role:secret/);
  t.false(error.message.includes(SECRET));
});

test('ADMIN_API_TOKENS: a name is a plain word, and every secret, named or not, has 16 characters or more', (t) => {
  t.throws(() => tokens(`:admin:${SECRET}`), { message: /name is letters, digits/ });
  t.throws(() => tokens(`two words:admin:${SECRET}`), { message: /name is letters, digits/ });
  t.throws(() => tokens('short-secret'), { message: 'every ADMIN_API_TOKENS secret must have at least 16 characters' });
  t.throws(() => tokens('prometheus:metrics:short'), { message: 'every ADMIN_API_TOKENS secret must have at least 16 characters (token prometheus)' });
});

test('ADMIN_ALLOWED_HOSTS: host names, any port, compared as a Host header is; a scheme or a port is refused at start', (t) => {
  const hosts = (value: string) => loadConfig({ ADMIN_ALLOWED_HOSTS: value }).adminAccess.allowedHosts;
  t.deepEqual(hosts('Hub.Example, admin.hub.example,[fd00::1]'), ['hub.example', 'admin.hub.example', '[fd00::1]']);
  t.deepEqual(hosts(''), []);
  t.throws(() => hosts('https://hub.example'), { message: /ADMIN_ALLOWED_HOSTS has "https:\/\/hub.example": give host names alone/ });
  t.throws(() => hosts('hub.example:3001'), { message: /without scheme or port/ });
});

test('ADMIN_ALLOWED_ORIGINS: origins as a browser sends them (scheme://host:port); a path, another scheme or * is refused at start', (t) => {
  const origins = (value: string) => loadConfig({ ADMIN_ALLOWED_ORIGINS: value }).adminAccess.allowedOrigins;
  t.deepEqual(origins('https://Ops.Example.org:8443, https://ops.example.org:443/, http://10.0.0.5'), [
    'https://ops.example.org:8443',
    'https://ops.example.org',
    'http://10.0.0.5',
  ]);
  for (const wrong of ['*', 'null', 'ops.example.org', 'https://ops.example.org/console', 'file:///tmp/page.html']) {
    t.throws(() => origins(wrong), { message: /give origins as scheme:\/\/host:port/ }, wrong);
  }
});

const ISSUER = 'https://login.example.org/realms/hub';
const oidc = (env: Record<string, string>) => loadConfig(env).adminAccess.oidc;

test('OIDC_*: without OIDC_ISSUER there is no identity provider, and a setting of one without it is refused at start', (t) => {
  t.is(oidc({}), undefined);
  t.throws(() => oidc({ OIDC_CLIENT_ID: 'hub-console', OIDC_ROLE_MAP: 'ops:operator' }), {
    message: "OIDC_CLIENT_ID, OIDC_ROLE_MAP need OIDC_ISSUER: set the identity provider's issuer, or none of them",
  });
});

test("OIDC_*: the defaults: the console's client ID is the audience, roles from `roles`, 30 s of clock skew, openid profile", (t) => {
  t.deepEqual(oidc({ OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: 'hub-console' }), {
    issuer: ISSUER,
    clientId: 'hub-console',
    audience: 'hub-console',
    resource: undefined,
    scopes: ['openid', 'profile'],
    rolesClaim: 'roles',
    roleMap: undefined,
    nameClaim: undefined,
    clockSkewSeconds: 30,
    providerName: 'login.example.org',
  });
});

test('OIDC_*: every setting as an operator writes it', (t) => {
  const config = oidc({
    OIDC_ISSUER: `${ISSUER}/`,
    OIDC_CLIENT_ID: 'hub-console',
    OIDC_AUDIENCE: 'https://hub.example.org/api',
    OIDC_RESOURCE: 'https://hub.example.org/api',
    OIDC_SCOPES: 'openid profile, hub:admin',
    OIDC_ROLES_CLAIM: 'realm_access.roles',
    OIDC_ROLE_MAP: 'hub-finance:finance, hub-ops:operator, urn:example:group:leads:operator, urn:example:group:leads:finance',
    OIDC_NAME_CLAIM: 'email',
    OIDC_CLOCK_SKEW_SECONDS: '5',
    OIDC_PROVIDER_NAME: 'Example ID',
  })!;
  t.is(config.issuer, `${ISSUER}/`, 'kept exactly, as tokens carry it');
  t.is(config.audience, 'https://hub.example.org/api');
  t.is(config.resource, 'https://hub.example.org/api');
  t.deepEqual(config.scopes, ['openid', 'profile', 'hub:admin']);
  t.is(config.rolesClaim, 'realm_access.roles');
  t.deepEqual(
    config.roleMap,
    new Map([
      ['hub-finance', ['finance']],
      ['hub-ops', ['operator']],
      ['urn:example:group:leads', ['operator', 'finance']],
    ]),
  );
  t.is(config.nameClaim, 'email');
  t.is(config.clockSkewSeconds, 5);
  t.is(config.providerName, 'Example ID');
});

test('OIDC_*: OIDC_AUDIENCE alone verifies tokens for the APIs, the console then offering no sign-in at the provider; neither is refused', (t) => {
  t.like(oidc({ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: 'hub-api' }), { clientId: undefined, audience: 'hub-api' });
  t.throws(() => oidc({ OIDC_ISSUER: ISSUER }), {
    message: /OIDC_ISSUER needs OIDC_CLIENT_ID \(the console's client at the identity provider\), or OIDC_AUDIENCE alone/,
  });
});

test('OIDC_*: bad settings are refused at start, saying what is wrong', (t) => {
  const base = { OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: 'hub-console' };
  t.throws(() => oidc({ OIDC_ISSUER: 'login.example.org' }), { message: /OIDC_ISSUER must be an https:\/\/ URL without query or fragment/ });
  t.throws(() => oidc({ OIDC_ISSUER: `${ISSUER}?tenant=1`, OIDC_CLIENT_ID: 'c' }), { message: /without query or fragment/ });
  t.throws(() => oidc({ OIDC_ISSUER: 'http://login.example.org', OIDC_CLIENT_ID: 'c' }), {
    message: /OIDC_ISSUER must be https:\/\/ \(tokens and keys would travel in the clear\)/,
  });
  t.is(oidc({ OIDC_ISSUER: 'http://127.0.0.1:8080', OIDC_CLIENT_ID: 'c' })!.issuer, 'http://127.0.0.1:8080', 'http on loopback, as tests and a laptop run it');
  t.is(oidc({ OIDC_ISSUER: 'http://localhost:8080/realms/hub', OIDC_CLIENT_ID: 'c' })!.providerName, 'localhost:8080');
  t.throws(() => oidc({ ...base, OIDC_ROLE_MAP: 'hub-finance=finance' }), {
    message: 'an OIDC_ROLE_MAP entry is value:role (hub-finance:finance), got "hub-finance=finance"',
  });
  t.throws(() => oidc({ ...base, OIDC_ROLE_MAP: ':finance' }), { message: /an OIDC_ROLE_MAP entry is value:role/ });
  t.throws(() => oidc({ ...base, OIDC_ROLE_MAP: 'hub-finance:treasurer' }), {
    message: 'an OIDC_ROLE_MAP role is one of viewer, operator, finance, admin, metrics, got "treasurer" (for hub-finance)',
  });
  t.throws(() => oidc({ ...base, OIDC_ROLES_CLAIM: 'realm_access..roles' }), { message: /OIDC_ROLES_CLAIM is a claim's name or a dotted path/ });
  t.throws(() => oidc({ ...base, OIDC_NAME_CLAIM: 'preferred username' }), { message: /OIDC_NAME_CLAIM is a claim's name/ });
  t.throws(() => oidc({ ...base, OIDC_CLOCK_SKEW_SECONDS: '600' }), { message: /OIDC_CLOCK_SKEW_SECONDS is at most 300/ });
  t.throws(() => oidc({ ...base, OIDC_CLOCK_SKEW_SECONDS: '-1' }), { message: /OIDC_CLOCK_SKEW_SECONDS must be a non-negative integer/ });
  t.throws(() => oidc({ ...base, OIDC_RESOURCE: 'hub-api' }), { message: /OIDC_RESOURCE is a resource indicator, an absolute URI/ });
});

test('OIDC_ISSUER is a credential of the admin API: with it, a hub beyond loopback may start', (t) => {
  const beyond = { HOST: '0.0.0.0', SWITCH_ALLOW_UNAUTHENTICATED: 'true' };
  t.regex(exposureProblem(loadConfig(beyond))!, /must require authentication: set ADMIN_API_TOKENS .* or OIDC_ISSUER \(an identity provider's access tokens\)/);
  t.is(exposureProblem(loadConfig({ ...beyond, OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: 'hub-console' })), undefined);
});

test('LEDGER_CHECK_INTERVAL: 5 minutes unless set; a duration that is none, or under a second, is refused at start', (t) => {
  t.is(loadConfig({}).ledgerCheckInterval, '5 minutes');
  t.is(loadConfig({ LEDGER_CHECK_INTERVAL: '30s' }).ledgerCheckInterval, '30s');
  t.throws(() => loadConfig({ LEDGER_CHECK_INTERVAL: 'every five minutes' }), { message: /LEDGER_CHECK_INTERVAL must be a duration such as "5 minutes"/ });
  t.throws(() => loadConfig({ LEDGER_CHECK_INTERVAL: '10ms' }), { message: /LEDGER_CHECK_INTERVAL must be a second or more/ });
});

test('API_TYPE: FSPIOP unless set to iso20022; anything else is refused at start', (t) => {
  t.is(loadConfig({}).apiType, 'fspiop');
  t.is(loadConfig({ API_TYPE: 'iso20022' }).apiType, 'iso20022');
  t.throws(() => loadConfig({ API_TYPE: 'iso' }), { message: 'API_TYPE must be fspiop or iso20022, got "iso"' });
});
