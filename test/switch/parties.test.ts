import crypto from 'node:crypto';
import test from 'ava';
import { CallbackSender, type Delivery } from '../../activities/hub/delivery/callbacks';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { pollUntil } from '../helpers/polling';
import { fspiopAt, HUB_ID, serveGateway, useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let payer: SimulatedDfsp;
let payee: SimulatedDfsp;

useSwitch(test, async (started) => {
  hub = started;
  payer = await hub.provision();
  payee = await hub.provision();
});

/** A party identifier no other test (or test file sharing the database) uses. */
const msisdn = () => `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;

const received = (method: string, path: string) => (r: ReceivedRequest) => r.method === method && r.path === path;

/** The payee registers its party in the hub's account lookup, as a DFSP does through POST /participants/{Type}/{ID}. */
async function registerAtPayee(type: string, id: string, subId?: string): Promise<void> {
  const path = `/participants/${type}/${id}${subId ? `/${subId}` : ''}`;
  const sent = await hub.fspiop('POST', path, { source: payee.name, body: { fspId: payee.name } });
  if (sent.status !== 202) throw new Error(`POST ${path} answered ${sent.status}`);
  await payee.waitFor(received('PUT', path));
}

/** Headers an end-to-end signing DFSP sends: the switch must pass them on untouched. */
const signed = (path: string, method: string) => ({
  'fspiop-signature': JSON.stringify({ signature: 'c2lnbmF0dXJl', protectedHeader: 'eyJhbGciOiJSUzI1NiJ9' }),
  'fspiop-uri': path,
  'fspiop-http-method': method,
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
});

const partyBody = (id: string, fspId: string) => ({
  party: {
    partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: id, fspId },
    name: 'Henrik Karlsson',
    personalInfo: { complexName: { firstName: 'Henrik', lastName: 'Karlsson' }, dateOfBirth: '1988-01-01' },
  },
});

test('GET /parties goes to the party’s FSP with the requester’s headers unchanged and FSPIOP-Destination filled in', async (t) => {
  const id = msisdn();
  await registerAtPayee('MSISDN', id);
  const path = `/parties/MSISDN/${id}`;
  const date = new Date(Date.now() - 1000).toUTCString();
  const asked = await hub.fspiop('GET', path, { source: payer.name, headers: { date, ...signed(path, 'GET') } });
  t.is(asked.status, 202);

  const forwarded = await payee.waitFor(received('GET', path));
  t.is(forwarded.headers['fspiop-destination'], payee.name);
  t.is(forwarded.headers['fspiop-source'], payer.name);
  t.is(forwarded.headers.date, date);
  t.is(forwarded.headers.accept, 'application/vnd.interoperability.parties+json;version=1.1');
  for (const [name, value] of Object.entries(signed(path, 'GET'))) t.is(forwarded.headers[name], value, name);
});

test('GET /parties naming the switch as destination is routed the same way', async (t) => {
  const id = msisdn();
  await registerAtPayee('MSISDN', id);
  const path = `/parties/MSISDN/${id}`;
  await hub.fspiop('GET', path, { source: payer.name, destination: HUB_ID });
  const forwarded = await payee.waitFor(received('GET', path));
  t.is(forwarded.headers['fspiop-destination'], payee.name);
});

test('GET /parties with a sub-id goes to the sub-id endpoint of the FSP that registered that sub-id', async (t) => {
  const id = msisdn();
  await registerAtPayee('BUSINESS', id, 'till-7');
  const path = `/parties/BUSINESS/${id}/till-7`;
  await hub.fspiop('GET', path, { source: payer.name });
  const forwarded = await payee.waitFor(received('GET', path));
  t.is(forwarded.headers['fspiop-destination'], payee.name);
});

test('GET /parties for a party nobody registered is answered 3204 by the hub', async (t) => {
  const path = `/parties/MSISDN/${msisdn()}`;
  const asked = await hub.fspiop('GET', path, { source: payer.name });
  t.is(asked.status, 202);
  const error = await payer.waitFor(received('PUT', `${path}/error`));
  t.deepEqual(error.body, { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } });
  t.is(error.headers['fspiop-source'], HUB_ID);
  t.is(error.headers['fspiop-destination'], payer.name);
  t.is(error.headers['content-type'], 'application/vnd.interoperability.parties+json;version=1.1');
});

test('GET /parties naming an FSP in FSPIOP-Destination goes to that FSP without a lookup', async (t) => {
  const path = `/parties/ACCOUNT_ID/${msisdn()}`;
  await hub.fspiop('GET', path, { source: payer.name, destination: payee.name });
  const forwarded = await payee.waitFor(received('GET', path));
  t.is(forwarded.headers['fspiop-destination'], payee.name);
});

test('PUT /parties goes back to the requester with headers and body unchanged', async (t) => {
  const id = msisdn();
  const path = `/parties/MSISDN/${id}`;
  const body = partyBody(id, payee.name);
  const date = new Date(Date.now() - 2000).toUTCString();
  const answered = await hub.fspiop('PUT', path, { source: payee.name, destination: payer.name, body, headers: { date, ...signed(path, 'PUT') } });
  t.is(answered.status, 200);

  const callback = await payer.waitFor(received('PUT', path));
  t.deepEqual(callback.body, body);
  t.is(callback.headers['fspiop-source'], payee.name);
  t.is(callback.headers['fspiop-destination'], payer.name);
  t.is(callback.headers.date, date);
  t.is(callback.headers['content-type'], 'application/vnd.interoperability.parties+json;version=1.1');
  for (const [name, value] of Object.entries(signed(path, 'PUT'))) t.is(callback.headers[name], value, name);
});

test('PUT /parties with a sub-id goes to the requester’s sub-id endpoint', async (t) => {
  const id = msisdn();
  const path = `/parties/PERSONAL_ID/${id}/PASSPORT`;
  const body = { party: { partyIdInfo: { partyIdType: 'PERSONAL_ID', partyIdentifier: id, partySubIdOrType: 'PASSPORT', fspId: payee.name } } };
  const answered = await hub.fspiop('PUT', path, { source: payee.name, destination: payer.name, body });
  t.is(answered.status, 200);
  t.deepEqual((await payer.waitFor(received('PUT', path))).body, body);
});

test('PUT /parties/.../error goes back to the requester unchanged', async (t) => {
  for (const path of [`/parties/MSISDN/${msisdn()}`, `/parties/PERSONAL_ID/${msisdn()}/DRIVING_LICENSE`]) {
    const body = { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } };
    const answered = await hub.fspiop('PUT', `${path}/error`, { source: payee.name, destination: payer.name, body });
    t.is(answered.status, 200);
    const error = await payer.waitFor(received('PUT', `${path}/error`));
    t.deepEqual(error.body, body);
    t.is(error.headers['fspiop-source'], payee.name);
  }
});

test('PUT /parties without FSPIOP-Destination is 400 3102: the switch cannot know whom to tell', async (t) => {
  const id = msisdn();
  const answered = await hub.fspiop('PUT', `/parties/MSISDN/${id}`, { source: payee.name, body: partyBody(id, payee.name) });
  t.is(answered.status, 400);
  t.is(answered.body.errorInformation.errorCode, '3102');
});

test('PUT /parties with a body that is not a party is 400', async (t) => {
  const answered = await hub.fspiop('PUT', `/parties/MSISDN/${msisdn()}`, { source: payee.name, destination: payer.name, body: { name: 'x' } });
  t.is(answered.status, 400);
  t.is(answered.body.errorInformation.errorCode, '3102');
});

test('methods /parties does not offer are 405', async (t) => {
  const post = await hub.fspiop('POST', `/parties/MSISDN/${msisdn()}`, { source: payer.name, body: {} });
  t.is(post.status, 405);
  const del = await hub.fspiop('DELETE', `/parties/MSISDN/${msisdn()}`, { source: payer.name });
  t.is(del.status, 405);
});

test('a / or ? inside a party identifier or sub-id (Document 2, Party addressing) is 400 with 3101, even percent-encoded; nothing is routed', async (t) => {
  const id = msisdn();
  await registerAtPayee('MSISDN', id);
  for (const path of [`/parties/MSISDN/${id}%2F1`, `/parties/MSISDN/${id}%3F1`, `/parties/MSISDN/${id}/a%2Fb`, `/parties/MSISDN/${id}/a%3fb`]) {
    const asked = await hub.fspiop('GET', path, { source: payer.name });
    t.is(asked.status, 400, path);
    t.is(asked.body.errorInformation.errorCode, '3101', path);
    t.regex(asked.body.errorInformation.errorDescription, /path (ID|SubId)/, path);
    const answered = await hub.fspiop('PUT', path, { source: payee.name, destination: payer.name, body: partyBody(id, payee.name) });
    t.is(answered.status, 400, `PUT ${path}`);
    t.is(answered.body.errorInformation.errorCode, '3101', `PUT ${path}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(payee.received.some((r) => r.method === 'GET' && r.path.startsWith(`/parties/MSISDN/${id}`)));
  t.false(payer.received.some((r) => r.path.startsWith(`/parties/MSISDN/${id}`)));
});

