import crypto from 'node:crypto';
import test from 'ava';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

test('GET /transactions/{ID} reaches the FSP in FSPIOP-Destination and its PUT comes back to the asker unchanged', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const id = crypto.randomUUID();
  const ack = await hub.fspiop('GET', `/transactions/${id}`, { source: payer.name, destination: payee.name, version: '1.0' });
  t.is(ack.status, 202);
  const get = await payee.waitFor((r) => r.method === 'GET' && r.path === `/transactions/${id}`);
  t.is(get.headers['fspiop-source'], payer.name);
  const answer = JSON.stringify({ transactionState: 'COMPLETED', completedTimestamp: new Date().toISOString(), code: 'VOUCHER1' });
  const ok = await hub.fspiop('PUT', `/transactions/${id}`, {
    source: payee.name,
    destination: payer.name,
    body: answer,
    headers: { 'fspiop-signature': 'payee' },
  });
  t.is(ok.status, 200);
  const passed = await payer.waitFor(isPut(`/transactions/${id}`));
  t.is(passed.raw, answer);
  t.is(passed.headers['fspiop-signature'], 'payee');
});

test('PUT /transactions/{ID}/error reaches the FSP in FSPIOP-Destination', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const id = crypto.randomUUID();
  const failure = { errorInformation: { errorCode: '3207', errorDescription: 'Transaction ID not found' } };
  await hub.fspiop('PUT', `/transactions/${id}/error`, { source: payee.name, destination: payer.name, body: failure });
  t.deepEqual((await payer.waitFor(isPut(`/transactions/${id}/error`))).body, failure);
});

test('a GET /transactions without FSPIOP-Destination gets error 3100, one to an unknown FSP 1001', async (t) => {
  const payer = await hub.provision();
  const undirected = crypto.randomUUID();
  await hub.fspiop('GET', `/transactions/${undirected}`, { source: payer.name });
  t.is((await payer.waitFor(isPut(`/transactions/${undirected}/error`))).body.errorInformation.errorCode, '3100');
  const unknown = crypto.randomUUID();
  await hub.fspiop('GET', `/transactions/${unknown}`, { source: payer.name, destination: 'nosuchfsp' });
  t.is((await payer.waitFor(isPut(`/transactions/${unknown}/error`))).body.errorInformation.errorCode, '1001');
});

test('a PUT /transactions/{ID} that breaks its schema is refused synchronously', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  const refused = await hub.fspiop('PUT', `/transactions/${crypto.randomUUID()}`, {
    source: payee.name,
    destination: payer.name,
    body: { transactionState: 'DONE' },
  });
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '3100');
});
