import test from 'ava';
import type { SettlementModel } from '../../../../../activities/hub/db/entities';
import { accountModelFor, grossModelFor, netModelFor } from '../../../../../activities/hub/settlement/models';

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
