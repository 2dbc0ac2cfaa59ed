import crypto from 'node:crypto';
import test from 'ava';
import { loadConfig } from '../../activities/shared/platform/config';
import { TestCa } from '../helpers/certificates';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair, transferBody } from '../helpers/fspiopBodies';
import type { ClientTls } from '../helpers/http';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';

/** A DFSP of a scheme with mutual TLS: its connector serves HTTPS for the hub's client certificate, and it has its own. */
interface TlsDfsp {
  dfsp: SimulatedDfsp;
  name: string;
  /** Its side of a connection to the switch: the scheme CA, and its client certificate (CN = its name). */
  tls: ClientTls;
}

/** How a client sees the server's TLS alert: read as an error, or the connection dropped before its request was answered. */
const REFUSED_HANDSHAKE = /alert certificate required|alert unknown ca|socket hang up|ECONNRESET/;

let ca: TestCa;
let strangerCa: TestCa;
let hub: SwitchHarness;

test.before(async () => {
  ca = await TestCa.create('scheme-ca');
  strangerCa = await TestCa.create('stranger-ca');
  const [server, hubClient] = await Promise.all([ca.server('switch'), ca.client(HUB_ID)]);
  hub = await startSwitch({ tls: { server, switchClientCaPath: ca.certPath, outboundClient: hubClient, outboundCaPath: ca.certPath } });
});

test.after.always(async () => {
  await hub?.close();
  ca?.remove();
  strangerCa?.remove();
});

async function tlsDfsp(): Promise<TlsDfsp> {
  const name = `tls${crypto.randomBytes(4).toString('hex')}`;
  const [server, client] = await Promise.all([ca.server(name), ca.client(name)]);
  const dfsp = await hub.provision({ name, serverTls: { cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true } });
  return { dfsp, name, tls: { ca: ca.cert, cert: client.cert, key: client.key } };
}

test('a DFSP without a client certificate cannot open a connection to the switch: the TLS handshake is refused', async (t) => {
  const [payer, payee] = [await tlsDfsp(), await tlsDfsp()];
  const body = transferBody(payer.name, payee.name, '10');
  await t.throwsAsync(hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body, tls: { ca: ca.cert } }), {
    message: REFUSED_HANDSHAKE,
  });
  t.is(await hub.position(payer), 0, 'nothing was reserved');
});

test('a client certificate from a CA the scheme does not trust is refused at the TLS handshake', async (t) => {
  const payer = await tlsDfsp();
  const payee = await tlsDfsp();
  const forged = await strangerCa.client(payer.name);
  const body = transferBody(payer.name, payee.name, '10');
  await t.throwsAsync(hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body, tls: { ca: ca.cert, ...forged } }), {
    message: REFUSED_HANDSHAKE,
  });
  t.is(await hub.position(payer), 0, 'nothing was reserved');
});

test("a message whose FSPIOP-Source is not the certificate's participant is refused 403 with ErrorInformation 3100, on every resource", async (t) => {
  const [mallory, victim] = [await tlsDfsp(), await tlsDfsp()];
  const asVictim = { source: victim.name, destination: mallory.name, tls: mallory.tls };
  const refusals = [
    await hub.fspiop('POST', '/transfers', { ...asVictim, body: transferBody(victim.name, mallory.name, '10') }),
    await hub.fspiop('GET', '/parties/MSISDN/447700900123', asVictim),
    await hub.fspiop('POST', '/participants/MSISDN/447700900123', { ...asVictim, body: { fspId: victim.name, currency: 'USD' } }),
    await hub.fspiop('GET', '/accounts/username1234', asVictim),
  ];
  for (const refusal of refusals) {
    t.is(refusal.status, 403);
    t.is(refusal.body.errorInformation.errorCode, '3100');
    t.regex(refusal.body.errorInformation.errorDescription, new RegExp(`FSPIOP-Source ${victim.name} is not ${mallory.name}`));
  }
  t.is(refusals[0].headers.get('content-type'), 'application/vnd.interoperability.transfers+json;version=1.1');
  t.is(await hub.position(victim), 0, "no money moved from the victim's position");
});

test("over mutual TLS a transfer commits: the payee's HTTPS endpoint gets it with the hub's client certificate, and the payer cannot fulfil it in the payee's name", async (t) => {
  const [payer, payee] = [await tlsDfsp(), await tlsDfsp()];
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '25', { condition });
  const ack = await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body, tls: payer.tls });
  t.is(ack.status, 202);

  const forwarded = await payee.dfsp.waitFor((r) => r.method === 'POST' && r.path === '/transfers');
  t.is(forwarded.clientCertificate, HUB_ID, "the hub called the payee's HTTPS endpoint with its own client certificate");
  t.is(forwarded.body.transferId, body.transferId);

  const fulfil = { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' };
  const spoofed = await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee.name, destination: payer.name, body: fulfil, tls: payer.tls });
  t.is(spoofed.status, 403, "the payer's certificate cannot carry the payee's fulfilment");
  t.is(await hub.position(payee), 0, 'the refused fulfilment committed nothing');

  const answered = await hub.fspiop('PUT', `/transfers/${body.transferId}`, { source: payee.name, destination: payer.name, body: fulfil, tls: payee.tls });
  t.is(answered.status, 200);
  const callback = await payer.dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${body.transferId}`);
  t.is(callback.body.transferState, 'COMMITTED');
  t.is(callback.clientCertificate, HUB_ID);
  t.is(await hub.position(payer), 25);
  t.is(await hub.position(payee), -25);
});

test('the TLS settings go together: a certificate needs its key, and client certificates need HTTPS', (t) => {
  t.throws(() => loadConfig({ TLS_CERT_PATH: '/etc/hub/server.crt' }), { message: /TLS_CERT_PATH and TLS_KEY_PATH go together/ });
  t.throws(() => loadConfig({ SWITCH_CLIENT_CA_PATH: '/etc/hub/ca.crt' }), { message: /SWITCH_CLIENT_CA_PATH needs TLS_CERT_PATH/ });
  t.throws(() => loadConfig({ OUTBOUND_TLS_KEY_PATH: '/etc/hub/client.key' }), { message: /OUTBOUND_TLS_CERT_PATH and OUTBOUND_TLS_KEY_PATH go together/ });
  t.deepEqual(
    loadConfig({}).tls,
    { server: undefined, switchClientCaPath: undefined, outboundClient: undefined, outboundCaPath: undefined },
    'plain HTTP by default',
  );
});
