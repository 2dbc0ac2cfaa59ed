import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import test from 'ava';
import Koa from 'koa';
import pino from 'pino';
import { serve } from '../../api/http/serve';
import { openHubServices, type HubServices } from '../../activities/hub/hubServices';
import { AuditTrail } from '../../activities/hub/audit/auditTrail';
import { AuditEntryRecord } from '../../activities/hub/db/auditEntities';
import { loadConfig } from '../../activities/shared/platform/config';
import type { EntityManager } from 'typeorm';
import type { AuditEntry, AuditPage, AuditVerification } from '../../activities/shared/contracts/audit';
import { entryHash } from '../../activities/hub/audit/auditChain';
import type { Database } from '../../activities/hub/db/database';
import { RefusalShare, REFUSALS_PER_MINUTE } from '../../api/admin/audit/refusalShare';
import { auditRecorder } from '../../api/admin/audit/recorder';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { testDatabaseUrl, uniqueName } from '../helpers/database';
import { answerBody } from '../helpers/http';

// The audit trail as an auditor relies on it: every change and every refused attempt is there, with who, what, when,
// from where and the outcome, and an edit or deletion made in the database behind the hub's back is found. Serial: some
// tests count what one admin API recorded.

const SECRET = crypto.randomBytes(12).toString('hex');
const TOKENS = [`alice:operator:operator-${SECRET}`, `vera:viewer:viewer-${SECRET}`, `ada:admin:admin-${SECRET}`].join(',');
const databaseUrl = testDatabaseUrl();

let services: HubServices;
let admin: AdminHarness;

test.before(async () => {
  services = await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME });
  admin = await startAdmin(services, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS }).adminAccess });
});

test.after.always(async () => {
  await admin?.close();
  await services?.db.close();
});

