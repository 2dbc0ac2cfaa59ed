import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { exposureProblem, loadConfig, repoRoot } from '../../activities/shared/platform/config';
import { gatewayTls } from '../../api/http/serve';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { TestCa } from '../helpers/certificates';
import { uniqueName } from '../helpers/database';
import { answerBody, httpsRequest, jsonOrUndefined } from '../helpers/http';

const TOKEN = 'operator-token-0123456789abcdef';
const SECOND_TOKEN = 'automation-token-fedcba9876543210';
const METRICS_TOKEN = 'scrape-token-00112233445566778899';

let withTokens: AdminHarness;
let adminCa: TestCa;
let strangerCa: TestCa;
let withCertificates: AdminHarness;

test.before(async () => {
  // The settings of an admin API bound beyond loopback, as an operator would give them.
  withTokens = await startAdmin(undefined, {
    access: loadConfig({ HOST: '0.0.0.0', ADMIN_API_TOKENS: `${TOKEN}, ${SECOND_TOKEN}, prometheus:metrics:${METRICS_TOKEN}` }).adminAccess,
  });
  adminCa = await TestCa.create('admin-ca');
  strangerCa = await TestCa.create('stranger-ca');
  const server = await adminCa.server('admin');
  withCertificates = await startAdmin(undefined, {
    access: { tokens: [], clientCaPath: adminCa.certPath },
    tls: gatewayTls({ server }, adminCa.certPath, 'checked by the gateway'),
  });
});

test.after.always(async () => {
  await withTokens?.close();
  await withCertificates?.close();
  adminCa?.remove();
  strangerCa?.remove();
});

async function call(method: string, urlPath: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await fetch(`${withTokens.url}${urlPath}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await answerBody(response)) as any };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

test('bound beyond loopback with neither tokens nor a client CA, the hub refuses to start and says what to set', (t) => {
  t.regex(exposureProblem(loadConfig({ HOST: '0.0.0.0' }))!, /HOST 0\.0\.0\.0 is beyond loopback.*ADMIN_API_TOKENS.*ADMIN_CLIENT_CA_PATH/);
  const gateway = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'api', 'main.js')], {
    env: { PATH: process.env.PATH, HOST: '10.1.2.3' },
    encoding: 'utf-8',
    timeout: 30_000,
  });
  t.is(gateway.status, 1);
  t.regex(gateway.stderr, /HOST 10\.1\.2\.3 is beyond loopback, so the admin API must require authentication/);
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) t.is(exposureProblem(loadConfig({ HOST: host })), undefined, `${host} is loopback`);
});

/** The gateway process's output, started with `env`, until it exits (here: it finds no Temporal at 127.0.0.1:1). */
function gatewayOutput(env: Record<string, string>): string {
  const database = path.join(os.tmpdir(), `hub-warning-${crypto.randomUUID()}.sqlite`);
  try {
    const gateway = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'api', 'main.js')], {
      env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${database}`, TEMPORAL_ADDRESS: '127.0.0.1:1', ...env },
      encoding: 'utf-8',
      timeout: 60_000,
    });
    return gateway.stdout + gateway.stderr;
  } finally {
    for (const file of fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(path.basename(database)))) fs.rmSync(path.join(os.tmpdir(), file));
  }
}

test('a bare secret in ADMIN_API_TOKENS is still accepted, as an unnamed admin, and the gateway warns of it at start', (t) => {
  const warning = /"unnamedTokens":1,"msg":"ADMIN_API_TOKENS has secrets without a name/;
  t.regex(gatewayOutput({ ADMIN_API_TOKENS: `${TOKEN},ops:viewer:${SECOND_TOKEN}` }), warning);
  const named = gatewayOutput({ ADMIN_API_TOKENS: `ops:admin:${TOKEN}` });
  t.regex(named, /Failed to connect/, 'the gateway got as far as Temporal');
  t.notRegex(named, /without a name/);
});

test('bound beyond loopback, the switch must know who sends every message: client certificates, or an explicit statement that a trusted network does', async (t) => {
  const admin = { HOST: '0.0.0.0', ADMIN_API_TOKENS: TOKEN };
  t.regex(exposureProblem(loadConfig(admin))!, /the switch must know who sends every message: set SWITCH_CLIENT_CA_PATH/);
  t.regex(
    exposureProblem(loadConfig({ ...admin, JWS_VALIDATE: 'true' }))!,
    /JWS_VALIDATE=true binds only messages with a body/,
    'signatures alone leave a GET or DELETE unbound to its sender',
  );
  t.is(exposureProblem(loadConfig({ ...admin, SWITCH_ALLOW_UNAUTHENTICATED: 'true' })), undefined);
  const server = await adminCa.server('hub');
  const mutualTls = { TLS_CERT_PATH: server.certPath, TLS_KEY_PATH: server.keyPath, SWITCH_CLIENT_CA_PATH: strangerCa.certPath };
  t.is(exposureProblem(loadConfig({ ...admin, ...mutualTls })), undefined);
  t.is(exposureProblem(loadConfig({ ...admin, ...mutualTls, JWS_VALIDATE: 'true' })), undefined);
});