/** A sender whose lookup deliveries wait until the test opens the gate: lookups stay in progress meanwhile. */
class GatedSender extends CallbackSender {
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));

  release(): void {
    this.open();
  }

  override async sendWithRetry(delivery: Delivery, attempts?: number, firstDelayMs?: number): Promise<void> {
    await this.opened;
    return super.sendWithRetry(delivery, attempts, firstDelayMs);
  }
}

test('lookups run in the gateway are bounded: beyond those running and those waiting, a request is answered 503 with 2005 Server busy', async (t) => {
  const { directory, log } = hub.hub;
  const sender = new GatedSender({ directory, log, hubId: HUB_ID });
  const config = { taskQueue: hub.worker.taskQueue, lookups: { concurrency: 1, queue: 1, perParticipant: 2 } };
  const gateway = await serveGateway({ ...hub.hub, sender, config, temporal: hub.worker.client });
  t.teardown(() => gateway.close());
  const id = msisdn();
  await registerAtPayee('MSISDN', id);
  const ask = () => fspiopAt(gateway.url, 'GET', `/parties/MSISDN/${id}`, { source: payer.name });

  t.is((await ask()).status, 202, 'the first runs');
  t.is((await ask()).status, 202, 'the second waits');
  const refused = await ask();
  t.is(refused.status, 503);
  t.is(refused.body.errorInformation.errorCode, '2005');
  t.is(refused.headers.get('content-type'), 'application/vnd.interoperability.parties+json;version=1.1');

  sender.release();
  const forwarded = () => payee.received.filter(received('GET', `/parties/MSISDN/${id}`)).length;
  t.is(
    await pollUntil(
      async () => forwarded(),
      (count) => count === 2,
    ),
    2,
    'both accepted lookups were made, the refused one was not',
  );
  t.is((await pollUntil(ask, (answer) => answer.status === 202)).status, 202, 'once they are done, a lookup is taken again');
});
