import crypto from 'node:crypto';
import test from 'ava';
import { loadConfig } from '../../activities/shared/platform/config';
import type { Hub } from '../../activities/hub/hubServices';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { answerBody } from '../helpers/http';
import { openTestHub, startWorker, type WorkerHarness } from '../helpers/worker';

// Four eyes on money, as an operator configures it: alice and bob in finance, olga an operator (who may decide, but
// not on funds), and ADMIN_FOUR_EYES=funds. The real admin API, the real database and a real worker running the
// approval's workflow and the hub's activities.

const SECRET = 'four-eyes-secret-0123456789';
const NAMED = ['alice:finance', 'bob:finance', 'olga:operator', 'carol:admin'].map((who) => `${who}:${who.split(':')[0]}-${SECRET}`);
/** A bare secret too: an unnamed admin, as ADMIN_API_TOKENS allows. */
const TOKENS = [...NAMED, `nobody-${SECRET}`].join(',');

let hub: Hub;
let worker: WorkerHarness;
let admin: AdminHarness;
let briefAdmin: AdminHarness;
let limitsAdmin: AdminHarness;

test.before(async () => {
  hub = await openTestHub('Hub');
  worker = await startWorker(hub);
  const temporal = { client: worker.client, taskQueue: worker.taskQueue };
  admin = await startAdmin(hub.services, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS, ADMIN_FOUR_EYES: 'funds' }).adminAccess, temporal });
  // The same, with approvals that expire after a second.
  briefAdmin = await startAdmin(hub.services, {
    access: loadConfig({ ADMIN_API_TOKENS: TOKENS, ADMIN_FOUR_EYES: 'funds', APPROVAL_TTL: '1s' }).adminAccess,
    temporal,
  });
  limitsAdmin = await startAdmin(hub.services, { access: loadConfig({ ADMIN_API_TOKENS: TOKENS, ADMIN_FOUR_EYES: 'limits' }).adminAccess, temporal });
});

test.after.always(async () => {
  await briefAdmin?.close();
  await limitsAdmin?.close();
  await admin?.close();
  await worker?.close();
  await hub?.close();
});

type Person = 'alice' | 'bob' | 'olga' | 'carol' | 'nobody';

