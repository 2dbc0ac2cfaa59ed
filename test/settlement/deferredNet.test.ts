import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { Decimal } from '../../activities/hub/db/money';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel, type AdminCall } from '../helpers/settlementCycle';
import { pollUntil } from '../helpers/polling';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { ensureSettlementWindows, WINDOW_CLOSE_SCHEDULE_ID } from '../../worker/schedules';

// A deferred net settlement cycle over Mojaloop's settlement API (/v2 on the admin gateway), as an operator runs it:
// payments, close the window, create a settlement, walk its accounts to SETTLED. Currencies no other test pays in keep
// the settlements to this file's participants when every test file shares one database (MariaDB). Serial: each test
// closes the window the one before it left open.

let hub: SwitchHarness;
/** The deferred net model of each currency the tests pay in. */
const models = { BWP: '', ZMW: '' };

let payments: FulfillingPayees;

useSwitch(
  test,
  async (started) => {
    hub = started;
    payments = new FulfillingPayees(hub);
    const admin: AdminCall = (method, path, body) => hub.admin.call(method, path, body);
    for (const currency of ['BWP', 'ZMW'] as const) models[currency] = await deferredNetModel(admin, currency);
  },
  { namespace: `settlement-${crypto.randomUUID()}` },
);

const v2 = (method: string, path: string, body?: unknown) => hub.admin.call(method, `/v2${path}`, body);

/** A test that closes windows, in turn with any other test that does (closingWindowsInTurn). */
const inTurn = (title: string, body: (t: ExecutionContext) => Promise<void>) => test.serial(title, (t) => closingWindowsInTurn(hub.services.db, () => body(t)));

/** A DFSP in `currency` whose payments the test makes, and which fulfils every transfer it is asked for. */
const dfsp = async (currency: string, netDebitCap = 1_000) => payments.fulfils(await hub.provision({ currency, netDebitCap, fundsIn: 10_000 }));
const pay = (payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string, currency: string) => payments.pay(payer, payee, amount, currency);

const position = (dfsp: SimulatedDfsp, currency: string) => hub.position(dfsp, currency);

/** Closes the open window and answers its ID (and the new open window's). */
async function closeOpenWindow(reason: string): Promise<{ closed: number; opened: number }> {
  const open = await v2('GET', '/settlementWindows?state=OPEN');
  if (open.status !== 200) throw new Error(`no open window: ${JSON.stringify(open.body)}`);
  const closed = open.body[0].settlementWindowId as number;
  const answer = await v2('POST', `/settlementWindows/${closed}`, { state: 'CLOSED', reason });
  if (answer.status !== 200) throw new Error(`close of ${closed}: ${JSON.stringify(answer.body)}`);
  return { closed, opened: answer.body.settlementWindowId };
}

/**
 * Checks that the window's content in `currencies` is SETTLED, and the window itself once all its content is: on a
 * database other test files share, their currencies' payments may be in it too, still to settle.
 */
async function settledAs(t: ExecutionContext, windowId: number, currencies: string[]): Promise<{ state: string }> {
  const window = (await v2('GET', `/settlementWindows/${windowId}`)).body;
  for (const currency of currencies) t.is(window.content.find((row: any) => row.currencyId === currency)?.state, 'SETTLED', currency);
  const othersUnsettled = window.content.some((row: any) => row.state !== 'SETTLED');
  t.is(window.state, othersUnsettled ? 'PENDING_SETTLEMENT' : 'SETTLED', 'a window is SETTLED once all its content is');
  return window;
}

