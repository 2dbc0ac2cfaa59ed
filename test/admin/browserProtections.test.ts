import crypto from 'node:crypto';
import test from 'ava';
import { loadConfig } from '../../activities/shared/platform/config';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { httpRequest, jsonOrUndefined } from '../helpers/http';
import { connectClient, WorkerHarness } from '../helpers/worker';

// What keeps the pages of other sites, open in the operator's browser, away from the admin API: the browser sends
// such a page's requests with whatever it holds (a client certificate), and on loopback none is needed at all.

const ALLOWED_ORIGIN = 'https://ops.example.org:8443';

let open: AdminHarness;
let allowing: AdminHarness;
let temporal: WorkerHarness;

test.before(async () => {
  temporal = await connectClient(`browser-protections-${crypto.randomUUID()}`);
  // As the hub runs by default, on loopback without credentials; with Mojaloop's settlement API under /v2.
  open = await startAdmin(undefined, { access: loadConfig({}).adminAccess, temporal });
  allowing = await startAdmin(open.services, {
    access: loadConfig({ ADMIN_ALLOWED_HOSTS: 'hub.example, admin.hub.example', ADMIN_ALLOWED_ORIGINS: ALLOWED_ORIGIN }).adminAccess,
  });
});

test.after.always(async () => {
  await allowing?.close();
  await open?.close();
  await temporal?.close();
});

