import test from 'ava';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

test('an unknown participant is 400 with 3200, as central-ledger answers: "Generic ID not found - The requested resource could not be found"', async (t) => {
  for (const path of [
    '/participants/nosuchdfsp',
    '/participants/nosuchdfsp/endpoints',
    '/participants/nosuchdfsp/positions',
    '/participants/nosuchdfsp/accounts',
  ]) {
    const { status, body } = await admin.call('GET', path);
    t.is(status, 400, path);
    t.deepEqual(body.errorInformation, { errorCode: '3200', errorDescription: 'Generic ID not found - The requested resource could not be found' }, path);
  }
});

test('a body missing a required element is 400 with 3101, as central-ledger answers every invalid admin body', async (t) => {
  const { status, body } = await admin.call('POST', '/participants', { currency: 'USD' });
  t.is(status, 400);
  t.deepEqual(body.errorInformation, { errorCode: '3101', errorDescription: 'Malformed syntax - "name" is required' });
  const noCurrency = await admin.call('POST', '/participants', { name: uniqueName() });
  t.is(noCurrency.body.errorInformation.errorCode, '3101');
  const enumerated = await admin.call('POST', '/participants', { name: uniqueName(), currency: 'A#' });
  t.is(enumerated.body.errorInformation.errorCode, '3101');
  t.regex(enumerated.body.errorInformation.errorDescription, /^Malformed syntax - "currency" must be one of \[AED, /);
});

test("a participant named like a spreadsheet formula is refused on creation with central-ledger's 3101, and never created", async (t) => {
  const { status, body } = await admin.call('POST', '/participants', { name: '=B1234', currency: 'USD' });
  t.is(status, 400);
  t.deepEqual(body.errorInformation, { errorCode: '3101', errorDescription: 'Malformed syntax - "name" must only contain alpha-numeric characters' });
  t.false((await admin.call('GET', '/participants')).body.some((participant: { name: string }) => participant.name === '=B1234'));
});

test('a payload over 5 MB is 400 with 3104', async (t) => {
  const { status, body } = await admin.call('POST', '/participants', JSON.stringify({ name: 'x'.repeat(5_300_000), currency: 'USD' }));
  t.is(status, 400);
  t.is(body.errorInformation.errorCode, '3104');
});

test('PATCH and DELETE are 405 on every path', async (t) => {
  for (const [method, path] of [
    ['PATCH', '/participants'],
    ['DELETE', '/participants/Hub'],
    ['DELETE', '/settlementModels/x'],
  ]) {
    const { status, body } = await admin.call(method, path);
    t.is(status, 405, `${method} ${path}`);
    t.truthy(body.errorInformation);
  }
});

test('a method a path does not offer is 405, and an unknown path is 404 with 3002', async (t) => {
  const wrongMethod = await admin.call('PUT', '/participants', {});
  t.is(wrongMethod.status, 405);
  const unknown = await admin.call('GET', '/nothing/here');
  t.is(unknown.status, 404);
  t.is(unknown.body.errorInformation.errorCode, '3002');
});