/** Moves every account of the settlement to `state`, in one PUT, and answers the settlement as it then stands. */
async function everyAccountTo(settlementId: number, state: string, idAsSent: (id: number) => number | string = (id) => id) {
  const current = (await v2('GET', `/settlements/${settlementId}`)).body;
  const participants = current.participants.map((participant: any) => ({
    id: idAsSent(participant.id),
    accounts: participant.accounts.map((account: any) => ({ id: idAsSent(account.id), state, reason: `to ${state}` })),
  }));
  const answer = await v2('PUT', `/settlements/${settlementId}`, { participants });
  if (answer.status !== 200) throw new Error(`PUT ${state}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A DFSP's POSITION account in `currency`: its account in a settlement (central-settlement's participantCurrencyId). */
async function positionAccountOf(dfsp: SimulatedDfsp, currency: string): Promise<number> {
  const accounts = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body;
  return accounts.find((account: any) => account.ledgerAccountType === 'POSITION' && account.currency === currency).id;
}

/** Where a DFSP's position account stands in a settlement: its participant's ID there, and the account's entry. */
async function inSettlement(settlement: any, dfsp: SimulatedDfsp, currency: string) {
  const accountId = await positionAccountOf(dfsp, currency);
  for (const participant of settlement.participants) {
    const account = participant.accounts.find((entry: any) => entry.id === accountId);
    if (account) return { participantId: participant.id as number, account };
  }
  throw new Error(`${dfsp.name} is not in settlement ${settlement.id}`);
}

inTurn(
  'a deferred net cycle: payments fill the Net Debit Cap, the window closes, the settlement walks to SETTLED, positions return to zero and the payer can pay again',
  async (t) => {
    const [a, b, c] = [await dfsp('BWP', 100), await dfsp('BWP'), await dfsp('BWP')];
    t.is((await pay(a, b, '60', 'BWP')).state, 'COMMITTED');
    t.is((await pay(b, c, '25', 'BWP')).state, 'COMMITTED');
    t.is((await pay(a, c, '40', 'BWP')).state, 'COMMITTED');
    t.is((await pay(a, b, '0.0001', 'BWP')).errorCode, '4200', "the payer's Net Debit Cap is used up");

    const { closed, opened } = await closeOpenWindow('end of day');
    t.true(opened > closed, 'closing opens the next window');
    const window = (await v2('GET', `/settlementWindows/${closed}`)).body;
    t.is(window.state, 'CLOSED');
    t.true(window.content.some((content: any) => content.currencyId === 'BWP' && content.state === 'CLOSED'));

    const created = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'daily', settlementWindows: [{ id: closed }] });
    t.is(created.status, 200, JSON.stringify(created.body));
    const settlementId = created.body.id;
    t.is(created.body.state, 'PENDING_SETTLEMENT');
    const netOf = async (dfsp: SimulatedDfsp) => (await inSettlement(created.body, dfsp, 'BWP')).account.netSettlementAmount;
    t.deepEqual(await netOf(a), { amount: 100, currency: 'BWP' }, 'a paid 100 and received nothing: it owes 100');
    t.deepEqual(await netOf(b), { amount: -35, currency: 'BWP' }, 'b received 60 and paid 25: it is owed 35');
    t.deepEqual(await netOf(c), { amount: -65, currency: 'BWP' });
    const total = created.body.participants
      .flatMap((participant: any) => participant.accounts)
      .reduce((sum: Decimal, account: any) => sum.plus(account.netSettlementAmount.amount), new Decimal(0));
    t.true(total.isZero(), 'the net amounts of a settlement sum to zero');
    t.is((await v2('GET', `/settlementWindows/${closed}`)).body.state, 'PENDING_SETTLEMENT');

    t.is((await everyAccountTo(settlementId, 'PS_TRANSFERS_RECORDED')).state, 'PS_TRANSFERS_RECORDED');
    t.is((await everyAccountTo(settlementId, 'PS_TRANSFERS_RESERVED')).state, 'PS_TRANSFERS_RESERVED');
    t.is(await position(a, 'BWP'), 100, "a net payer's position moves only when the settlement commits");
    t.is((await everyAccountTo(settlementId, 'PS_TRANSFERS_COMMITTED')).state, 'PS_TRANSFERS_COMMITTED');
    for (const participant of [a, b, c]) t.is(await position(participant, 'BWP'), 0, `${participant.name}'s position is reset by its net amount`);
    t.is((await everyAccountTo(settlementId, 'SETTLED')).state, 'SETTLED');
    const settledWindow = await settledAs(t, closed, ['BWP']);

    t.is((await pay(a, b, '100', 'BWP')).state, 'COMMITTED', 'the Net Debit Cap is free again');
    t.deepEqual((await checkLedger(hub.services.db)).violations, []);

    const workflow = hub.worker.client.workflow.getHandle(workflowIds.settlement(settlementId));
    const described = await pollUntil(
      () => workflow.describe(),
      (found) => found.status.name === 'COMPLETED',
    );
    t.is(described.typedSearchAttributes.get(State), 'SETTLED', 'the Temporal UI shows the settlement SETTLED');
    const windowWorkflow = await pollUntil(
      () => hub.worker.client.workflow.getHandle(workflowIds.settlementWindow(closed)).describe(),
      (found) => found.typedSearchAttributes.get(State) === settledWindow.state,
    );
    t.is(windowWorkflow.typedSearchAttributes.get(State), settledWindow.state, "the window's workflow follows its state");
  },
);

