import test from 'ava';
import type { SettlementModel } from '../../activities/hub/db/entities';
import { grossModelFor, netModelFor } from '../../activities/hub/settlement/models';

const model = (name: string, settlementGranularity: 'GROSS' | 'NET', currency: string | null, extra: Partial<SettlementModel> = {}) =>
  ({
    name,
    settlementGranularity,
    settlementDelay: settlementGranularity === 'NET' ? 'DEFERRED' : 'IMMEDIATE',
    currency,
    isActive: true,
    ledgerAccountType: 'POSITION',
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