/** A request as a browser (or a script) sends it, each header as given. */
async function send(admin: AdminHarness, method: string, urlPath: string, headers: Record<string, string>, body?: unknown) {
  const answer = await httpRequest(`${admin.url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: answer.status, headers: answer.headers, body: jsonOrUndefined(answer.text) };
}

const fundsIn = (amount: string) => ({
  transferId: crypto.randomUUID(),
  externalReference: 'bank-ref-1',
  action: 'recordFundsIn',
  reason: 'deposit',
  amount: { amount, currency: 'USD' },
});

async function dfspSettlementAccount() {
  const name = uniqueName();
  const { body } = await open.call('POST', '/participants', { name, currency: 'USD' });
  const settlement = body.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT').id as number;
  const balance = async () => (await open.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.id === settlement).value;
  return { path: `/participants/${name}/accounts/${settlement}`, balance };
}

test("funds in posted as text/plain by another site's page is refused 403, and the settlement balance does not move", async (t) => {
  const account = await dfspSettlementAccount();
  const refused = await send(open, 'POST', account.path, { origin: 'https://evil.example', 'content-type': 'text/plain' }, fundsIn('1000'));
  t.is(refused.status, 403);
  t.deepEqual(refused.body.errorInformation, {
    errorCode: '3000',
    errorDescription: 'Generic client error - Forbidden: a page of https://evil.example may not call the admin API',
  });
  t.is(await account.balance(), 0);
});

test('a POST or PUT whose body is not declared application/json is 415 with 3101 and changes nothing; JSON with charset=utf-8 is taken', async (t) => {
  const account = await dfspSettlementAccount();
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=iso-8859-1']) {
    const refused = await send(open, 'POST', account.path, { 'content-type': type }, fundsIn('1000'));
    t.is(refused.status, 415, type);
    t.deepEqual(refused.body.errorInformation, {
      errorCode: '3101',
      errorDescription: `Malformed syntax - Content-Type must be application/json, not ${type}`,
    });
  }
  t.is((await send(open, 'POST', account.path, {}, fundsIn('1000'))).status, 415, 'no Content-Type at all');
  t.is((await send(open, 'PUT', `/participants/${uniqueName()}`, { 'content-type': 'text/plain' }, { isActive: false })).status, 415);
  t.is(await account.balance(), 0);
  const taken = await send(open, 'POST', account.path, { 'content-type': 'application/json; charset=utf-8', origin: open.url }, fundsIn('1000'));
  t.is(taken.status, 202, "the console's own origin, and central-ledger's clients' JSON");
  t.is(await account.balance(), -1000);
});

test("Mojaloop's settlement API under /v2 is guarded the same way", async (t) => {
  const close = { state: 'CLOSED', reason: 'end of day' };
  t.is((await send(open, 'POST', '/v2/settlementWindows/999999999', { 'content-type': 'text/plain' }, close)).status, 415);
  const foreign = await send(open, 'POST', '/v2/settlementWindows/999999999', { 'content-type': 'application/json', origin: 'https://evil.example' }, close);
  t.is(foreign.status, 403);
  t.is(foreign.body.errorInformation.errorCode, '3000');
});

test('another origin is refused on reads too, an opaque one (null) included; the own origin and ADMIN_ALLOWED_ORIGINS are not', async (t) => {
  for (const origin of ['https://evil.example', 'null', 'http://localhost:1']) {
    t.is((await send(open, 'GET', '/participants', { origin })).status, 403, origin);
  }
  t.is((await send(open, 'GET', '/participants', { origin: open.url })).status, 200);
  t.is((await send(allowing, 'GET', '/participants', { origin: ALLOWED_ORIGIN })).status, 200);
  t.is(
    (await send(allowing, 'POST', '/participants', { origin: ALLOWED_ORIGIN, 'content-type': 'application/json' }, { name: uniqueName(), currency: 'USD' }))
      .status,
    200,
  );
  t.is((await send(open, 'GET', '/participants', { origin: ALLOWED_ORIGIN })).status, 403, 'allowed only where configured');
});

test("without Origin, what the browser marks as another site's request is refused unless it is a navigation (a link to the console)", async (t) => {
  const crossSite = (mode: string) => ({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': mode });
  t.is((await send(open, 'GET', '/participants', crossSite('no-cors'))).status, 403, "another site's <script src> or <img src>");
  t.is((await send(open, 'GET', '/console', crossSite('navigate'))).status, 200);
  t.is((await send(open, 'GET', '/participants', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status, 200);
});

test('the admin API answers to localhost and IP addresses only, and the names ADMIN_ALLOWED_HOSTS adds: a rebound name is 421', async (t) => {
  const port = new URL(open.url).port;
  const rebound = await send(open, 'GET', '/participants', { host: `rebind.evil.example:${port}` });
  t.is(rebound.status, 421);
  t.deepEqual(rebound.body.errorInformation, {
    errorCode: '3000',
    errorDescription: `Generic client error - Misdirected request: the admin API does not answer to host rebind.evil.example:${port}`,
  });
  t.is((await send(open, 'GET', '/health', { host: 'rebind.evil.example' })).status, 421);
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', '10.1.2.3:3001', '[fd00::1]:3001']) {
    t.is((await send(open, 'GET', '/participants', { host })).status, 200, host);
  }
  t.is((await send(open, 'GET', '/health', { host: '10.244.1.7:3001' })).status, 200, "an orchestrator's probe by the pod's address");
  t.is((await send(open, 'GET', '/participants', { host: 'hub.example' })).status, 421);
  t.is((await send(allowing, 'GET', '/participants', { host: `hub.example:${port}` })).status, 200);
  t.is((await send(allowing, 'GET', '/participants', { host: 'Admin.Hub.Example' })).status, 200);
  t.is((await send(allowing, 'GET', '/participants', { host: 'evil.hub.example' })).status, 421);
});

test('every answer, the console and errors included, forbids framing, sniffing and referrers, and allows the page only its own files', async (t) => {
  for (const urlPath of ['/console', '/participants', '/no/such/path']) {
    const { headers } = await send(open, 'GET', urlPath, {});
    t.is(headers['content-security-policy'], "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'", urlPath);
    t.is(headers['x-frame-options'], 'DENY', urlPath);
    t.is(headers['x-content-type-options'], 'nosniff', urlPath);
    t.is(headers['referrer-policy'], 'no-referrer', urlPath);
  }
  const refused = await send(open, 'GET', '/participants', { host: 'rebind.evil.example' });
  t.is(refused.headers['x-frame-options'], 'DENY', 'a refusal too');
});