inTurn('a window is settled once: a second settlement of it is refused, and so is one of the open window', async (t) => {
  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  await pay(a, b, '10', 'BWP');
  const { closed, opened } = await closeOpenWindow('once');
  const first = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'first', settlementWindows: [{ id: closed }] });
  t.is(first.status, 200);
  const again = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'again', settlementWindows: [{ id: closed }] });
  t.is(again.status, 400);
  t.is(again.body.errorInformation.errorCode, '3100');
  t.regex(again.body.errorInformation.errorDescription, new RegExp(`Inapplicable windows ${closed}`));
  const open = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'open', settlementWindows: [{ id: opened }] });
  t.is(open.status, 400);
  const reclosed = await v2('POST', `/settlementWindows/${closed}`, { state: 'CLOSED', reason: 'twice' });
  t.is(reclosed.status, 400, 'a closed window cannot be closed again');
  t.regex(reclosed.body.errorInformation.errorDescription, /is not open/);
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(first.body.id, state);
});

inTurn('an aborted settlement leaves positions as they were and frees its window for another settlement', async (t) => {
  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  await pay(a, b, '30', 'BWP');
  const { closed } = await closeOpenWindow('abort');
  const settlement = (await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'to abort', settlementWindows: [{ id: closed }] })).body;
  await everyAccountTo(settlement.id, 'PS_TRANSFERS_RECORDED');
  await everyAccountTo(settlement.id, 'PS_TRANSFERS_RESERVED');
  const aborted = await v2('PUT', `/settlements/${settlement.id}`, { state: 'ABORTED', reason: 'bank rejected' });
  t.is(aborted.status, 200, JSON.stringify(aborted.body));
  t.like(aborted.body, { id: settlement.id, state: 'ABORTED' });
  t.is(await position(a, 'BWP'), 30, 'positions are untouched');
  t.is(await position(b, 'BWP'), -30, 'the reservation of the receiver is released');
  t.is((await v2('GET', `/settlementWindows/${closed}`)).body.state, 'ABORTED');
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);

  const again = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'second try', settlementWindows: [{ id: closed }] });
  t.is(again.status, 200, JSON.stringify(again.body));
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(again.body.id, state);
  t.is(await position(a, 'BWP'), 0);
  t.is(await position(b, 'BWP'), 0);
  const late = await v2('PUT', `/settlements/${again.body.id}`, { state: 'ABORTED', reason: 'too late' });
  t.is(late.status, 400, 'a settled settlement cannot be aborted');
});

