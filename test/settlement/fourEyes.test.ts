import crypto from 'node:crypto';
import test from 'ava';
import { loadConfig } from '../../activities/shared/platform/config';
import type { Hub } from '../../activities/hub/hubServices';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { answerBody } from '../helpers/http';
import { closingWindowsInTurn } from '../helpers/settlementCycle';
import { openTestHub, startWorker, type WorkerHarness } from '../helpers/worker';

// Four eyes on settlement (ADMIN_FOUR_EYES=settlements): closing a window is held, and once approved the approval's
// activity closes it through the window's workflow with the worker's own Temporal client, as the route would have.
// In a namespace of its own, since the database numbers the windows' workflow IDs.

const SECRET = 'settle-eyes-secret-0123456789';
const TOKENS = ['alice:finance', 'bob:finance'].map((who) => `${who}:${who.split(':')[0]}-${SECRET}`).join(',');

let hub: Hub;
let worker: WorkerHarness;
let admin: AdminHarness;

test.before(async () => {
  hub = await openTestHub('Hub');
  worker = await startWorker(hub, { namespace: `four-eyes-${crypto.randomUUID()}` });
  admin = await startAdmin(hub.services, {
    access: loadConfig({ ADMIN_API_TOKENS: TOKENS, ADMIN_FOUR_EYES: 'settlements' }).adminAccess,
    temporal: { client: worker.client, taskQueue: worker.taskQueue },
  });
});

test.after.always(async () => {
  await admin?.close();
  await worker?.close();
  await hub?.close();
});

async function as(who: 'alice' | 'bob', method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${admin.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${who}-${SECRET}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await answerBody(response) };
}

test("closing a settlement window is held, and bob's approval closes it through the window's workflow as a direct call would", async (t) => {
  await closingWindowsInTurn(hub.services.db, async () => {
    const [open] = (await as('alice', 'GET', '/v2/settlementWindows?state=OPEN')).body;
    const held = await as('alice', 'POST', `/v2/settlementWindows/${open.settlementWindowId}`, { state: 'CLOSED', reason: 'end of day' });
    t.is(held.status, 202);
    t.is(held.body.state, 'PENDING');
    t.like((await as('bob', 'GET', `/v2/settlementWindows/${open.settlementWindowId}`)).body, { state: 'OPEN' }, 'held, the window stays open');

    const approved = await as('bob', 'PUT', `/approvals/${held.body.approvalId}`, { decision: 'APPROVED' });
    t.is(approved.status, 200);
    const { outcome } = approved.body;
    // This file's own database has no payment, so the window's workflow refuses to close it as it refuses a direct
    // close; on a database the suite shares, other files' payments may be in it, and it closes.
    if (outcome.performed) {
      t.true(outcome.answer.body.settlementWindowId > open.settlementWindowId, 'answered with the window opened in its place');
      t.like((await as('bob', 'GET', `/v2/settlementWindows/${open.settlementWindowId}`)).body, { state: 'CLOSED' });
    } else {
      t.like(outcome, {
        status: 400,
        errorInformation: { errorCode: '3100', errorDescription: `Generic validation error - Window ${open.settlementWindowId} is empty` },
      });
      t.like((await as('bob', 'GET', `/v2/settlementWindows/${open.settlementWindowId}`)).body, { state: 'OPEN' });
    }
  });
});
