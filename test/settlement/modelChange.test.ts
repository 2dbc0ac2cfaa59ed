import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { deferredNetModelBody, immediateGrossModelBody } from '../helpers/adminBodies';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, modelActive, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// A currency whose settlement model an operator changes while a window is open: each payment is settled once, by the
// model it committed under. One settled gross as it committed is in no net settlement; one a deferred net model left
// to the window is settled by that model's net settlement, even after the currency moved to gross. Each direction has
// a currency no other test pays in, so the models act on this file's participants alone when test files share a
// database; each test sets its currency's models as it starts, so a second run on that database starts the same.

let hub: SwitchHarness;
let payments: FulfillingPayees;
let admin: AdminCall;

useSwitch(
  test,
  (started) => {
    hub = started;
    payments = new FulfillingPayees(hub);
    admin = (method, path, body) => hub.admin.call(method, path, body);
  },
  { namespace: `settlement-${crypto.randomUUID()}` },
);

/** A currency's gross and net models, the gross one active or the net one. */
async function settledBy(currency: string, active: 'gross' | 'net'): Promise<{ gross: string; net: string }> {
  const names = { gross: `GROSSTHENNET${currency}`, net: `NETTHENGROSS${currency}` };
  // The one to leave inactive first: a currency has one active model at a time.
  await modelActive(admin, active === 'gross' ? deferredNetModelBody(names.net, currency) : immediateGrossModelBody(names.gross, currency), false);
  await modelActive(admin, active === 'gross' ? immediateGrossModelBody(names.gross, currency) : deferredNetModelBody(names.net, currency), true);
  return names;
}

const dfsp = async (currency: string) => payments.fulfils(await hub.provision({ currency, netDebitCap: 1_000, fundsIn: 1_000 }));

/** What the settlement nets for a DFSP's position account, as its answer shows it. */
async function netOf(settlement: any, dfsp: SimulatedDfsp, currency: string): Promise<number | undefined> {
  const accounts = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body;
  const accountId = accounts.find((account: any) => account.ledgerAccountType === 'POSITION' && account.currency === currency).id;
  const account = settlement.participants.flatMap((participant: any) => participant.accounts).find((entry: any) => entry.id === accountId);
  return account?.netSettlementAmount.amount;
}

const inTurn = (title: string, body: (t: ExecutionContext) => Promise<void>) => test.serial(title, (t) => closingWindowsInTurn(hub.services.db, () => body(t)));

inTurn('a payment settled gross, then the currency moved to deferred net in the same window: the net settlement takes only the later payment', async (t) => {
  const currency = 'AOA';
  await settledBy(currency, 'gross');
  const [payer, payee] = [await dfsp(currency), await dfsp(currency)];
  t.is((await payments.pay(payer, payee, '10', currency)).state, 'COMMITTED');
  t.is(await hub.position(payer, currency), 0, 'settled gross as it committed: the payment left both positions again');

  const { net } = await settledBy(currency, 'net');
  t.is((await payments.pay(payer, payee, '7', currency)).state, 'COMMITTED');
  t.is(await hub.position(payer, currency), 7);

  const settlement = await settleOpenWindow(admin, net);
  t.is(settlement.state, 'SETTLED');
  t.is(await netOf(settlement, payer, currency), 7, 'the gross payment of 10 is not netted again');
  t.is(await netOf(settlement, payee, currency), -7);
  t.is(await hub.position(payer, currency), 0, "the payer's position returns to zero, not below it");
  t.is(await hub.position(payee, currency), 0);
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

inTurn(
  "a payment left to the window by a deferred net model, then the currency moved to gross: that model's net settlement still takes it, once",
  async (t) => {
    const currency = 'ETB';
    const { net } = await settledBy(currency, 'net');
    const [payer, payee] = [await dfsp(currency), await dfsp(currency)];
    t.is((await payments.pay(payer, payee, '10', currency)).state, 'COMMITTED');
    t.is(await hub.position(payer, currency), 10, 'left to the window');

    await settledBy(currency, 'gross');
    t.is((await payments.pay(payer, payee, '7', currency)).state, 'COMMITTED');
    t.is(await hub.position(payer, currency), 10, 'the gross payment is settled as it commits: the position keeps only the net payment');

    const settlement = await settleOpenWindow(admin, net);
    t.is(settlement.state, 'SETTLED', 'the model the payment committed under settles it, though no longer active');
    t.is(await netOf(settlement, payer, currency), 10, 'the gross payment of 7 is not in it');
    t.is(await netOf(settlement, payee, currency), -10);
    t.is(await hub.position(payer, currency), 0);
    t.is(await hub.position(payee, currency), 0);
    t.deepEqual((await checkLedger(hub.services.db)).violations, []);
  },
);
