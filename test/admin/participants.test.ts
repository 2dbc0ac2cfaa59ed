import test from 'ava';
import { deferredNetModelBody } from '../helpers/adminBodies';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { loadConfig } from '../../activities/shared/platform/config';
import { openHubServices } from '../../activities/hub/hubServices';
import { testDatabaseUrl, uniqueName } from '../helpers/database';
import { THIRDPARTY_ENDPOINT_TYPES } from '../../activities/shared/contracts/endpoints';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

test('the Hub participant exists from first start', async (t) => {
  const { status, body } = await admin.call('GET', `/participants/${HUB_NAME}`);
  t.is(status, 200);
  t.is(body.name, HUB_NAME);
  t.is(body.isActive, 1);
});

test('a new participant is returned inactive with POSITION and SETTLEMENT accounts in its currency', async (t) => {
  const name = uniqueName();
  const { status, body } = await admin.call('POST', '/participants', { name, currency: 'USD' });
  t.is(status, 200);
  t.is(body.name, name);
  t.is(body.isActive, 0);
  t.is(body.id, `${admin.url}/participants/${name}`);
  t.deepEqual(body.links, { self: `${admin.url}/participants/${name}` });
  t.deepEqual(body.accounts.map((a: any) => [a.ledgerAccountType, a.currency, a.isActive]).sort(), [
    ['POSITION', 'USD', 1],
    ['SETTLEMENT', 'USD', 1],
  ]);
});

test('creating a participant gives the hub its HUB_RECONCILIATION and HUB_MULTILATERAL_SETTLEMENT accounts in that currency', async (t) => {
  await admin.call('POST', '/participants', { name: uniqueName(), currency: 'TZS' });
  const { body } = await admin.call('GET', `/participants/${HUB_NAME}`);
  const types = body.accounts
    .filter((a: any) => a.currency === 'TZS')
    .map((a: any) => a.ledgerAccountType)
    .sort();
  t.deepEqual(types, ['HUB_MULTILATERAL_SETTLEMENT', 'HUB_RECONCILIATION']);
});

test('posting an existing participant with a new currency adds that currency; the same currency again is rejected', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const added = await admin.call('POST', '/participants', { name, currency: 'EUR' });
  t.is(added.status, 200);
  t.deepEqual([...new Set(added.body.accounts.map((a: any) => a.currency))].sort(), ['EUR', 'USD']);
  const again = await admin.call('POST', '/participants', { name, currency: 'EUR' });
  t.is(again.status, 400);
  t.is(again.body.errorInformation.errorCode, '3000');
});

test('participants are listed, and one is fetched by name', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const list = await admin.call('GET', '/participants');
  t.is(list.status, 200);
  t.true(list.body.some((p: any) => p.name === name));
  const one = await admin.call('GET', `/participants/${name}`);
  t.is(one.body.name, name);
});

test('a participant is activated and deactivated with PUT isActive', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const active = await admin.call('PUT', `/participants/${name}`, { isActive: true });
  t.is(active.status, 200);
  t.is(active.body.isActive, 1);
  const inactive = await admin.call('PUT', `/participants/${name}`, { isActive: false });
  t.is(inactive.body.isActive, 0);
});

test('an endpoint is added, then updated in place, and endpoints are listed with their templates', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const type = 'FSPIOP_CALLBACK_URL_TRANSFER_PUT';
  const first = await admin.call('POST', `/participants/${name}/endpoints`, { type, value: 'http://old/transfers/{{transferId}}' });
  t.is(first.status, 201);
  t.is(first.body, undefined);
  await admin.call('POST', `/participants/${name}/endpoints`, { type, value: 'http://dfsp/transfers/{{transferId}}' });
  await admin.call('POST', `/participants/${name}/endpoints`, { type: 'FSPIOP_CALLBACK_URL_QUOTES', value: 'http://dfsp' });
  const { status, body } = await admin.call('GET', `/participants/${name}/endpoints`);
  t.is(status, 200);
  t.deepEqual(body, [
    { type, value: 'http://dfsp/transfers/{{transferId}}' },
    { type: 'FSPIOP_CALLBACK_URL_QUOTES', value: 'http://dfsp' },
  ]);
});

test('every third-party endpoint type is accepted as Mojaloop provisions it (a base address) and listed back', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  for (const type of THIRDPARTY_ENDPOINT_TYPES) {
    const added = await admin.call('POST', `/participants/${name}/endpoints`, { type, value: 'http://pisp-sdk:4005' });
    t.is(added.status, 201, type);
  }
  const { body } = await admin.call('GET', `/participants/${name}/endpoints`);
  t.deepEqual(
    body,
    THIRDPARTY_ENDPOINT_TYPES.map((type) => ({ type, value: 'http://pisp-sdk:4005' })),
  );
});

