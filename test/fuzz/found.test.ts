import crypto from 'node:crypto';
import test from 'ava';
import { quoteBody, transferBody } from '../helpers/fspiopBodies';
import { jsonOrUndefined } from '../helpers/http';
import { fspiopHeadersOf, withSwitch } from '../helpers/switchHarness';
import { sendOnWire, type WireAnswer } from './wire';

// What the fuzz suite found at the gateways, each kept as a plain example of the rule it broke.

const fixture = withSwitch(test);

function send(method: string, path: string, source: string, body: Buffer, rawHeaders: Array<[string, string | Buffer]> = []): Promise<WireAnswer> {
  const headers = Object.entries(fspiopHeadersOf(method, path, { source, destination: method === 'PUT' ? fixture.payer : fixture.payee }));
  return sendOnWire(fixture.hub.url, { method, target: path, headers: [...headers, ...rawHeaders], body });
}

const errorCodeOf = (answer: WireAnswer) => jsonOrUndefined(answer.body.toString('utf-8'))?.errorInformation?.errorCode;

test('a body that is not UTF-8 is refused with 3101, not passed on with its bytes replaced', async (t) => {
  const [before, after] = JSON.stringify({ ...quoteBody(fixture.payer, fixture.payee, '1'), note: '<>' }).split('<>');
  const answer = await send('POST', '/quotes', fixture.payer, Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28]), Buffer.from(after)]));
  t.is(answer.status, 400);
  t.is(errorCodeOf(answer), '3101');
});

test('a body nested deeper than 32 levels is refused with 3100, not a 500 from the request hash', async (t) => {
  const body = JSON.stringify(transferBody(fixture.payer, fixture.payee, '1')).replace(/}$/, `,"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  const answer = await send('POST', '/transfers', fixture.payer, Buffer.from(body));
  t.is(answer.status, 400);
  t.is(errorCodeOf(answer), '3100');
});

test('a callback within the 5 MiB FSPIOP allows but over the 2 MiB a conversation holds is refused with 3104, not a 500', async (t) => {
  const quote = quoteBody(fixture.payer, fixture.payee, '1');
  t.is((await fixture.hub.fspiop('POST', '/quotes', { source: fixture.payer, destination: fixture.payee, body: quote })).status, 202);
  const answer = JSON.stringify({
    transferAmount: quote.amount,
    expiration: new Date(Date.now() + 60_000).toISOString(),
    ilpPacket: 'AQ',
    condition: 'x'.repeat(43),
  });
  const padded = Buffer.concat([Buffer.from(answer), Buffer.alloc(2_500_000, 0x20)]);
  const put = await send('PUT', `/quotes/${quote.quoteId}`, fixture.payee, padded);
  t.is(put.status, 400);
  t.is(errorCodeOf(put), '3104');
});

test('headers over the 64 KiB FSPIOP allows are 431 with ErrorInformation (3104), and a control byte in a header 400 (3101)', async (t) => {
  const path = `/transfers/${crypto.randomUUID()}`;
  const oversize = await send('GET', path, fixture.payer, Buffer.alloc(0), [['x-padding', 'p'.repeat(70_000)]]);
  t.is(oversize.status, 431);
  t.is(errorCodeOf(oversize), '3104');
  const control = await send('GET', path, fixture.payer, Buffer.alloc(0), [['x-padding', Buffer.from([0x61, 0x00, 0x62])]]);
  t.is(control.status, 400);
  t.is(errorCodeOf(control), '3101');
});

test('a /participants callback to the hub, which it acknowledges and ignores, is still checked: a body or path its schema refuses gets 400', async (t) => {
  const { hub, payer } = fixture;
  const party = `/participants/MSISDN/${27_700_000_000 + crypto.randomInt(99_999_999)}`;
  const notFound = { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } };
  const refusals: Array<[string, unknown, string]> = [
    [party, { fspId: 42 }, '3101'],
    [`${party}/home`, { fspId: 42 }, '3101'],
    [`${party}/error`, { errorInformation: { errorCode: '3204' } }, '3102'],
    [`${party}/home/error`, {}, '3102'],
    ['/participants/PHONE/123', { fspId: payer }, '3100'],
    [`/participants/${crypto.randomUUID()}`, { currency: 'USD' }, '3102'],
    ['/participants/not-a-correlation-id', { partyList: [{ partyId: { partyIdType: 'MSISDN', partyIdentifier: '1', fspId: payer } }] }, '3100'],
    [`/participants/${crypto.randomUUID()}/error`, { errorInformation: 'none' }, '3101'],
  ];
  for (const [path, body, code] of refusals) {
    const answer = await hub.fspiop('PUT', path, { source: payer, body });
    t.is(answer.status, 400, `PUT ${path} ${JSON.stringify(body)}`);
    t.is(answer.body?.errorInformation?.errorCode, code, `PUT ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
  }
  t.is((await hub.fspiop('PUT', party, { source: payer, body: { fspId: payer } })).status, 200, 'a valid one is still acknowledged');
  t.is((await hub.fspiop('PUT', `${party}/error`, { source: payer, body: notFound })).status, 200);
});
