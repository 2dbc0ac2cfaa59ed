import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import Router from '@koa/router';
import { loadConfig, repoRoot } from '../../activities/shared/platform/config';
import { adminRouters, type AdminAppServices } from '../../api/admin/adminApp';
import { declaredRoutes, needs } from '../../api/admin/access/permissions';
import type { SettlementApi } from '../../api/settlement/settlementRoutes';
import { OPERATOR_ROLES, PERMISSIONS, ROLE_PERMISSIONS } from '../../activities/shared/contracts/operatorRoles';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { answerBody } from '../helpers/http';

// Every route says who may call it, docs/security.md says the same, and each role gets what it says and nothing more.

const SECRET = '0123456789abcdef0123';
const TOKENS = OPERATOR_ROLES.map((role) => `${role}-1:${role}:${role}-${SECRET}`).join(',');

/** The rows of the markdown table that follows `heading` in docs/security.md, each as its cells. */
function tableAfter(heading: string): string[][] {
  const text = fs.readFileSync(path.join(repoRoot, 'docs', 'security.md'), 'utf-8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/security.md has no "${heading}"`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows = lines.slice(first + 2);
  return rows
    .slice(
      0,
      rows.findIndex((line) => !line.startsWith('|')),
    )
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
}

// The routers' routes as the gateway builds them; their handlers never run here.
const routes = declaredRoutes(adminRouters({} as AdminAppServices, [], { temporal: {} } as SettlementApi));

test('docs/security.md lists every route of the admin API with the permission it declares, and no route it lacks', (t) => {
  const documented = tableAfter('### Who may call what').map(([method, urlPath, permission]) => `${method} ${urlPath} ${permission}`);
  const declared = routes.map(({ method, path: urlPath, permission }) => `${method} ${urlPath} ${permission}`);
  t.deepEqual([...documented].sort(), [...declared].sort());
});

test('docs/security.md gives each role the permissions it has', (t) => {
  const documented = Object.fromEntries(tableAfter('### Roles').map(([role, permissions]) => [role, permissions]));
  for (const role of OPERATOR_ROLES) {
    const expected = ROLE_PERMISSIONS[role].length === PERMISSIONS.length ? 'every permission' : ROLE_PERMISSIONS[role].filter((p) => p !== 'open').join(', ');
    t.is(documented[role], expected, role);
  }
});

test('a route that declares no permission stops the gateway from being built', (t) => {
  const router = new Router();
  router.get('/declared', needs('read'), (ctx) => void (ctx.body = {}));
  router.get('/forgotten', (ctx) => void (ctx.body = {}));
  t.throws(() => declaredRoutes([router]), { message: 'HEAD,GET /forgotten declares no permission: give it needs(...) first' });
});

let admin: AdminHarness;

test.before(async () => {
  admin = await startAdmin(undefined, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS }).adminAccess });
});

test.after.always(async () => {
  await admin?.close();
});

async function callAs(role: string, method: string, urlPath: string, body?: unknown) {
  const response = await fetch(`${admin.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${role}-${SECRET}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await answerBody(response)) as any };
}

test('a viewer reads the scheme but changes nothing and reads no message: 403 naming the token, its role and what it lacks', async (t) => {
  t.is((await callAs('viewer', 'GET', '/participants')).status, 200);
  const name = uniqueName();
  const refused = await callAs('viewer', 'POST', '/participants', { name, currency: 'USD' });
  t.is(refused.status, 403);
  t.is(
    refused.body.errorInformation.errorDescription,
    'Generic client error - Forbidden: viewer-1 has role viewer, which does not allow changing participants',
  );
  t.is((await callAs('admin', 'GET', `/participants/${name}`)).status, 400, 'the participant was not created (3200)');
  const trace = await callAs('viewer', 'GET', '/transfers/01J0000000000000000000000A/trace');
  t.is(trace.status, 403);
  t.regex(trace.body.errorInformation.errorDescription, /does not allow reading messages and parties' data/);
});

test('an operator runs participants, endpoints and limits, and may not move funds', async (t) => {
  const name = uniqueName();
  t.is((await callAs('operator', 'POST', '/participants', { name, currency: 'USD' })).status, 200);
  const limits = { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 1000 }, initialPosition: 0 };
  t.is((await callAs('operator', 'POST', `/participants/${name}/initialPositionAndLimits`, limits)).status, 201);
  const endpoint = { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: 'http://dfsp.example/transfers' };
  t.is((await callAs('operator', 'POST', `/participants/${name}/endpoints`, endpoint)).status, 201);
  const accounts = (await callAs('operator', 'GET', `/participants/${name}/accounts`)).body as Array<{ id: number; ledgerAccountType: string }>;
  const settlement = accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!;
  const fundsIn = {
    transferId: '01J00000000000000000000000',
    externalReference: 'ref',
    action: 'recordFundsIn',
    reason: 'deposit',
    amount: { amount: '100', currency: 'USD' },
  };
  const refused = await callAs('operator', 'POST', `/participants/${name}/accounts/${settlement.id}`, fundsIn);
  t.is(refused.status, 403);
  t.regex(refused.body.errorInformation.errorDescription, /operator-1 has role operator, which does not allow moving funds/);
  const balance = (await callAs('operator', 'GET', `/participants/${name}/accounts`)).body as Array<{ id: number; value: number }>;
  t.is(balance.find((account) => account.id === settlement.id)!.value, 0, 'nothing moved');
});

test('finance moves funds and may not repoint endpoints; metrics may only scrape', async (t) => {
  const name = uniqueName();
  t.is((await callAs('admin', 'POST', '/participants', { name, currency: 'USD' })).status, 200);
  const endpoint = { type: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', value: 'http://attacker.example/transfers' };
  t.is((await callAs('finance', 'POST', `/participants/${name}/endpoints`, endpoint)).status, 403);
  t.deepEqual((await callAs('admin', 'GET', `/participants/${name}/endpoints`)).body, []);
  t.is((await callAs('finance', 'GET', '/settlementModels')).status, 200);
  t.is((await callAs('metrics', 'GET', '/metrics')).status, 200);
  t.is((await callAs('metrics', 'GET', '/settlementModels')).status, 403);
});
