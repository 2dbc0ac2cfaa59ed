import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel } from '../helpers/settlementCycle';
import { useSwitch, type SwitchHarness } from '../helpers/switchHarness';

// Every route of Mojaloop's settlement API (/v2) walked with its IDs sent as numbers, then as strings, as tooling
// written against central-settlement sends them: central-settlement's validation converts values to the document's
// types, so both must work, and the answers carry numbers either way. A currency no other test file settles keeps the
// settlements to this file's participants on a database test files share.

const CURRENCY = 'GMD';
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
  { namespace: `settlement-ids-${crypto.randomUUID()}` },
);

/** A /v2 call that must succeed; answers its body. */
async function v2(t: ExecutionContext, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await hub.admin.call(method, `/v2${path}`, body);
  t.is(answer.status, 200, `${method} /v2${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The IDs a settlement answer carries, each of which central-settlement answers as a number. */
function idsOf(settlement: any): unknown[] {
  return [
    settlement.id,
    ...settlement.settlementWindows.map((window: any) => window.id),
    ...settlement.participants.flatMap((participant: any) => [participant.id, ...participant.accounts.map((account: any) => account.id)]),
  ];
}

const FORMS = { numbers: (id: number): number | string => id, strings: (id: number): number | string => String(id) };

for (const [form, sent] of Object.entries(FORMS)) {
  test.serial(`every /v2 route takes its IDs as ${form}, and answers them as numbers`, (t) =>
    closingWindowsInTurn(hub.services.db, async () => {
      const [payer, payee] = [await hub.provision({ currency: CURRENCY, fundsIn: 1_000 }), await hub.provision({ currency: CURRENCY, fundsIn: 1_000 })];
      payments.fulfils(payee);
      t.is((await payments.pay(payer, payee, '7.5', CURRENCY)).state, 'COMMITTED');

      const [open] = await v2(t, 'GET', `/settlementWindows?state=OPEN&currency=${CURRENCY}`);
      const windowId: number = open.settlementWindowId;
      const opened = await v2(t, 'POST', `/settlementWindows/${sent(windowId)}`, { state: 'CLOSED', reason: `ids as ${form}` });
      t.is(typeof opened.settlementWindowId, 'number');
      t.is((await v2(t, 'GET', `/settlementWindows/${sent(windowId)}`)).state, 'CLOSED');

      let settlement = await v2(t, 'POST', '/settlements', { settlementModel: model, reason: form, settlementWindows: [{ id: sent(windowId) }] });
      t.true(
        idsOf(settlement).every((id) => typeof id === 'number'),
        JSON.stringify(settlement),
      );
      const sid = settlement.id as number;
      const accounts: Array<{ pid: number; aid: number }> = settlement.participants.flatMap((participant: any) =>
        participant.accounts.map((account: any) => ({ pid: participant.id, aid: account.id })),
      );
      t.is(accounts.length, 2, 'the payer and the payee, each with one position account');

      const [{ pid, aid }] = accounts;
      const byWindow = await v2(t, 'GET', `/settlementWindows?participantId=${sent(pid)}&state=PENDING_SETTLEMENT&currency=${CURRENCY}`);
      t.true(byWindow.some((window: any) => window.settlementWindowId === windowId));
      for (const query of [`settlementWindowId=${sent(windowId)}`, `participantId=${sent(pid)}`, `accountId=${sent(aid)}`]) {
        t.true(
          (await v2(t, 'GET', `/settlements?${query}`)).some((found: any) => found.id === sid),
          query,
        );
      }
      t.is((await v2(t, 'GET', `/settlements/${sent(sid)}`)).id, sid);
      t.deepEqual(
        (await v2(t, 'GET', `/settlements/${sent(sid)}/participants/${sent(pid)}`)).participants.map((p: any) => p.id),
        [pid],
      );
      const accountView = await v2(t, 'GET', `/settlements/${sent(sid)}/participants/${sent(pid)}/accounts/${sent(aid)}`);
      t.deepEqual(
        accountView.participants[0].accounts.map((account: any) => account.id),
        [aid],
      );

      // One step by each of the three PUTs, and the last by the first again.
      const step = (state: string) => ({ state, reason: `${state} by ${form}` });
      const everyAccount = (state: string) =>
        [...new Set(accounts.map((account) => account.pid))].map((participant) => ({
          id: sent(participant),
          accounts: accounts.filter((account) => account.pid === participant).map((account) => ({ id: sent(account.aid), ...step(state) })),
        }));
      settlement = await v2(t, 'PUT', `/settlements/${sent(sid)}`, { participants: everyAccount('PS_TRANSFERS_RECORDED') });
      t.is(settlement.state, 'PS_TRANSFERS_RECORDED');
      for (const account of accounts) {
        await v2(t, 'PUT', `/settlements/${sent(sid)}/participants/${sent(account.pid)}`, {
          accounts: [{ id: sent(account.aid), ...step('PS_TRANSFERS_RESERVED') }],
        });
      }
      t.is((await v2(t, 'GET', `/settlements/${sid}`)).state, 'PS_TRANSFERS_RESERVED');
      for (const account of accounts) {
        await v2(t, 'PUT', `/settlements/${sent(sid)}/participants/${sent(account.pid)}/accounts/${sent(account.aid)}`, step('PS_TRANSFERS_COMMITTED'));
      }
      t.is((await v2(t, 'GET', `/settlements/${sid}`)).state, 'PS_TRANSFERS_COMMITTED');
      settlement = await v2(t, 'PUT', `/settlements/${sent(sid)}`, { participants: everyAccount('SETTLED') });
      t.is(settlement.state, 'SETTLED');
      t.true(idsOf(settlement).every((id) => typeof id === 'number'));

      const report = await v2(t, 'GET', `/settlements/${sent(sid)}/report`);
      t.deepEqual(report.lines.map((line: any) => line.netSettlementAmount).sort(), ['-7.5', '7.5']);
      for (const participant of [payer, payee]) t.is(await hub.position(participant, CURRENCY), 0);
    }),
  );
}

test('an ID that is not a whole number is refused as central-settlement refuses it: 400, 3101', async (t) => {
  for (const path of ['/settlements/abc', '/settlementWindows/1.5', '/settlements?participantId=two']) {
    const answer = await hub.admin.call('GET', `/v2${path}`);
    t.is(answer.status, 400, path);
    t.is(answer.body.errorInformation.errorCode, '3101', path);
  }
  const body = await hub.admin.call('POST', '/v2/settlements', { settlementModel: model, reason: 'x', settlementWindows: [{ id: 'one' }] });
  t.is(body.status, 400);
  t.is(body.body.errorInformation.errorCode, '3101');
});
