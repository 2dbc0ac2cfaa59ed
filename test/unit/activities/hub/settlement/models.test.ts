import test from 'ava';
import type { SettlementModel } from '../../../../../activities/hub/db/entities';
import { accountModelFor, grossModelFor, netModelFor, unsettledUnder, windowModelFor } from '../../../../../activities/hub/settlement/models';

const model = (name: string, settlementGranularity: 'GROSS' | 'NET', currency: string | null, extra: Partial<SettlementModel> = {}) =>
  ({
    name,
    settlementGranularity,
    settlementDelay: settlementGranularity === 'NET' ? 'DEFERRED' : 'IMMEDIATE',
    currency,
    isActive: true,
    ledgerAccountType: 'POSITION',
    settlementAccountType: 'SETTLEMENT',
    ...extra,
  }) as SettlementModel;

test("a currency's own model settles it; the default model settles every currency no model names", (t) => {
  const models = [model('DEFAULTNET', 'NET', null), model('GROSSUSD', 'GROSS', 'USD')];
  t.is(grossModelFor(models, 'USD')?.name, 'GROSSUSD');
  t.is(netModelFor(models, 'USD'), undefined, 'a currency settled gross is in no net settlement');
  t.is(netModelFor(models, 'EUR')?.name, 'DEFAULTNET');
  t.is(grossModelFor(models, 'EUR'), undefined);
});

test('an inactive model, or one for another ledger account type, settles nothing', (t) => {
  const models = [model('OFF', 'NET', 'USD', { isActive: false }), model('FEES', 'NET', 'EUR', { ledgerAccountType: 'INTERCHANGE_FEE' })];
  t.is(netModelFor(models, 'USD'), undefined);
  t.is(netModelFor(models, 'EUR'), undefined);
});

test('without any model a currency is settled neither way: the hub keeps positions as they are', (t) => {
  t.is(netModelFor([], 'USD'), undefined);
  t.is(grossModelFor([], 'USD'), undefined);
});

test("an account's model: its currency's position model for the POSITION account and the settlement account it moves, none for other accounts", (t) => {
  const models = [model('GROSSUSD', 'GROSS', 'USD'), model('NETEUR', 'NET', 'EUR', { settlementAccountType: 'INTERCHANGE_FEE_SETTLEMENT' })];
  t.is(accountModelFor(models, { ledgerAccountType: 'POSITION', currency: 'USD' })?.name, 'GROSSUSD');
  t.is(accountModelFor(models, { ledgerAccountType: 'SETTLEMENT', currency: 'USD' })?.name, 'GROSSUSD');
  t.is(accountModelFor(models, { ledgerAccountType: 'SETTLEMENT', currency: 'EUR' }), undefined, 'EUR settles into another account type');
  t.is(accountModelFor(models, { ledgerAccountType: 'INTERCHANGE_FEE_SETTLEMENT', currency: 'EUR' })?.name, 'NETEUR');
  t.is(accountModelFor(models, { ledgerAccountType: 'POSITION', currency: 'KES' }), undefined, 'no model for KES, and no default');
});

// A window's payments record the model each committed under (null: none settled its currency then); the models here
// are every model, active or not, as an operator left them.
const GROSS = model('GROSSUSD', 'GROSS', 'USD', { settlementModelId: 1 });
const NET = model('NETUSD', 'NET', 'USD', { settlementModelId: 2 });
const inactive = (settled: SettlementModel) => ({ ...settled, isActive: false });

test('payments a gross model settled as they committed are left to no net settlement, whatever model the currency has now', (t) => {
  t.deepEqual(unsettledUnder([GROSS, NET], [1, 2, null]), [2, null]);
  t.is(windowModelFor([inactive(GROSS), NET], 'USD', [1]), undefined, 'a window of gross payments alone has nothing to net');
});

test('gross, then net in the same window: the net model settles the payments made under it, not those settled gross', (t) => {
  const models = [inactive(GROSS), NET];
  t.is(windowModelFor(models, 'USD', [1, 2])?.name, 'NETUSD');
  t.deepEqual(unsettledUnder(models, [1, 2]), [2]);
});

test('net, then gross in the same window: the net model, inactive now, still settles what it left to the window', (t) => {
  const models = [GROSS, inactive(NET)];
  t.is(windowModelFor(models, 'USD', [2, 1])?.name, 'NETUSD');
  t.deepEqual(unsettledUnder(models, [2, 1]), [2]);
  t.is(windowModelFor([inactive(GROSS), inactive(NET)], 'USD', [2])?.name, 'NETUSD', 'and so when the currency is left with no model at all');
});

test('payments under no model fall to the net model the currency has when the window is settled, and to none without one', (t) => {
  t.is(windowModelFor([NET], 'USD', [null])?.name, 'NETUSD');
  t.is(windowModelFor([inactive(NET)], 'USD', [null]), undefined, 'a currency no model settles stays unsettled');
  t.is(windowModelFor([], 'USD', [null]), undefined);
});

test("the currency's net model now settles payments left by another net model; without one, the latest they committed under", (t) => {
  const older = model('OLDNET', 'NET', null, { settlementModelId: 3, isActive: false });
  const newer = model('NEWNET', 'NET', 'USD', { settlementModelId: 4, isActive: false });
  t.is(windowModelFor([NET, older], 'USD', [3])?.name, 'NETUSD');
  t.is(windowModelFor([GROSS, older, newer], 'USD', [3, 4, 1])?.name, 'NEWNET');
});
