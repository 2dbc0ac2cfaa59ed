import crypto from 'node:crypto';
import test from 'ava';
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { createActivities } from '../../activities';
import { databaseRefusal } from '../../activities/hub/db/databaseErrors';
import { SETTLEMENT_TEXT_LENGTHS } from '../../activities/hub/db/settlementEntities';
import { HUB_REJECTION } from '../../activities/shared/contracts/errors';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { changeSettlementAccounts } from '../../workflows/hub/settlement';
import { closeWindow, settlementWindow } from '../../workflows/hub/settlementWindow';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel } from '../helpers/settlementCycle';
import { useSwitch, type SwitchHarness } from '../helpers/switchHarness';

// A settlement's and a window's `reason` and an account's `externalReference` are kept in columns of a length. Longer
// ones are refused by the settlement API's schemas (3100) on every database; and should one reach a step anyway, MySQL's
// refusal fails that step at once instead of being retried for ever, blocking the settlement's later changes and its
// abort behind it. DJF is paid by no other test, so the settlements here hold this file's payments alone.

const CURRENCY = 'DJF';
const { reason: REASON, externalReference: EXTERNAL_REFERENCE } = SETTLEMENT_TEXT_LENGTHS;
const isMysql = (process.env.DATABASE_URL ?? '').startsWith('mysql://');

let hub: SwitchHarness;
let payments: FulfillingPayees;
let model: string;

useSwitch(
  test,
  async (started) => {
    hub = started;
    payments = new FulfillingPayees(hub);
    model = await deferredNetModel((method, path, body) => hub.admin.call(method, path, body), CURRENCY);
  },
  { namespace: `long-texts-${crypto.randomUUID()}` },
);

const v2 = (method: string, path: string, body?: unknown) => hub.admin.call(method, `/v2${path}`, body);

/** A payment between two new DFSPs, in the open window. */
async function payment(): Promise<void> {
  const [payer, payee] = [await hub.provision({ currency: CURRENCY }), payments.fulfils(await hub.provision({ currency: CURRENCY }))];
  const { state } = await payments.pay(payer, payee, '15', CURRENCY);
  if (state !== 'COMMITTED') throw new Error(`the payment ended ${state}`);
}