/** A request to `on` (the admin API) as `who`, with their bearer token. */
async function as(who: Person, method: string, path: string, body?: unknown, on: AdminHarness = admin): Promise<{ status: number; body: any }> {
  const response = await fetch(`${on.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${who}-${SECRET}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await answerBody(response) };
}

/** A DFSP with a settlement account in USD, made straight in the database (the setup is not under test). */
async function dfsp(): Promise<{ name: string; settlement: number }> {
  const name = uniqueName();
  const { accounts } = await hub.services.participants.create(name, 'USD');
  return { name, settlement: accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!.id };
}

const fundsIn = (amount: string, transferId = crypto.randomUUID()) => ({
  transferId,
  externalReference: 'bank-ref-7',
  action: 'recordFundsIn',
  reason: 'deposit',
  amount: { amount, currency: 'USD' },
});

async function balance(name: string, accountId: number): Promise<number> {
  const { body } = await as('alice', 'GET', `/participants/${name}/accounts`);
  return body.find((account: any) => account.id === accountId).value;
}

test("alice's funds in is held: 202 PENDING, nothing moves, alice may not approve it, and bob's approval moves the money once", async (t) => {
  const { name, settlement } = await dfsp();
  const held = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('250.5'));
  t.is(held.status, 202);
  t.deepEqual(Object.keys(held.body).sort(), ['approvalId', 'state']);
  t.is(held.body.state, 'PENDING');
  const { approvalId } = held.body;
  t.is(await balance(name, settlement), 0, 'a held request changes nothing');

  const pending = await as('bob', 'GET', '/approvals?state=PENDING');
  t.is(pending.status, 200);
  t.like(
    pending.body.find((approval: any) => approval.approvalId === approvalId),
    { state: 'PENDING', changeGroup: 'funds', action: 'moveFunds', requestedBy: { name: 'alice', credential: 'token' } },
  );

  const own = await as('alice', 'PUT', `/approvals/${approvalId}`, { decision: 'APPROVED', reason: 'looks right to me' });
  t.is(own.status, 403);
  t.is(own.body.errorInformation.errorCode, '3000');
  t.like((await as('alice', 'GET', `/approvals/${approvalId}`)).body, { state: 'PENDING' });
  t.is(await balance(name, settlement), 0);

  const approved = await as('bob', 'PUT', `/approvals/${approvalId}`, { decision: 'APPROVED', reason: 'bank statement 7 matches' });
  t.is(approved.status, 200);
  t.like(approved.body, {
    approvalId,
    state: 'APPROVED',
    requestedBy: { name: 'alice' },
    decidedBy: { name: 'bob' },
    reason: 'bank statement 7 matches',
    outcome: { performed: true, answer: { status: 202, body: null } },
  });
  t.is(await balance(name, settlement), -250.5, 'a deposit lowers the settlement account by its amount');

  const again = await as('carol', 'PUT', `/approvals/${approvalId}`, { decision: 'APPROVED' });
  t.is(again.status, 400);
  t.is(await balance(name, settlement), -250.5, 'the money moved once');

  // The audit trail has each step with its person's name, and its chain holds.
  const trail = (await as('carol', 'GET', '/audit?limit=200')).body.entries as any[];
  const steps = trail
    .filter((entry) => entry.approvalId === approvalId || entry.target === `/approvals/${approvalId}`)
    .reverse()
    .map(({ actor, action, target, status, detail }) => ({ actor, action, target, status, detail }));
  const deposit = `/participants/${name}/accounts/${settlement}`;
  t.like(steps, [
    { actor: 'alice', action: 'funds.move', target: deposit, status: 202 },
    { actor: 'alice', action: 'approval.decide', target: `/approvals/${approvalId}`, status: 403 },
    { actor: 'bob', action: 'approval.performed', target: deposit, status: 202, detail: 'moveFunds, requested by alice, approved by bob' },
    { actor: 'bob', action: 'approval.decide', target: `/approvals/${approvalId}`, status: 200 },
    { actor: 'carol', action: 'approval.decide', target: `/approvals/${approvalId}`, status: 400 },
  ]);
  t.is(steps.length, 5);
  const verified = (await as('carol', 'GET', '/audit/verify')).body;
  t.true(verified.ok);
  t.true(verified.entries >= 5);
});

test('a funds in repeated while it is held finds the approval it already has', async (t) => {
  const { name, settlement } = await dfsp();
  const body = fundsIn('10');
  const first = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, body);
  const repeated = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, body);
  t.is(repeated.status, 202);
  t.is(repeated.body.approvalId, first.body.approvalId);
  const byBob = await as('bob', 'POST', `/participants/${name}/accounts/${settlement}`, body);
  t.not(byBob.body.approvalId, first.body.approvalId, "bob's request is his own, for someone else to decide");
});

test('a rejected funds in moves nothing, and says who rejected it and why', async (t) => {
  const { name, settlement } = await dfsp();
  const { body: held } = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('99'));
  const rejected = await as('bob', 'PUT', `/approvals/${held.approvalId}`, { decision: 'REJECTED', reason: 'no such deposit at the bank' });
  t.is(rejected.status, 200);
  t.like(rejected.body, { state: 'REJECTED', decidedBy: { name: 'bob' }, reason: 'no such deposit at the bank' });
  t.is(rejected.body.outcome, undefined);
  t.is(await balance(name, settlement), 0);
  t.like((await as('carol', 'GET', `/approvals/${held.approvalId}`)).body, { state: 'REJECTED' });
});

test('only someone whose roles allow moving funds decides on funds: an operator is refused 403', async (t) => {
  const { name, settlement } = await dfsp();
  const { body: held } = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('5'));
  const byOperator = await as('olga', 'PUT', `/approvals/${held.approvalId}`, { decision: 'APPROVED' });
  t.is(byOperator.status, 403);
  t.like((await as('olga', 'GET', `/approvals/${held.approvalId}`)).body, { state: 'PENDING' });
  t.is(await balance(name, settlement), 0);
});

test("an approved change the ledger refuses records the ledger's refusal, and moves nothing", async (t) => {
  const { name, settlement } = await dfsp();
  const fundsOut = { ...fundsIn('1000'), action: 'recordFundsOutPrepareReserve', reason: 'withdrawal' };
  const { body: held } = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsOut);
  const approved = await as('bob', 'PUT', `/approvals/${held.approvalId}`, { decision: 'APPROVED' });
  t.is(approved.status, 200);
  t.like(approved.body, { state: 'APPROVED', outcome: { performed: false, status: 400, errorInformation: { errorCode: '4001' } } });
  t.is(await balance(name, settlement), 0);
});

test('bad input is refused at once with its FSPIOP error, and never held', async (t) => {
  const { name, settlement } = await dfsp();
  const refused = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('1.23456'));
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3100');
  const held = (await as('bob', 'GET', '/approvals')).body.filter((approval: any) => approval.summary.includes(name));
  t.deepEqual(held, []);
});

test('changes of a group ADMIN_FOUR_EYES does not name are made at once, answered as central-ledger answers', async (t) => {
  const { name } = await dfsp();
  const { status, body } = await as('carol', 'PUT', `/participants/${name}`, { isActive: false });
  t.is(status, 200);
  t.is(body.isActive, 0);
});

test("a held limit change is decided by someone whose roles allow limits (an operator), and answered as the direct call's", async (t) => {
  const { name } = await dfsp();
  await hub.services.limits.initialPositionAndLimits(name, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: '1000' } });
  const lower = { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 500, alarmPercentage: 10 } };
  t.is((await as('alice', 'PUT', `/participants/${name}/limits`, lower, limitsAdmin)).status, 403, 'finance does not change limits');
  const held = await as('carol', 'PUT', `/participants/${name}/limits`, lower, limitsAdmin);
  t.is(held.status, 202);
  t.is((await as('bob', 'PUT', `/approvals/${held.body.approvalId}`, { decision: 'APPROVED' }, limitsAdmin)).status, 403, 'nor decides on them');
  const approved = await as('olga', 'PUT', `/approvals/${held.body.approvalId}`, { decision: 'APPROVED' }, limitsAdmin);
  t.is(approved.status, 200);
  t.like(approved.body.outcome, {
    performed: true,
    answer: { status: 200, body: { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 500, alarmPercentage: 10 } } },
  });
  const [limit] = (await as('olga', 'GET', `/participants/${name}/limits`, undefined, limitsAdmin)).body;
  t.like(limit, { limit: { value: 500 } });
});

test('a held change no one decides expires after APPROVAL_TTL: the requester finds it EXPIRED, nothing changed, and it can no longer be approved', async (t) => {
  const { name, settlement } = await dfsp();
  const { body: held } = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('42'), briefAdmin);
  t.is(held.state, 'PENDING');
  let current: any;
  for (let waited = 0; waited < 20_000; waited += 250) {
    current = (await as('alice', 'GET', `/approvals/${held.approvalId}`, undefined, briefAdmin)).body;
    if (current.state !== 'PENDING') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.like(current, { state: 'EXPIRED', requestedBy: { name: 'alice' } });
  const late = await as('bob', 'PUT', `/approvals/${held.approvalId}`, { decision: 'APPROVED' }, briefAdmin);
  t.is(late.status, 400);
  t.is(await balance(name, settlement), 0);
});

test('a credential that names no one can neither ask for a held change nor decide one', async (t) => {
  const { name, settlement } = await dfsp();
  const asked = await as('nobody', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('3'));
  t.is(asked.status, 403);
  t.is(await balance(name, settlement), 0);
  const { body: held } = await as('alice', 'POST', `/participants/${name}/accounts/${settlement}`, fundsIn('3'));
  t.is((await as('nobody', 'PUT', `/approvals/${held.approvalId}`, { decision: 'APPROVED' })).status, 403);
  t.is(await balance(name, settlement), 0);
});

test('four eyes will not start on an open admin API, where everyone is the same unnamed admin, and names change groups only', (t) => {
  t.throws(() => loadConfig({ ADMIN_FOUR_EYES: 'funds' }), { message: /ADMIN_FOUR_EYES needs operators with names/ });
  t.throws(() => loadConfig({ ADMIN_API_TOKENS: TOKENS, ADMIN_FOUR_EYES: 'money' }), { message: /ADMIN_FOUR_EYES names/ });
});