test("an admin CA that is the participants' CA is refused: every DFSP's certificate would open the admin API", async (t) => {
  const server = await adminCa.server('hub');
  const tlsEnv = { TLS_CERT_PATH: server.certPath, TLS_KEY_PATH: server.keyPath, SWITCH_CLIENT_CA_PATH: adminCa.certPath };
  t.regex(exposureProblem(loadConfig({ ...tlsEnv, ADMIN_CLIENT_CA_PATH: adminCa.certPath }))!, /is the participants' CA/);
  t.is(exposureProblem(loadConfig({ ...tlsEnv, ADMIN_CLIENT_CA_PATH: strangerCa.certPath })), undefined);
});

test('a token short enough to be guessed is refused at start', (t) => {
  t.throws(() => loadConfig({ HOST: '0.0.0.0', ADMIN_API_TOKENS: 'secret' }), { message: /at least 16 characters/ });
});

test('a request without credentials is 401 Unauthorized with a Bearer challenge and ErrorInformation, and changes nothing', async (t) => {
  const name = uniqueName();
  const created = await call('POST', '/participants', {}, { name, currency: 'USD' });
  t.is(created.status, 401);
  t.is(created.headers.get('www-authenticate'), 'Bearer realm="hub-admin"');
  t.is(created.body.errorInformation.errorCode, '3000');
  t.regex(created.body.errorInformation.errorDescription, /^Generic client error - Unauthorized: authentication required \(a bearer token\)$/);
  t.is((await call('GET', `/participants/${name}`, bearer(TOKEN))).status, 400, 'the participant was not created (400, 3200)');
  t.is(
    (await call('GET', '/participants', { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` })).status,
    401,
    'only Bearer is a scheme the API takes',
  );
  t.is((await call('DELETE', '/participants')).status, 401, 'authentication comes before anything else is said about a request');
});

test('a wrong bearer token is 403 Forbidden with ErrorInformation', async (t) => {
  const refused = await call('GET', '/participants', bearer(`${TOKEN}x`));
  t.is(refused.status, 403);
  t.is(refused.body.errorInformation.errorCode, '3000');
  t.regex(refused.body.errorInformation.errorDescription, /Forbidden: the bearer token is not one this hub accepts/);
});

test('each configured bearer token is accepted', async (t) => {
  t.is((await call('GET', '/participants', bearer(TOKEN))).status, 200);
  t.is((await call('GET', '/participants', bearer(SECOND_TOKEN))).status, 200);
  t.is((await call('POST', '/participants', bearer(TOKEN), { name: uniqueName(), currency: 'USD' })).status, 200);
});

test('/health stays open for probes, /metrics needs credentials', async (t) => {
  t.is((await call('GET', '/health')).status, 200);
  t.is((await call('GET', '/metrics')).status, 401);
  t.is((await call('GET', '/metrics', bearer(TOKEN))).status, 200);
});

test('a metrics token reads /metrics and nothing else: anything more is 403 Forbidden naming its role, and changes nothing', async (t) => {
  t.is((await call('GET', '/metrics', bearer(METRICS_TOKEN))).status, 200);
  t.is((await call('GET', '/health', bearer(METRICS_TOKEN))).status, 200);
  const read = await call('GET', '/participants', bearer(METRICS_TOKEN));
  t.is(read.status, 403);
  t.deepEqual(read.body.errorInformation, {
    errorCode: '3000',
    errorDescription: 'Generic client error - Forbidden: prometheus has role metrics, which does not allow reading the scheme',
  });
  const name = uniqueName();
  t.is((await call('POST', '/participants', bearer(METRICS_TOKEN), { name, currency: 'USD' })).status, 403);
  t.is((await call('GET', `/participants/${name}`, bearer(TOKEN))).status, 400, 'the participant was not created (400, 3200)');
  t.is((await call('GET', '/console/settings', bearer(METRICS_TOKEN))).status, 403);
});

test("with ADMIN_CLIENT_CA_PATH an operator's client certificate is accepted; none is 401, one the admin CA did not sign is 403", async (t) => {
  const ask = async (client: { cert: string; key: string } | undefined) => {
    const answer = await httpsRequest(`${withCertificates.url}/participants`, { method: 'GET', tls: { ca: adminCa.cert, ...client } });
    return { status: answer.status, body: jsonOrUndefined(answer.text) };
  };
  t.is((await ask(await adminCa.client('operator'))).status, 200);
  const none = await ask(undefined);
  t.is(none.status, 401);
  t.regex(none.body.errorInformation.errorDescription, /authentication required \(a client certificate\)/);
  const stranger = await ask(await strangerCa.client('operator'));
  t.is(stranger.status, 403);
  t.regex(stranger.body.errorInformation.errorDescription, /the client certificate is not one the admin CA signed/);
});
