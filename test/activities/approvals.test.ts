import crypto from 'node:crypto';
import test from 'ava';
import { createActivities } from '../../activities';
import type { Hub } from '../../activities/hub/hubServices';
import { changePerformer } from '../../api/admin/approvals/performChange';
import type { HeldChange } from '../../activities/shared/contracts/approvals';
import { uniqueName } from '../helpers/database';
import { openTestHub } from '../helpers/worker';

// Performing an approved change (four eyes) is an activity, which Temporal may run again: after a worker died, or a
// timeout. Once the outcome is recorded, another attempt performs nothing and answers the outcome recorded.

let hub: Hub;
let activities: ReturnType<typeof createActivities>;

test.before(async () => {
  hub = await openTestHub('Hub');
  const performChange = changePerformer({
    ...hub.services,
    temporal: () => {
      throw new Error('no settlement change is performed in this file');
    },
  });
  activities = createActivities({ ...hub, performChange });
});
test.after.always(async () => {
  await hub?.close();
});

async function approved(change: Omit<HeldChange, 'summary'>): Promise<string> {
  const { approvalId } = await hub.services.approvals.hold({ ...change, summary: 'test' }, { name: 'alice', credential: 'token' }, 60_000);
  await hub.services.approvals.decided(approvalId, 'APPROVED', { name: 'bob', credential: 'token' }, undefined);
  return approvalId;
}

test('an approved deposit performed twice moves the money once, and its outcome stays the first', async (t) => {
  const name = uniqueName();
  const { accounts } = await hub.services.participants.create(name, 'USD');
  const accountId = accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!.id;
  const movement = { transferId: crypto.randomUUID(), externalReference: 'ref', reason: 'deposit', amount: '50', currency: 'USD' };
  const approvalId = await approved({ action: 'moveFunds', input: { name, accountId, action: 'recordFundsIn', movement }, changeGroup: 'funds' });
  const first = await activities.performApproval(approvalId);
  t.like(first, { state: 'APPROVED', requestedBy: { name: 'alice' }, decidedBy: { name: 'bob' }, outcome: { performed: true, answer: { status: 202 } } });
  t.deepEqual(await activities.performApproval(approvalId), first);
  const account = (await hub.services.participants.accounts(name)).find((candidate) => candidate.id === accountId)!;
  t.is(Number(account.value), -50);
});

test('an approved create performed again answers the outcome recorded, not "already exists"', async (t) => {
  const name = uniqueName();
  const approvalId = await approved({ action: 'createParticipant', input: { name, currency: 'USD', baseUrl: 'http://hub' }, changeGroup: 'participants' });
  const first = await activities.performApproval(approvalId);
  t.like(first, { outcome: { performed: true, answer: { status: 200, body: { name } } } });
  t.deepEqual(await activities.performApproval(approvalId), first);
});

test('a change that is not approved is never performed', async (t) => {
  const name = uniqueName();
  const { approvalId } = await hub.services.approvals.hold(
    { action: 'createParticipant', input: { name, currency: 'USD', baseUrl: 'http://hub' }, changeGroup: 'participants', summary: 'test' },
    { name: 'alice', credential: 'token' },
    60_000,
  );
  await t.throwsAsync(activities.performApproval(approvalId), { message: /is PENDING, not APPROVED/ });
  await hub.services.approvals.decided(approvalId, 'REJECTED', { name: 'bob', credential: 'token' }, 'no');
  await t.throwsAsync(activities.performApproval(approvalId), { message: /is REJECTED, not APPROVED/ });
  await t.throwsAsync(hub.services.participants.get(name));
});