inTurn(
  'IDs sent as strings, as tooling written against central-settlement sends them, are taken as its numbers: a settlement from its windows to SETTLED',
  async (t) => {
    const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
    await pay(a, b, '12', 'BWP');
    const { closed } = await closeOpenWindow('ids as strings');
    const created = await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'ids as strings', settlementWindows: [{ id: String(closed) }] });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.is(typeof created.body.id, 'number', 'answered with numbers, as central-settlement answers');
    t.deepEqual(
      created.body.settlementWindows.map((window: any) => window.id),
      [closed],
    );
    for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) {
      t.is((await everyAccountTo(created.body.id, state, String)).state, state === 'SETTLED' ? 'SETTLED' : state);
    }
    for (const participant of [a, b]) t.is(await position(participant, 'BWP'), 0);
  },
);

inTurn('an account may not skip a step: the refusal is in the answer (3000), the others move, the settlement waits', async (t) => {
  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  await pay(a, b, '5', 'BWP');
  const { closed } = await closeOpenWindow('steps');
  const settlement = (await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'steps', settlementWindows: [{ id: closed }] })).body;
  const [ofA, ofB] = [await inSettlement(settlement, a, 'BWP'), await inSettlement(settlement, b, 'BWP')];
  const answer = await v2('PUT', `/settlements/${settlement.id}`, {
    participants: [
      { id: ofA.participantId, accounts: [{ id: ofA.account.id, state: 'PS_TRANSFERS_RESERVED', reason: 'skip' }] },
      { id: ofB.participantId, accounts: [{ id: ofB.account.id, state: 'PS_TRANSFERS_RECORDED', reason: 'step' }] },
    ],
  });
  t.is(answer.status, 200);
  const refused = (await inSettlement(answer.body, a, 'BWP')).account;
  t.is(refused.errorInformation.errorCode, '3000');
  t.is((await inSettlement(answer.body, b, 'BWP')).account.state, 'PS_TRANSFERS_RECORDED');
  t.is(answer.body.state, 'PENDING_SETTLEMENT', 'the settlement waits for every account');
  const wrongParticipant = await v2('PUT', `/settlements/${settlement.id}/participants/${ofB.participantId}/accounts/${ofA.account.id}`, {
    state: 'PS_TRANSFERS_RECORDED',
    reason: 'not mine',
  });
  t.regex(JSON.stringify(wrongParticipant.body), /Participant and account mismatch/);
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(settlement.id, state);
});

inTurn('two currencies in one window: each is settled by its own model, and the window is SETTLED once both are', async (t) => {
  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  const [x, y] = [await dfsp('ZMW'), await dfsp('ZMW')];
  await pay(a, b, '7', 'BWP');
  await pay(x, y, '9', 'ZMW');
  const { closed } = await closeOpenWindow('two currencies');
  // Other test files' payments in other currencies may be in the window too, on a database they share (MariaDB).
  const content = (await v2('GET', `/settlementWindows/${closed}`)).body.content.map((row: any) => row.currencyId).sort();
  t.deepEqual(
    content.filter((currency: string) => currency === 'BWP' || currency === 'ZMW'),
    ['BWP', 'ZMW'],
  );
  const bwp = (await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'bwp', settlementWindows: [{ id: closed }] })).body;
  t.deepEqual(
    bwp.participants.flatMap((participant: any) => participant.accounts.map((account: any) => account.netSettlementAmount.currency)),
    ['BWP', 'BWP'],
  );
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(bwp.id, state);
  t.is((await v2('GET', `/settlementWindows/${closed}`)).body.state, 'PENDING_SETTLEMENT', 'ZMW is still to settle');
  const zmw = await v2('POST', '/settlements', { settlementModel: models.ZMW, reason: 'zmw', settlementWindows: [{ id: closed }] });
  t.is(zmw.status, 200, JSON.stringify(zmw.body));
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(zmw.body.id, state);
  await settledAs(t, closed, ['BWP', 'ZMW']);
  for (const [participant, currency] of [
    [a, 'BWP'],
    [b, 'BWP'],
    [x, 'ZMW'],
    [y, 'ZMW'],
  ] as const)
    t.is(await position(participant, currency), 0);
});