/** A settlement of a window holding a payment, PENDING_SETTLEMENT. */
async function settlement(): Promise<any> {
  const windowId = await closingWindowsInTurn(hub.services.db, async () => {
    await payment();
    const [open] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
    const closed = await v2('POST', `/settlementWindows/${open.id}`, { state: 'CLOSED', reason: 'end of day' });
    if (closed.status !== 200) throw new Error(`the close answered ${closed.status} ${JSON.stringify(closed.body)}`);
    return open.id as number;
  });
  const created = await v2('POST', '/settlements', { settlementModel: model, reason: 'daily', settlementWindows: [{ id: windowId }] });
  if (created.status !== 200) throw new Error(`the settlement answered ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

test.serial('a reason or external reference longer than its column is refused with 3100 on every settlement request; one as long is taken', async (t) => {
  const created = await settlement();
  const [{ id: participantId, accounts }] = created.participants;
  const accountId = accounts[0].id;
  const tooLong = 'r'.repeat(REASON + 1);
  const [open] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
  const refusals: Array<[string, string, unknown]> = [
    ['POST', `/settlementWindows/${open.id}`, { state: 'CLOSED', reason: tooLong }],
    ['POST', '/settlements', { settlementModel: model, reason: tooLong, settlementWindows: [{ id: open.id }] }],
    ['PUT', `/settlements/${created.id}`, { state: 'ABORTED', reason: tooLong }],
    ['PUT', `/settlements/${created.id}`, { state: 'ABORTED', reason: 'bank rejected', externalReference: 'e'.repeat(EXTERNAL_REFERENCE + 1) }],
    [
      'PUT',
      `/settlements/${created.id}`,
      { participants: [{ id: participantId, accounts: [{ id: accountId, state: 'PS_TRANSFERS_RECORDED', reason: tooLong }] }] },
    ],
    ['PUT', `/settlements/${created.id}/participants/${participantId}`, { accounts: [{ id: accountId, state: 'PS_TRANSFERS_RECORDED', reason: tooLong }] }],
    ['PUT', `/settlements/${created.id}/participants/${participantId}/accounts/${accountId}`, { state: 'PS_TRANSFERS_RECORDED', reason: tooLong }],
  ];
  for (const [method, path, body] of refusals) {
    const answer = await v2(method, path, body);
    t.is(answer.status, 400, `${method} ${path}`);
    t.is(answer.body.errorInformation?.errorCode, '3100', `${method} ${path}`);
    t.regex(answer.body.errorInformation?.errorDescription ?? '', /must NOT have more than (512|256) characters/);
  }
  t.is((await v2('GET', `/settlementWindows/${open.id}`)).body.state, 'OPEN', 'the window is still open');
  t.is((await v2('GET', `/settlements/${created.id}`)).body.state, 'PENDING_SETTLEMENT', 'the settlement has not moved');

  const asLong = { state: 'PS_TRANSFERS_RECORDED', reason: 'r'.repeat(REASON), externalReference: 'e'.repeat(EXTERNAL_REFERENCE) };
  const taken = await v2('PUT', `/settlements/${created.id}/participants/${participantId}/accounts/${accountId}`, asLong);
  t.is(taken.status, 200, JSON.stringify(taken.body).slice(0, 200));
  t.like(taken.body.participants[0].accounts[0], asLong);
});

(isMysql ? test.serial : test.skip)(
  'on MySQL, a reason longer than its column fails the close or the change at once: the window still closes, the settlement still changes and aborts',
  async (t) => {
    const tooLong = 'r'.repeat(REASON + 1);
    await closingWindowsInTurn(hub.services.db, async () => {
      await payment();
      const [open] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
      const activities = createActivities(hub.hub);
      const failure = await t.throwsAsync(activities.closeSettlementWindow({ settlementWindowId: open.id, reason: tooLong }));
      t.true(failure instanceof ApplicationFailure && failure.nonRetryable && failure.type === HUB_REJECTION, 'the step fails for good');
      t.regex(String(failure?.message), /ER_DATA_TOO_LONG/);

      // Started as the API starts it: on a database the suite shares, the open window may be another file's hub's.
      const window = await hub.worker.client.workflow.start(settlementWindow, {
        workflowId: workflowIds.settlementWindow(open.id),
        taskQueue: hub.worker.taskQueue,
        args: [open.id],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      const refused = await t.throwsAsync(window.executeUpdate(closeWindow, { args: [{ reason: tooLong }] }), { instanceOf: WorkflowUpdateFailedError });
      t.like((refused?.cause as ApplicationFailure | undefined)?.details?.[0], { errorCode: '3100' });
      t.is((await v2('POST', `/settlementWindows/${open.id}`, { state: 'CLOSED', reason: 'end of day' })).status, 200, 'the window still closes');
    });

    const created = await settlement();
    const [{ id: participantId, accounts }] = created.participants;
    const change = (reason: string) => [{ id: participantId, accounts: [{ id: accounts[0].id, state: 'PS_TRANSFERS_RECORDED' as const, reason }] }];
    const handle = hub.worker.client.workflow.getHandle(workflowIds.settlement(created.id));
    const refused = await t.throwsAsync(handle.executeUpdate(changeSettlementAccounts, { args: [change(tooLong)] }), { instanceOf: WorkflowUpdateFailedError });
    t.like((refused?.cause as ApplicationFailure | undefined)?.details?.[0], { errorCode: '3100' });
    t.regex(String(refused?.cause?.message), /ER_DATA_TOO_LONG/);

    const moved = await v2('PUT', `/settlements/${created.id}`, { participants: change('recorded') });
    t.is(moved.status, 200, 'a later change goes through');
    t.is(moved.body.participants[0].accounts[0].state, 'PS_TRANSFERS_RECORDED');
    const aborted = await v2('PUT', `/settlements/${created.id}`, { state: 'ABORTED', reason: 'bank rejected' });
    t.like(aborted, { status: 200, body: { state: 'ABORTED' } }, 'and so does its abort');
  },
);

test('a value or a row the database refuses is told from an error a retry gets past (a duplicate key)', async (t) => {
  const { db } = hub.services;
  /** The error a statement meets, in a transaction rolled back whatever happens. */
  const errorOf = (statements: Array<[string, unknown[]]>) =>
    db
      .transaction(async (manager) => {
        for (const [sql, parameters] of statements) await manager.query(sql, parameters);
        throw new Error('no database error');
      })
      .catch((error: unknown) => error);
  const now = '2030-01-01 00:00:00.000';
  const window = (reason: string | null, state: string | null): [string, unknown[]] => [
    'INSERT INTO settlement_window (state, reason, createdDate, changedDate) VALUES (?, ?, ?, ?)',
    [state, reason, now, now],
  ];
  t.like(databaseRefusal(await errorOf([window('x', null)])), { errorName: 'internalServerError' }, 'a NOT NULL column left empty');
  const link: [string, unknown[]] = ['INSERT INTO settlement_settlement_window (settlementId, settlementWindowId) VALUES (?, ?)', [999_999_999, 1]];
  t.is(databaseRefusal(await errorOf([link, link])), undefined, 'a duplicate key: a retry finds the row and repeats nothing');
  if (isMysql) t.like(databaseRefusal(await errorOf([window('r'.repeat(REASON + 1), 'OPEN')])), { errorName: 'validationError' }, 'a value too long');
});
