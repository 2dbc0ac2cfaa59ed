import test from 'ava';
import { transferBody } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let payer: string;
let payee: string;
useSwitch(test, async (started) => {
  hub = started;
  payer = (await hub.provision()).name;
  payee = (await hub.provision()).name;
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

test("header errors read as Mojaloop's header validation words them, which its tooling matches on", async (t) => {
  const described = async (headers: Record<string, string | undefined>) => (await post(transferBody(payer, payee, '1'), headers)).body.errorInformation;
  t.deepEqual(await described({ date: undefined }), {
    errorCode: '3102',
    errorDescription: 'Missing mandatory element - Missing required date header',
  });
  t.deepEqual(await described({ 'content-type': 'application/json' }), {
    errorCode: '3101',
    errorDescription: 'Malformed syntax - Invalid content-type header',
  });
  t.deepEqual(await described({ accept: 'text/plain' }), { errorCode: '3101', errorDescription: 'Malformed syntax - Invalid accept header' });
  t.deepEqual(await described({ 'content-type': 'application/xml' }), { errorCode: '3101', errorDescription: 'Malformed syntax - Unsupported Media Type' });
  t.deepEqual(await described({ date: '2026-11-27T10:00:00Z' }), { errorCode: '3101', errorDescription: 'Malformed syntax - Invalid date header' });
  const supported = {
    extensionList: {
      extension: [
        { key: '1', value: '0' },
        { key: '1', value: '1' },
        { key: '2', value: '0' },
      ],
    },
  };
  t.deepEqual(await described({ accept: 'application/vnd.interoperability.transfers+json;version=3.0' }), {
    errorCode: '3001',
    errorDescription: 'Unacceptable version requested - The Client requested an unsupported version, see extension list for supported version(s).',
    ...supported,
  });
  t.deepEqual(await described({ 'content-type': 'application/vnd.interoperability.transfers+json;version=3.0' }), {
    errorCode: '3001',
    errorDescription: 'Unacceptable version requested - Client supplied a protocol version which is not supported by the server',
    ...supported,
  });
});

test('Content-Type must carry its version as x.y (Document 2, Versioning): without it, or with a major version only, it is 3101', async (t) => {
  const transfer = transferBody(payer, payee, '1');
  for (const contentType of ['application/vnd.interoperability.transfers+json', 'application/vnd.interoperability.transfers+json;version=1']) {
    const request = await post(transferBody(payer, payee, '1'), { 'content-type': contentType });
    t.is(request.status, 400, contentType);
    t.is(request.body.errorInformation.errorCode, '3101', contentType);
    t.is(request.body.errorInformation.errorDescription, 'Malformed syntax - Invalid content-type header', contentType);
    const get = await hub.fspiop('GET', `/transfers/${transfer.transferId}`, { source: payer, headers: { 'content-type': contentType } });
    t.is(get.status, 400, `GET with ${contentType}`);
    t.is(get.body.errorInformation.errorCode, '3101', `GET with ${contentType}`);
    const callback = await hub.fspiop('PUT', `/transfers/${transfer.transferId}/error`, {
      source: payee,
      destination: payer,
      headers: { 'content-type': contentType },
      body: { errorInformation: { errorCode: '5000', errorDescription: 'Generic payee error' } },
    });
    t.is(callback.status, 400, `callback with ${contentType}`);
    t.is(callback.body.errorInformation.errorCode, '3101', `callback with ${contentType}`);
  }
  // Accept may still leave the version to the switch, or name a major version only.
  t.is((await post(transferBody(payer, payee, '1'), { accept: 'application/vnd.interoperability.transfers+json' })).status, 202);
  t.is((await post(transferBody(payer, payee, '1'), { accept: 'application/vnd.interoperability.transfers+json;version=1' })).status, 202);
});

test('an unknown FSPIOP-Source is refused with 400', async (t) => {
  const { status, body } = await hub.fspiop('POST', '/transfers', { source: 'nosuchfsp', destination: payee, body: transferBody('nosuchfsp', payee, '1') });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3200');
});

test('bodies are checked against the FSPIOP schema as Mojaloop checks them: missing element 3102, a pattern not matched 3100, unparseable 3101, too large 3104', async (t) => {
  const { condition: _omit, ...withoutCondition } = transferBody(payer, payee, '1');
  const missing = await post(withoutCondition);
  t.is(missing.status, 400);
  t.is(missing.body.errorInformation.errorCode, '3102');
  const malformed = await post({ ...transferBody(payer, payee, '1'), amount: { amount: '1.00001', currency: 'USD' } });
  t.deepEqual(malformed.body.errorInformation, {
    errorCode: '3100',
    errorDescription: 'Generic validation error - /requestBody/amount/amount must match pattern "^([0]|([1-9][0-9]{0,17}))([.][0-9]{0,3}[1-9])?$"',
  });
  const unparseable = await post('{"transferId": ');
  t.is(unparseable.body.errorInformation.errorCode, '3101');
  const huge = await post({ ...transferBody(payer, payee, '1'), extensionList: { extension: [{ key: 'k', value: 'x'.repeat(5_300_000) }] } });
  t.is(huge.status, 400);
  t.is(huge.body.errorInformation.errorCode, '3104');
});

test('a PUT /transfers with ABORTED is refused: the payee rejects with PUT /transfers/{ID}/error', async (t) => {
  const body = transferBody(payer, payee, '1');
  const aborted = await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee, destination: payer, body: { transferState: 'ABORTED' } });
  t.is(aborted.status, 400);
  t.is(aborted.body.errorInformation.errorCode, '3100');
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

test('a path ID that is not a CorrelationId is 400 with 3100 (a pattern it does not match), never a 500', async (t) => {
  for (const [method, path] of [
    ['GET', `/transfers/${'x'.repeat(2000)}`],
    ['PUT', '/transfers/not-a-uuid'],
    ['PUT', '/quotes/not-a-uuid/error'],
  ]) {
    const body =
      method === 'PUT'
        ? path.endsWith('/error')
          ? { errorInformation: { errorCode: '5000', errorDescription: 'x' } }
          : { transferState: 'COMMITTED', fulfilment: 'x'.repeat(43) }
        : undefined;
    const { status, body: reply } = await hub.fspiop(method, path, { source: payer, destination: payee, body });
    t.is(status, 400, `${method} ${path.slice(0, 40)}`);
    t.is(reply.errorInformation.errorCode, '3100');
  }
});

test('a service of the Mojaloop APIs that this hub does not offer is 501 with 2002, not 404', async (t) => {
  for (const path of ['/fxQuotes', '/fxTransfers']) {
    const { status, body } = await hub.fspiop('POST', path, { source: payer, body: {} });
    t.is(status, 501, path);
    t.is(body.errorInformation.errorCode, '2002', path);
  }
});

test('a third-party message is checked as FSPIOP messages are: a bad body is 400 with the thirdparty media type', async (t) => {
  const { status, body, headers } = await hub.fspiop('POST', '/thirdpartyRequests/transactions', { source: payer, destination: payee, body: {} });
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3102');
  t.is(headers.get('content-type'), 'application/vnd.interoperability.thirdparty+json;version=1.0');
});

test("an error response carries the resource's versioned media type, in the version the request was answered in", async (t) => {
  const refused = await post({ transferId: 'not-an-id' }, {}, '1.0');
  t.is(refused.status, 400);
  t.is(refused.headers.get('content-type'), 'application/vnd.interoperability.transfers+json;version=1.0');
  const unsupported = await post(transferBody(payer, payee, '1'), {}, '3.0');
  t.is(unsupported.status, 406);
  t.is(unsupported.headers.get('content-type'), 'application/vnd.interoperability.transfers+json;version=2.0', 'the latest, where it names none spoken');
  const notFound = await hub.fspiop('GET', '/quotes/x/y/z', { source: payer });
  t.is(notFound.headers.get('content-type'), 'application/vnd.interoperability.quotes+json;version=1.1');
});

test('X-Forwarded-For is passed on with the request to the payee', async (t) => {
  const body = transferBody(payer, payee, '1');
  t.is((await post(body, { 'x-forwarded-for': '203.0.113.7' })).status, 202);
  const forwarded = await hub.dfsps.find((dfsp) => dfsp.name === payee)!.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
  t.is(forwarded.headers['x-forwarded-for'], '203.0.113.7');
});

test("a message whose FSPIOP-Source is the hub's own participant is spoofed: 400 with 3100", async (t) => {
  const body = transferBody(payer, payee, '1');
  const { status, body: answer } = await hub.fspiop('POST', '/transfers', { source: HUB_ID, destination: payee, body });
  t.is(status, 400);
  t.is(answer.errorInformation.errorCode, '3100');
});
