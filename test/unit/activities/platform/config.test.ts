import test from 'ava';
import { loadConfig } from '../../../../activities/platform/config';

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