inTurn("the settlement's report lists each participant's net amount and transfer count, as JSON and as CSV", async (t) => {
  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  await pay(a, b, '12.5', 'BWP');
  await pay(a, b, '0.25', 'BWP');
  const { closed } = await closeOpenWindow('report');
  const settlement = (await v2('POST', '/settlements', { settlementModel: models.BWP, reason: 'report', settlementWindows: [{ id: closed }] })).body;
  const report = await v2('GET', `/settlements/${settlement.id}/report`);
  t.is(report.status, 200);
  t.like(
    report.body.lines.find((line: any) => line.participant === a.name),
    { currency: 'BWP', netSettlementAmount: '12.75', transferCount: 2 },
  );
  const csv = await fetch(`${hub.admin.url}/v2/settlements/${settlement.id}/report?format=csv`);
  t.is(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  const rows = (await csv.text()).trim().split('\r\n');
  t.is(rows[0], 'participant,participantId,accountId,currency,netSettlementAmount,transferCount,state');
  t.true(rows.some((row) => row.startsWith(`${b.name},`) && row.includes(',BWP,-12.75,2,PENDING_SETTLEMENT')));
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED']) await everyAccountTo(settlement.id, state);
});

inTurn("the operator's closing schedule (SETTLEMENT_WINDOW_CLOSE_CRON) closes the open window when it runs, and a changed cron moves it", async (t) => {
  const { client, taskQueue } = hub.worker;
  const schedule = client.schedule.getHandle(WINDOW_CLOSE_SCHEDULE_ID);
  await ensureSettlementWindows(client, taskQueue, hub.services.settlementWindows, '0 18 * * *');
  const next = (await schedule.describe()).info.nextActionTimes[0];
  t.deepEqual([next.getUTCHours(), next.getUTCMinutes()], [18, 0], 'the next close is at 18:00');

  const [a, b] = [await dfsp('BWP'), await dfsp('BWP')];
  t.is((await pay(a, b, '3', 'BWP')).state, 'COMMITTED');
  const [open] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
  // What the schedule does at 18:00, now: the operator's "trigger" in the Temporal UI.
  await schedule.trigger();
  const closed = await pollUntil(
    async () => (await v2('GET', `/settlementWindows/${open.settlementWindowId}`)).body,
    (window) => window.state === 'CLOSED',
  );
  t.is(closed.state, 'CLOSED', 'the window holding the payment is closed by the schedule');
  t.is(closed.reason, 'scheduled close');
  const [successor] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
  t.true(successor.settlementWindowId > open.settlementWindowId, 'and the next window is open');

  await ensureSettlementWindows(client, taskQueue, hub.services.settlementWindows, '30 6 * * *');
  const moved = (await schedule.describe()).info.nextActionTimes[0];
  t.deepEqual([moved.getUTCHours(), moved.getUTCMinutes()], [6, 30], 'a worker started with another cron changes the schedule');
  await schedule.delete();
});

test('queries need a filter, and an unknown window or settlement is a 400 with 3100, as central-settlement answers', async (t) => {
  for (const path of ['/settlementWindows', '/settlements']) {
    const answer = await v2('GET', path);
    t.is(answer.status, 400, path);
    t.regex(answer.body.errorInformation.errorDescription, /Use at least one parameter/);
  }
  t.is((await v2('GET', '/settlementWindows/999999')).body.errorInformation.errorCode, '3100');
  t.is((await v2('GET', '/settlements/999999')).body.errorInformation.errorCode, '3100');
  t.is((await v2('POST', '/settlementWindows/1', { state: 'OPEN', reason: 'x' })).body.errorInformation.errorCode, '3100');
  t.is((await v2('GET', '/health')).status, 200);
});
