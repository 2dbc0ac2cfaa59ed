import test from 'ava';
import { claimAt, looksLikeJwt, nameFrom, rolesFrom } from '../../../../api/admin/access/accessTokens';

// How an access token's claims become a caller: the roles claim (by name or dotted path), through OIDC_ROLE_MAP or by
// hub role names, and the name the audit trail gives.

test('the roles claim is found by its very name first (Auth0 namespaces claims with URLs), else as a dotted path into objects', (t) => {
  const payload = { 'https://hub.example.org/roles': ['finance'], realm_access: { roles: ['operator'] }, groups: 'admin' };
  t.deepEqual(claimAt(payload, 'https://hub.example.org/roles'), ['finance']);
  t.deepEqual(claimAt({ realm_access: { roles: ['operator'] } }, 'realm_access.roles'), ['operator']);
  t.is(claimAt(payload, 'realm_access.roles.more'), undefined);
  t.is(claimAt(payload, 'resource_access.hub.roles'), undefined);
  t.is(claimAt({ a: { constructor: 'x' } }, 'a.toString'), undefined, 'only the claims own properties, nothing inherited');
});

test('without OIDC_ROLE_MAP a value that is a hub role is that role; with it, only what it maps, each value to its roles', (t) => {
  t.deepEqual(rolesFrom(['viewer', 'offline_access', 'finance']), ['viewer', 'finance']);
  t.deepEqual(rolesFrom('operator'), ['operator'], 'one string is one value');
  t.deepEqual(rolesFrom(['Admin', 'admins', 7, null, { admin: true }]), [], 'names match exactly, and anything but strings is ignored');
  t.deepEqual(rolesFrom(undefined), []);
  const map = new Map([
    ['/hub/treasury', ['finance' as const]],
    ['/hub/leads', ['operator' as const, 'finance' as const]],
  ]);
  t.deepEqual(rolesFrom(['/hub/leads', '/hub/treasury', 'admin'], map), ['operator', 'finance'], 'a hub role name alone counts for nothing with a map');
  t.deepEqual(rolesFrom(['constructor', '__proto__'], map), []);
});

test('the name: OIDC_NAME_CLAIM, else preferred_username or email; then the subject, then the client', (t) => {
  t.is(nameFrom({ preferred_username: 'olu', email: 'olu@example.org', sub: '1f3a' }), 'olu');
  t.is(nameFrom({ email: 'olu@example.org', sub: '1f3a' }), 'olu@example.org');
  t.is(nameFrom({ sub: '1f3a', client_id: 'bot' }), '1f3a');
  t.is(nameFrom({ client_id: 'bot' }), 'bot');
  t.is(nameFrom({ upn: 'olu@corp.example', preferred_username: 'olu' }, 'upn'), 'olu@corp.example');
  t.is(nameFrom({ preferred_username: 'olu', sub: '1f3a' }, 'upn'), '1f3a', 'a configured claim that is missing falls to the subject');
  t.is(nameFrom({ preferred_username: 'a\u0000b', sub: '1f3a' }), '1f3a', 'no control characters');
  t.is(nameFrom({ preferred_username: 'x'.repeat(201), sub: '1f3a' }), '1f3a', 'nothing too long');
  t.is(nameFrom({}), undefined);
});

test('a bearer is taken for an access token when it is a compact JWS: three base64url parts', (t) => {
  t.true(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln'));
  t.false(looksLikeJwt('a3f1c9e07b2d4e6f8a0b1c2d3e4f5a6b'));
  t.false(looksLikeJwt('a.b'));
  t.false(looksLikeJwt('a.b.c.d.e'), 'an encrypted token (JWE) is not read');
  t.false(looksLikeJwt('a.b.'), 'an unsigned one neither');
});