test('an unknown endpoint type is a validation error', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const { status, body } = await admin.call('POST', `/participants/${name}/endpoints`, { type: 'NOT_A_TYPE', value: 'http://x' });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3100');
});

test('initial position and Net Debit Cap are set once; limits are read per participant and for all, and adjusted', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const initial = await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 10000 },
    initialPosition: 0,
  });
  t.is(initial.status, 201);
  const twice = await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 10000 },
  });
  t.is(twice.status, 400);

  const own = await admin.call('GET', `/participants/${name}/limits`);
  t.deepEqual(own.body, [{ currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 10000, alarmPercentage: 10 } }]);

  const adjusted = await admin.call('PUT', `/participants/${name}/limits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 2500.5, alarmPercentage: 20 },
  });
  t.is(adjusted.status, 200);
  t.deepEqual(adjusted.body, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 2500.5, alarmPercentage: 20 } });

  const all = await admin.call('GET', '/participants/limits?currency=USD&limit=NET_DEBIT_CAP');
  t.deepEqual(
    all.body.find((l: any) => l.name === name),
    { name, currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 2500.5, alarmPercentage: 20 } },
  );
  const otherCurrency = await admin.call('GET', `/participants/${name}/limits?currency=EUR`);
  t.deepEqual(otherCurrency.body, []);
});

test('adjusting a limit that was never set is 400 with a 3200-series code', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const { status, body } = await admin.call('PUT', `/participants/${name}/limits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 100, alarmPercentage: 10 },
  });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3200');
});

test('a non-zero initial position shows in positions and is balanced by the hub', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'XOF' });
  await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'XOF',
    limit: { type: 'NET_DEBIT_CAP', value: 1000 },
    initialPosition: 150.25,
  });
  const position = await admin.call('GET', `/participants/${name}/positions?currency=XOF`);
  t.is(position.status, 200);
  t.is(position.body.currency, 'XOF');
  t.is(position.body.value, 150.25);
  t.truthy(position.body.changedDate);
  const all = await admin.call('GET', `/participants/${name}/positions`);
  t.deepEqual(
    all.body.map((p: any) => [p.currency, p.value]),
    [['XOF', 150.25]],
  );
});

test("every participant's positions in one answer (GET /participants/positions, for the console), by currency if asked", async (t) => {
  const [first, second] = [uniqueName(), uniqueName()];
  for (const [name, initialPosition] of [
    [first, 20],
    [second, 35.5],
  ] as const) {
    await admin.call('POST', '/participants', { name, currency: 'XAF' });
    await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
      currency: 'XAF',
      limit: { type: 'NET_DEBIT_CAP', value: 1000 },
      initialPosition,
    });
  }
  const all = await admin.call('GET', '/participants/positions?currency=XAF');
  t.is(all.status, 200);
  const mine = all.body.filter((p: any) => p.name === first || p.name === second).map((p: any) => [p.name, p.currency, p.value]);
  t.deepEqual(mine, [
    [first, 'XAF', 20],
    [second, 'XAF', 35.5],
  ]);
  t.true(all.body.every((p: any) => p.currency === 'XAF'));
});

test('hub accounts are created on the Hub participant only', async (t) => {
  // A currency the hub has no account in yet (the MySQL run shares one database between test files and runs).
  const before = await admin.call('GET', `/participants/${HUB_NAME}`);
  const used = new Set(before.body.accounts.map((a: any) => a.currency));
  const currency = ['KES', 'UGX', 'RWF', 'ZMW', 'MWK', 'NGN', 'BWP', 'NAD', 'LSL', 'SZL', 'MGA', 'MUR', 'SCR', 'CDF', 'BIF'].find((c) => !used.has(c))!;
  const created = await admin.call('POST', `/participants/${HUB_NAME}/accounts`, { currency, type: 'HUB_RECONCILIATION' });
  t.is(created.status, 200);
  t.true(created.body.accounts.some((a: any) => a.currency === currency && a.ledgerAccountType === 'HUB_RECONCILIATION'));
  const duplicate = await admin.call('POST', `/participants/${HUB_NAME}/accounts`, { currency, type: 'HUB_RECONCILIATION' });
  t.is(duplicate.status, 400);
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const onDfsp = await admin.call('POST', `/participants/${name}/accounts`, { currency: 'USD', type: 'HUB_RECONCILIATION' });
  t.is(onDfsp.status, 400);
});

test('an account is deactivated and reactivated with PUT isActive', async (t) => {
  const name = uniqueName();
  const { body } = await admin.call('POST', '/participants', { name, currency: 'USD' });
  const id = body.accounts[0].id;
  const off = await admin.call('PUT', `/participants/${name}/accounts/${id}`, { isActive: false });
  t.is(off.status, 200);
  t.is((await admin.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.id === id).isActive, 0);
  await admin.call('PUT', `/participants/${name}/accounts/${id}`, { isActive: true });
  t.is((await admin.call('GET', `/participants/${name}/accounts`)).body.find((a: any) => a.id === id).isActive, 1);
});

