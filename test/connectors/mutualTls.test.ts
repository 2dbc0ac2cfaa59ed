import crypto from 'node:crypto';
import test from 'ava';
import { TestCa } from '../helpers/certificates';
import { startTestDfsp } from '../helpers/connectors';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { httpsRequest, type ClientTls } from '../helpers/http';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';

// A scheme on mutual TLS throughout: the switch takes only participants' certificates, and each DFSP connector
// serves its inbound API to the switch's client certificate alone (INBOUND_MUTUAL_TLS_ENABLED) and shows its own to
// the switch (OUTBOUND_MUTUAL_TLS_ENABLED). One CA signs every certificate, as a scheme's does, so a participant's
// certificate passes the handshake at another's connector: what keeps it out is that it is not the switch's.

type TestDfsp = Awaited<ReturnType<typeof startTestDfsp>>;

let ca: TestCa;
let strangerCa: TestCa;
let hub: SwitchHarness;
let payer: TestDfsp & { tls: ClientTls };
let payee: TestDfsp & { tls: ClientTls };

const REFUSED_HANDSHAKE = /alert certificate required|alert unknown ca|socket hang up|ECONNRESET/;
const BOB = '27713803912';

async function tlsDfsp(): Promise<TestDfsp & { tls: ClientTls }> {
  const name = `mtls${crypto.randomBytes(4).toString('hex')}`;
  const [server, client] = await Promise.all([ca.server(name), ca.client(name)]);
  const started = await startTestDfsp(hub, {
    name,
    config: {
      inboundTls: { server, caPath: ca.certPath },
      outboundTls: { client, caPath: ca.certPath },
    },
  });
  return { ...started, tls: { ca: ca.cert, cert: client.cert, key: client.key } };
}

test.before(async () => {
  ca = await TestCa.create('scheme-ca');
  strangerCa = await TestCa.create('stranger-ca');
  const [server, hubClient] = await Promise.all([ca.server('switch'), ca.client(HUB_ID)]);
  hub = await startSwitch({ tls: { server, switchClientCaPath: ca.certPath, outboundClient: hubClient, outboundCaPath: ca.certPath } });
  payer = await tlsDfsp();
  payee = await tlsDfsp();
});

test.after.always(async () => {
  await Promise.all([payer, payee].map((dfsp) => dfsp?.connector.stop()));
  await hub?.close();
  ca?.remove();
  strangerCa?.remove();
});

const positionOf = (dfsp: TestDfsp) => hub.position({ name: dfsp.name } as SimulatedDfsp);

/** A PUT /transfers/{ID}/error in the switch's name, sent straight to a connector's inbound API over `tls`. */
function forgedSwitchError(to: TestDfsp, transferId: string, tls: ClientTls) {
  return httpsRequest(`${to.connector.inboundUrl}/transfers/${transferId}/error`, {
    method: 'PUT',
    tls,
    headers: {
      'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': HUB_ID,
      'fspiop-destination': to.name,
    },
    body: JSON.stringify({ errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } }),
  });
}

test.serial('a payment between two connectors runs over mutual TLS end to end: the connectors reach the switch and the switch reaches them', async (t) => {
  const before = { payer: await positionOf(payer), payee: await positionOf(payee) };
  const response = await fetch(`${payer.connector.outboundUrl}/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      homeTransactionId: crypto.randomUUID(),
      from: { idType: 'MSISDN', idValue: '27713803911' },
      to: { idType: 'MSISDN', idValue: BOB, fspId: payee.name },
      amountType: 'SEND',
      currency: 'USD',
      amount: '12',
      transactionType: 'TRANSFER',
    }),
  });
  const transfer = (await response.json()) as { currentState: string };
  t.is(response.status, 200, JSON.stringify(transfer));
  t.is(transfer.currentState, 'COMPLETED');
  t.is(await positionOf(payer), before.payer + 12);
  t.is(await positionOf(payee), before.payee - 12);
});

test.serial("a participant's certificate, valid at the switch, cannot speak as the switch at another's connector: 403 and nothing taken", async (t) => {
  const transferId = crypto.randomUUID();
  for (const [target, sender] of [
    [payer, payee],
    [payee, payer],
  ] as const) {
    const forged = await forgedSwitchError(target, transferId, sender.tls);
    t.is(forged.status, 403, `${sender.name} at ${target.name}'s connector`);
    t.is(JSON.parse(forged.text).errorInformation.errorCode, '3100');
  }
});

test.serial("without a certificate, or with one for the switch's name from another CA, the handshake is refused", async (t) => {
  const transferId = crypto.randomUUID();
  await t.throwsAsync(forgedSwitchError(payer, transferId, { ca: ca.cert }), { message: REFUSED_HANDSHAKE });
  const impostor = await strangerCa.client(HUB_ID);
  await t.throwsAsync(forgedSwitchError(payer, transferId, { ca: ca.cert, cert: impostor.cert, key: impostor.key }), { message: REFUSED_HANDSHAKE });
});
