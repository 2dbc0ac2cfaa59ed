import test from 'ava';
import { transferBody } from '../helpers/fspiopBodies';
import { startSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let payer: string;
let payee: string;
test.before(async () => {
  hub = await startSwitch();
  payer = (await hub.provision()).name;
  payee = (await hub.provision()).name;
});
test.after.always(async () => {
  await hub?.close();
});

const post = (body: unknown, headers: Record<string, string | undefined> = {}, version?: string) =>
  hub.fspiop('POST', '/transfers', { source: payer, destination: payee, body, headers, version });

test('requests are acknowledged 202 at once and callbacks 200', async (t) => {
  const body = transferBody(payer, payee, '1');
  t.is((await post(body)).status, 202);
  const put = await hub.fspiop('PUT', `/transfers/${body.transferId}/error`, {
    source: payee,
    destination: payer,
    body: { errorInformation: { errorCode: '5000', errorDescription: 'Generic payee error' } },
  });
  t.is(put.status, 200);
});

test('versions 1.0 and 1.1 are accepted; any other is 406 with 3001', async (t) => {
  t.is((await post(transferBody(payer, payee, '1'), {}, '1.0')).status, 202);
  const unsupported = await post(transferBody(payer, payee, '1'), {}, '2.0');
  t.is(unsupported.status, 406);
  t.is(unsupported.body.errorInformation.errorCode, '3001');
});

test('a request without Content-Type, Date or FSPIOP-Source is 400 with 3102; an Accept naming no FSPIOP media type is 3101', async (t) => {
  const anyType = await post(transferBody(payer, payee, '1'), { accept: '*/*' });
  t.is(anyType.status, 400);
  t.is(anyType.body.errorInformation.errorCode, '3101');
  for (const header of ['content-type', 'date', 'fspiop-source']) {
    const { status, body } = await post(transferBody(payer, payee, '1'), { [header]: undefined });
    t.is(status, 400, header);
    t.is(body.errorInformation.errorCode, '3102', header);
  }
});

test('a media type for another resource or an unparseable Date is 400 with 3101', async (t) => {
  const wrongResource = await post(transferBody(payer, payee, '1'), { 'content-type': 'application/vnd.interoperability.quotes+json;version=1.1' });
  t.is(wrongResource.status, 400);
  t.is(wrongResource.body.errorInformation.errorCode, '3101');
  const badDate = await post(transferBody(payer, payee, '1'), { date: 'yesterday-ish' });
  t.is(badDate.body.errorInformation.errorCode, '3101');
});

test('an unknown FSPIOP-Source is refused with 400', async (t) => {
  const { status, body } = await hub.fspiop('POST', '/transfers', { source: 'nosuchfsp', destination: payee, body: transferBody('nosuchfsp', payee, '1') });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3200');
});

test('bodies are checked against the FSPIOP schema: missing element 3102, malformed 3101, unparseable 3101, too large 3104', async (t) => {
  const { condition: _omit, ...withoutCondition } = transferBody(payer, payee, '1');
  const missing = await post(withoutCondition);
  t.is(missing.status, 400);
  t.is(missing.body.errorInformation.errorCode, '3102');
  const malformed = await post({ ...transferBody(payer, payee, '1'), amount: { amount: '1.00001', currency: 'USD' } });
  t.is(malformed.body.errorInformation.errorCode, '3101');
  const unparseable = await post('{"transferId": ');
  t.is(unparseable.body.errorInformation.errorCode, '3101');
  const huge = await post({ ...transferBody(payer, payee, '1'), extensionList: { extension: [{ key: 'k', value: 'x'.repeat(5_300_000) }] } });
  t.is(huge.status, 400);
  t.is(huge.body.errorInformation.errorCode, '3104');
});

test('a PUT /transfers with ABORTED or without fulfilment is refused', async (t) => {
  const body = transferBody(payer, payee, '1');
  const aborted = await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee, destination: payer, body: { transferState: 'ABORTED' } });
  t.is(aborted.status, 400);
  const noFulfilment = await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee, destination: payer, body: { transferState: 'COMMITTED' } });
  t.is(noFulfilment.status, 400);
  t.is(noFulfilment.body.errorInformation.errorCode, '3102');
});

test('an unknown URI is 404 with 3002 and an unsupported method 405', async (t) => {
  const unknown = await hub.fspiop('GET', '/nothing/here', { source: payer });
  t.is(unknown.status, 404);
  t.is(unknown.body.errorInformation.errorCode, '3002');
  for (const [method, path] of [
    ['PATCH', '/transfers/x'],
    ['DELETE', '/transfers/x'],
    ['PUT', '/quotes'],
    ['DELETE', '/quotes/x'],
  ]) {
    const { status } = await hub.fspiop(method, path, { source: payer, body: method === 'PUT' || method === 'PATCH' ? {} : undefined });
    t.is(status, 405, `${method} ${path}`);
  }
});

test('a path ID that is not a CorrelationId is 400 with 3101, never a 500', async (t) => {
  for (const [method, path] of [
    ['GET', `/transfers/${'x'.repeat(2000)}`],
    ['PUT', '/transfers/not-a-uuid'],
    ['PUT', '/quotes/not-a-uuid/error'],
  ]) {
    const body = method === 'PUT' ? (path.endsWith('/error') ? { errorInformation: { errorCode: '5000', errorDescription: 'x' } } : { transferState: 'COMMITTED', fulfilment: 'x'.repeat(43) }) : undefined;
    const { status, body: reply } = await hub.fspiop(method, path, { source: payer, destination: payee, body });
    t.is(status, 400, `${method} ${path.slice(0, 40)}`);
    t.is(reply.errorInformation.errorCode, '3101');
  }
});