async function callAs(role: string | undefined, method: string, path: string, body?: unknown, harness = admin) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(`${harness.url}${path}`, {
    method,
    headers: {
      'user-agent': 'audit-test/1.0',
      ...(role ? { authorization: `Bearer ${role}-${SECRET}` } : {}),
      ...(text === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: text,
  });
  return { status: response.status, body: (await answerBody(response)) as any, text };
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The newest entries whose target is `path` (the trail is shared with other test files on MariaDB). */
async function entriesAt(path: string): Promise<AuditEntry[]> {
  const page = (await callAs('admin', 'GET', `/audit?limit=1000`)).body as AuditPage;
  return page.entries.filter((entry) => entry.target === path);
}

async function participant(): Promise<string> {
  const name = uniqueName();
  await callAs('admin', 'POST', '/participants', { name, currency: 'USD' });
  await callAs('admin', 'POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 1000 },
    initialPosition: 0,
  });
  return name;
}

test.serial('a change is recorded with who made it, what it changed from and to, a digest of its body, when, from where and its outcome', async (t) => {
  const name = await participant();
  const started = Date.now();
  const change = await callAs('operator', 'PUT', `/participants/${name}/limits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 2500, alarmPercentage: 10 },
  });
  t.is(change.status, 200);
  const [entry] = await entriesAt(`/participants/${name}/limits`);
  t.like(entry, {
    actor: 'alice',
    roles: ['operator'],
    credential: 'token',
    action: 'limits.set',
    method: 'PUT',
    route: '/participants/:name/limits',
    permission: 'limits',
    bodyDigest: sha256(change.text!),
    status: 200,
    errorCode: null,
    address: '127.0.0.1',
    userAgent: 'audit-test/1.0',
  });
  t.deepEqual(entry.before, [{ currency: 'USD', type: 'NET_DEBIT_CAP', value: '1000', alarmPercentage: '10' }]);
  t.deepEqual(entry.after, [{ currency: 'USD', type: 'NET_DEBIT_CAP', value: '2500', alarmPercentage: '10' }]);
  t.true(Math.abs(Date.parse(entry.at) - started) < 5_000);
  t.false(Object.values(entry).includes(change.text), 'the body itself is not kept, only its digest');

  // A new participant starts inactive (NEW_PARTICIPANTS_ACTIVE).
  t.is((await callAs('operator', 'PUT', `/participants/${name}`, { isActive: true })).status, 200);
  const [activation] = await entriesAt(`/participants/${name}`);
  t.like(activation, { action: 'participant.activation', before: { isActive: false }, after: { isActive: true } });
});

test.serial('reads are not recorded; a failed change is, with its status and FSPIOP error code', async (t) => {
  const name = await participant();
  t.is((await callAs('operator', 'GET', `/participants/${name}/limits`)).status, 200);
  t.deepEqual(await entriesAt(`/participants/${name}/limits`), []);
  const failed = await callAs('operator', 'PUT', `/participants/${name}/limits`, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: -5 } });
  t.is(failed.status, 400);
  const [entry] = await entriesAt(`/participants/${name}/limits`);
  t.like(entry, { actor: 'alice', action: 'limits.set', status: 400, errorCode: failed.body.errorInformation.errorCode, after: null });
});

test.serial(
  'refused attempts are recorded, of any method: without a credential, with a wrong one (never the token itself), and with a role that does not allow it',
  async (t) => {
    const name = await participant();
    const path = `/participants/${name}/endpoints`;
    const endpoint = { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: 'http://attacker.example/transfers' };
    t.is((await callAs(undefined, 'POST', path, endpoint)).status, 401);
    t.is((await callAs('intruder', 'POST', path, endpoint)).status, 403);
    t.is((await callAs('viewer', 'POST', path, endpoint)).status, 403);
    t.is((await callAs(undefined, 'GET', path)).status, 401);
    const entries = await entriesAt(path);
    t.deepEqual(
      entries.map(({ actor, method, status, errorCode, action, permission }) => ({ actor, method, status, errorCode, action, permission })).reverse(),
      [
        { actor: null, method: 'POST', status: 401, errorCode: '3000', action: 'endpoint.set', permission: 'endpoints' },
        { actor: null, method: 'POST', status: 403, errorCode: '3000', action: 'endpoint.set', permission: 'endpoints' },
        { actor: 'vera', method: 'POST', status: 403, errorCode: '3000', action: 'endpoint.set', permission: 'endpoints' },
        { actor: null, method: 'GET', status: 401, errorCode: '3000', action: 'GET /participants/:name/endpoints', permission: 'read' },
      ],
    );
    t.false(JSON.stringify(entries).includes(SECRET), 'no bearer value is kept');
    t.deepEqual((await callAs('admin', 'GET', path)).body, [], 'and nothing was changed');
  },
);

test.serial('GET /audit finds entries by actor, action and time, newest first, a page at a time; a bad parameter is 400 (3101)', async (t) => {
  const from = new Date(Date.now() - 1).toISOString();
  const names = [await participant(), await participant(), await participant()];
  for (const name of names) await callAs('operator', 'PUT', `/participants/${name}`, { isActive: false });
  const to = new Date(Date.now() + 1).toISOString();
  const query = `actor=alice&action=participant.activation&fromDateTime=${from}&toDateTime=${to}`;
  const first = (await callAs('viewer', 'GET', `/audit?${query}&limit=2`)).body as AuditPage;
  t.deepEqual(
    first.entries.map((entry) => entry.target),
    [`/participants/${names[2]}`, `/participants/${names[1]}`],
  );
  t.truthy(first.nextCursor);
  const second = (await callAs('viewer', 'GET', `/audit?${query}&limit=2&cursor=${first.nextCursor}`)).body as AuditPage;
  t.deepEqual(
    second.entries.map((entry) => entry.target),
    [`/participants/${names[0]}`],
  );
  t.is(second.nextCursor, undefined);
  const before = (await callAs('viewer', 'GET', `/audit?action=participant.activation&toDateTime=${from}&actor=alice`)).body as AuditPage;
  t.false(before.entries.some((entry) => names.some((name) => entry.target === `/participants/${name}`)));

  for (const bad of ['fromDateTime=yesterday', 'limit=0', 'limit=1001', 'cursor=abc', 'actor=a&actor=b', 'format=xml']) {
    const answer = await callAs('viewer', 'GET', `/audit?${bad}`);
    t.is(answer.status, 400, bad);
    t.is(answer.body.errorInformation.errorCode, '3101', bad);
  }
  t.is((await callAs('intruder', 'GET', '/audit')).status, 403);
});

test.serial('the CSV export holds every entry of the search, its cells neutralised against formulas', async (t) => {
  const name = await participant();
  await callAs('operator', 'POST', `/participants/${name}/endpoints`, { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: 'http://dfsp.example/t' });
  const csv = await fetch(`${admin.url}/audit?format=csv&action=endpoint.set&actor=alice`, { headers: { authorization: `Bearer viewer-${SECRET}` } });
  t.is(csv.status, 200);
  t.regex(csv.headers.get('content-type')!, /^text\/csv/);
  const lines = (await csv.text()).split('\r\n');
  t.true(lines[0].startsWith('sequence,at,actor,roles,credential,action,method,route,target'));
  t.true(lines.some((line) => line.includes(`/participants/${name}/endpoints`) && line.includes('alice')));
  // A user agent is the caller's to choose: one that starts a formula is shown as text.
  await fetch(`${admin.url}/participants/${name}`, {
    method: 'PUT',
    headers: { authorization: `Bearer operator-${SECRET}`, 'content-type': 'application/json', 'user-agent': '=HYPERLINK("http://evil.example")' },
    body: JSON.stringify({ isActive: true }),
  });
  const exported = await (
    await fetch(`${admin.url}/audit?format=csv&actor=alice&action=participant.activation`, { headers: { authorization: `Bearer viewer-${SECRET}` } })
  ).text();
  t.true(exported.includes(`"'=HYPERLINK(""http://evil.example"")"`));
});

const ROLLED_BACK = new Error('rolled back');

/**
 * Verifies the trail as it stands once `tamper` has changed the database behind the hub's back, in one transaction
 * that is then rolled back: on a database other test files share (MariaDB), no one else ever sees the chain broken.
 */
async function verifiedAfter(tamper: (manager: EntityManager) => Promise<unknown>): Promise<AuditVerification> {
  let verdict: AuditVerification | undefined;
  await services.db
    .transaction(async (manager) => {
      await tamper(manager);
      // The trail as this transaction sees it.
      const seeing = { isMysql: services.db.isMysql, read: (work: Work) => work(manager), transaction: (work: Work) => work(manager) };
      verdict = await new AuditTrail(seeing as unknown as Database).verify();
      throw ROLLED_BACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLED_BACK) throw error;
    });
  return verdict!;
}
type Work = (manager: EntityManager) => Promise<unknown>;

test.serial('GET /audit/verify finds the chain intact; a row edited in the database, or deleted, breaks it at that entry', async (t) => {
  const name = await participant();
  await callAs('operator', 'PUT', `/participants/${name}/limits`, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 10, alarmPercentage: 10 } });
  const [entry] = await entriesAt(`/participants/${name}/limits`);
  // An entry after it, so that it is not the last (the head's own check is the next test's).
  const next = await services.audit.append({ action: 'test.marker' });
  const intact = (await callAs('viewer', 'GET', '/audit/verify')).body;
  t.true(intact.ok);
  t.true(intact.entries >= next.sequence);

  // Someone with the database's password makes the raised limit look like a refused attempt…
  t.deepEqual(await verifiedAfter((manager) => manager.query('UPDATE audit_entry SET status = 403 WHERE sequence = ?', [entry.sequence])), {
    ok: false,
    entries: entry.sequence - 1,
    brokenAt: { sequence: entry.sequence, reason: 'its content does not give its hash: it was edited' },
  });
  // …or removes it…
  t.deepEqual(await verifiedAfter((manager) => manager.query('DELETE FROM audit_entry WHERE sequence = ?', [entry.sequence])), {
    ok: false,
    entries: entry.sequence - 1,
    brokenAt: { sequence: entry.sequence, reason: `missing: entry ${entry.sequence} is not in the trail (deleted)` },
  });
  // …or edits it and gives it the hash of its new content: the entry after it still names the old one.
  const rehashed = await verifiedAfter(async (manager) => {
    const row = await manager.findOneByOrFail(AuditEntryRecord, { sequence: entry.sequence });
    const { hash: _hash, ...fields } = { ...row, status: 403 };
    await manager.update(AuditEntryRecord, { sequence: entry.sequence }, { status: 403, hash: entryHash(fields) });
  });
  t.like(rehashed, { ok: false, entries: entry.sequence, brokenAt: { sequence: entry.sequence + 1 } });
  t.true((await callAs('viewer', 'GET', '/audit/verify')).body.ok, 'and no one else saw any of it');
});

test.serial('the most recent entry removed is found missing too: the head records how many there are', async (t) => {
  const last = await services.audit.append({ action: 'test.marker' });
  const verdict = await verifiedAfter((manager) => manager.query('DELETE FROM audit_entry WHERE sequence = ?', [last.sequence]));
  t.false(verdict.ok);
  t.like(verdict, { brokenAt: { sequence: last.sequence } });
  t.regex((verdict as { brokenAt: { reason: string } }).brokenAt.reason, /^missing/);
});

/** Another process appending `count` entries at once; the sequences it got. */
function appendElsewhere(action: string, count: number, startAt: number): Promise<number[]> {
  const script = path.join(__dirname, '..', 'helpers', 'auditAppender.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, databaseUrl, action, String(count), String(startAt)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    );
  });
}

test.serial('appends from several processes at once never fork the chain: each gets the next sequence', async (t) => {
  const action = `test.concurrent.${crypto.randomUUID()}`;
  // Both start at one moment, once the other process has had time to connect.
  const startAt = Date.now() + 2_000;
  const [others, ours] = await Promise.all([
    appendElsewhere(action, 40, startAt),
    new Promise((resolve) => setTimeout(resolve, startAt - Date.now())).then(() =>
      Promise.all(Array.from({ length: 40 }, (_, i) => services.audit.append({ action, detail: `ours ${i}` }))),
    ),
  ]);
  const sequences = [...others, ...ours.map((entry) => entry.sequence)];
  t.is(new Set(sequences).size, 80, 'no two appends got the same place');
  const verdict = await services.audit.verify();
  t.true(verdict.ok, JSON.stringify(verdict));
  const found = (await services.audit.search({ action, limit: 100 })).entries;
  t.is(found.length, 80);
});

test.serial('refused attempts without a credential are recorded up to a share a minute; the rest are counted', async (t) => {
  // An admin API of its own, so that only this test's refusals count against its share.
  const own = await startAdmin(services, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS }).adminAccess });
  try {
    let path = '';
    // A burst that crosses a minute's turn is shared by two minutes: then it is sent again.
    for (let attempt = 0; attempt < 3; attempt++) {
      path = `/participants/${uniqueName()}`;
      const minute = Math.floor(Date.now() / 60_000);
      for (let i = 0; i < REFUSALS_PER_MINUTE + 10; i++) await callAs(undefined, 'PUT', path, { isActive: false }, own);
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    t.is((await entriesAt(path)).length, REFUSALS_PER_MINUTE);
    t.true((await services.audit.verify()).ok);
    // The count is Prometheus' at once, and an entry of the trail once the minute is over (the next test).
    const metrics = (await callAs('admin', 'GET', '/metrics', undefined, own)).body as string;
    t.true(Number(/^hub_audit_refusals_dropped_total (\d+)/m.exec(metrics)?.[1]) >= 10);
  } finally {
    await own.close();
  }
});

test.serial('a change the trail could not record is not answered as done: 500, saying it was made and may be repeated', async (t) => {
  const name = await participant();
  const closed = await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME });
  await closed.db.close();
  const unrecorded = await startAdmin({ ...services, audit: new AuditTrail(closed.db) }, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS }).adminAccess });
  try {
    const answer = await callAs('operator', 'PUT', `/participants/${name}`, { isActive: true }, unrecorded);
    t.is(answer.status, 500);
    t.regex(answer.body.errorInformation.errorDescription, /the change was made, but the audit trail could not record it/);
    t.truthy((await callAs('admin', 'GET', `/participants/${name}`)).body.isActive, 'the change itself happened');
    t.is((await callAs(undefined, 'PUT', `/participants/${name}`, { isActive: false }, unrecorded)).status, 401, 'a refusal is answered as it was');
  } finally {
    await unrecorded.close();
  }
});

test('a minute over the share is counted once it is over, and its count handed on once', (t) => {
  const share = new RefusalShare(2);
  const minute = 60_000 * 1_000;
  t.deepEqual([share.take(minute), share.take(minute + 1), share.take(minute + 2), share.take(minute + 3)], [true, true, false, false]);
  t.deepEqual(share.takeOver(minute + 59_999), [], 'not while the minute lasts');
  t.true(share.take(minute + 60_000), 'a new minute, a new share');
  t.deepEqual(share.takeOver(minute + 60_001), [{ from: new Date(minute), dropped: 2 }]);
  t.deepEqual(share.takeOver(minute + 120_000), []);
});

test.serial('an append under a reference is made once, however often it is retried (an activity Temporal runs again)', async (t) => {
  const reference = `approval/${crypto.randomUUID()}/performed`;
  const record = { action: 'limits.set', actor: 'alice', roles: ['operator'], credential: 'oidc', reference, detail: 'approved by bob' };
  const [first, again] = await Promise.all([services.audit.append(record), services.audit.append(record)]);
  const third = await services.audit.append(record);
  t.is(again.sequence, first.sequence);
  t.is(third.sequence, first.sequence);
  t.is(third.hash, first.hash);
  t.is((await services.audit.search({ action: 'limits.set', actor: 'alice', limit: 1000 })).entries.filter((entry) => entry.reference === reference).length, 1);
  t.true((await services.audit.verify()).ok);
});

test.serial('the refusals a minute did not record are counted in an entry, written once that minute is over', async (t) => {
  // A minute of a week ago, which no other recorder's count names.
  let clock = 60_000 * (Math.floor(Date.now() / 60_000) - 10_000);
  const app = new Koa();
  app.use(auditRecorder(services.audit, () => undefined, pino({ level: 'silent' }), { share: new RefusalShare(1), now: () => clock }));
  app.use((ctx) => {
    ctx.status = 401;
    ctx.body = { errorInformation: { errorCode: '3000', errorDescription: 'Generic client error - Unauthorized' } };
  });
  const { server, url } = await serve(app, 0, '127.0.0.1');
  try {
    const target = `/${uniqueName()}`;
    for (let i = 0; i < 3; i++) await fetch(`${url}${target}`, { method: 'POST' });
    clock += 60_000;
    await fetch(`${url}${target}`, { method: 'POST' });
    const entries = await entriesAt(target);
    t.is(entries.length, 2, 'one refusal of each minute');
    const [counted] = (await services.audit.search({ action: 'audit.refusalsDropped', limit: 1000 })).entries.filter(
      (entry) => entry.at === new Date(clock - 60_000).toISOString(),
    );
    t.regex(counted.detail!, /^2 refused attempts without a credential the hub accepts were not recorded in the minute from /);
    t.true(counted.sequence < entries[0].sequence, 'written before the next entry');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