test('settlement models are created, listed, read and deactivated', async (t) => {
  const name = uniqueName('model');
  const model = deferredNetModelBody(name, 'USD');

  t.is((await admin.call('POST', '/settlementModels', model)).status, 201);
  t.is((await admin.call('POST', '/settlementModels', model)).status, 400);
  const list = await admin.call('GET', '/settlementModels');
  t.true(list.body.some((m: any) => m.name === name && m.isActive === true));
  const one = await admin.call('GET', `/settlementModels/${name}`);
  t.like(one.body, { ...model, isActive: true });
  const off = await admin.call('PUT', `/settlementModels/${name}`, { isActive: false });
  t.is(off.body.isActive, false);
  t.is((await admin.call('GET', '/settlementModels/nosuchmodel')).status, 400);
});

test('ledger account types include the standard ones', async (t) => {
  const { status, body } = await admin.call('GET', '/ledgerAccountTypes');
  t.is(status, 200);
  const names = body.map((type: any) => type.name);
  for (const name of ['POSITION', 'SETTLEMENT', 'HUB_RECONCILIATION', 'HUB_MULTILATERAL_SETTLEMENT']) t.true(names.includes(name));
});

test('health reports the datastore and metrics are in Prometheus text format', async (t) => {
  const health = await admin.call('GET', '/health');
  t.is(health.status, 200);
  t.is(health.body.status, 'OK');
  t.deepEqual(health.body.services, [{ name: 'datastore', status: 'OK' }]);
  const metrics = await admin.call('GET', '/metrics');
  t.is(metrics.status, 200);
  t.regex(metrics.body, /process_cpu_seconds_total/);
});

test('limits and initial positions written as numeric strings, as Mojaloop onboarding sends them, are taken exactly', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const initial = await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: '10000' },
    initialPosition: '0',
  });
  t.is(initial.status, 201);
  const adjusted = await admin.call('PUT', `/participants/${name}/limits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: '4000.00', alarmPercentage: '10' },
  });
  t.is(adjusted.status, 200);
  t.deepEqual(adjusted.body, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: 4000, alarmPercentage: 10 } });
  const tooPrecise = await admin.call('PUT', `/participants/${name}/limits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: '4000.00001', alarmPercentage: '10' },
  });
  t.is(tooPrecise.status, 400);
  t.is(tooPrecise.body.errorInformation.errorCode, '3100');
  t.is((await admin.call('GET', `/participants/${name}/limits`)).body[0].limit.value, 4000, 'the refused value changed nothing');
});

test('a Net Debit Cap written as a JSON number with more decimals than a double keeps is refused (3100), not rounded by the parser', async (t) => {
  const name = uniqueName();
  await admin.call('POST', '/participants', { name, currency: 'USD' });
  const initial = '{"currency":"USD","limit":{"type":"NET_DEBIT_CAP","value":10000.000000000000001},"initialPosition":0}';
  const refusedInitial = await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, initial);
  t.is(refusedInitial.status, 400);
  t.is(refusedInitial.body.errorInformation.errorCode, '3100');
  t.deepEqual((await admin.call('GET', `/participants/${name}/limits`)).body, [], 'nothing was set');

  t.is((await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, initial.replace('10000.000000000000001', '10000'))).status, 201);
  for (const text of [
    '{"currency":"USD","limit":{"type":"NET_DEBIT_CAP","value":4000.0000000000000001,"alarmPercentage":10}}',
    '{"currency":"USD","limit":{"type":"NET_DEBIT_CAP","value":4000,"alarmPercentage":10.0000000000000000001}}',
  ]) {
    const refused = await admin.call('PUT', `/participants/${name}/limits`, text);
    t.is(refused.status, 400, text);
    t.is(refused.body.errorInformation.errorCode, '3100', text);
  }
  t.is((await admin.call('GET', `/participants/${name}/limits`)).body[0].limit.value, 10000, 'the refused values changed nothing');
});

test('with NEW_PARTICIPANTS_ACTIVE=true a new participant is created active, as central-ledger creates it', async (t) => {
  const config = loadConfig({ NEW_PARTICIPANTS_ACTIVE: 'true' });
  t.true(config.newParticipantsActive);
  t.false(loadConfig({}).newParticipantsActive, 'Document 3 behaviour by default');
  const services = await openHubServices({ databaseUrl: testDatabaseUrl(), hubParticipantName: HUB_NAME, newParticipantsActive: config.newParticipantsActive });
  const centralLedgerLike = await startAdmin(services);
  try {
    const name = uniqueName();
    const { status, body } = await centralLedgerLike.call('POST', '/participants', { name, currency: 'USD' });
    t.is(status, 200);
    t.is(body.isActive, 1);
  } finally {
    await centralLedgerLike.close();
    await services.db.close();
  }
});
