import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pino from 'pino';
import type { Client } from '@temporalio/client';
import type { PeerMessage } from '../../activities/shared/contracts/peers';
import { inboundRouter, senderProofOf } from '../../api/connector/inboundRoutes';
import { inboundSignatures } from '../../api/connector/inboundSignatures';
import { createGateway, gatewayServer } from '../../api/http/gateway';
import { sign } from '../../activities/shared/platform/jws';
import { quoteBody } from '../helpers/fspiopBodies';
import { rsaKeyPair } from '../helpers/keyPairs';

// A connector's inbound API with VALIDATE_INBOUND_JWS on and no client certificates: what the switch delivers is handed
// over only if signed by its FSPIOP-Source, whose key is <fspId>.pem in JWS_VERIFICATION_KEYS_DIRECTORY, and only a
// message the switch signed is the switch's. No Temporal is needed: the routes record.
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'connector-jws-'));
const payer = rsaKeyPair();
const hubKeys = rsaKeyPair();
fs.writeFileSync(path.join(directory, 'payerfsp.pem'), payer.publicKey.export({ type: 'spki', format: 'pem' }));
fs.writeFileSync(path.join(directory, 'Hub.pem'), hubKeys.publicKey.export({ type: 'spki', format: 'pem' }));

const delivered: PeerMessage[] = [];
const log = pino({ level: 'silent' });
let url: string;
let server: ReturnType<typeof gatewayServer>;
test.before(async () => {
  const record = async (message: PeerMessage) => void delivered.push(message);
  const routes = (['request', 'error', 'get'] as const).map((name) => ({
    resource: name === 'request' ? ('quotes' as const) : ('transfers' as const),
    name,
    deliver: record,
  }));
  const config = { validateInboundJws: true, jwsVerificationKeysDirectory: directory };
  const deps = {
    client: undefined as unknown as Client,
    taskQueue: 'none',
    log,
    hubParticipantName: 'Hub',
    checkSignature: inboundSignatures(config),
    senderProof: senderProofOf(config),
  };
  server = gatewayServer(createGateway('inbound', log, [inboundRouter(routes, deps)]));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function postQuote(key: crypto.KeyObject | undefined, source = 'payerfsp') {
  const body = quoteBody(source, 'ourfsp', '5');
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/vnd.interoperability.quotes+json;version=1.1',
    accept: 'application/vnd.interoperability.quotes+json;version=1.1',
    date: new Date().toUTCString(),
    'fspiop-source': source,
    'fspiop-destination': 'ourfsp',
    'fspiop-uri': '/quotes',
    'fspiop-http-method': 'POST',
  };
  if (key) headers['fspiop-signature'] = await sign(headers, text, key);
  const response = await fetch(`${url}/quotes`, { method: 'POST', headers, body: text });
  const answer = await response.text();
  return { status: response.status, code: response.status >= 400 ? JSON.parse(answer).errorInformation?.errorCode : undefined, quoteId: body.quoteId };
}

const handedOver = (quoteId: string) => delivered.some((message) => (message.body as { quoteId?: string } | undefined)?.quoteId === quoteId);

test("a message signed by its FSPIOP-Source's key is handed to its conversation", async (t) => {
  const sent = await postQuote(payer.privateKey);
  t.is(sent.status, 202);
  t.true(handedOver(sent.quoteId));
});

test('an unsigned message, one signed with another key, and one from a sender without a key are refused 3105 and go nowhere', async (t) => {
  const stranger = rsaKeyPair().privateKey;
  for (const [what, sent] of [
    ['unsigned', await postQuote(undefined)],
    ['another key', await postQuote(stranger)],
    ['no key for its sender', await postQuote(stranger, 'otherfsp')],
  ] as const) {
    t.is(sent.status, 400, what);
    t.is(sent.code, '3105', what);
    t.false(handedOver(sent.quoteId), what);
  }
});

/** A PUT /transfers/{ID}/error in `source`'s name, signed with `key`: what ends a transfer at its payer. */
async function putTransferError(key: crypto.KeyObject, source: string) {
  const transferId = crypto.randomUUID();
  const text = JSON.stringify({ errorInformation: { errorCode: '5100', errorDescription: 'Payee rejected' } });
  const headers: Record<string, string> = {
    'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
    date: new Date().toUTCString(),
    'fspiop-source': source,
    'fspiop-destination': 'payerfsp',
    'fspiop-uri': `/transfers/${transferId}/error`,
    'fspiop-http-method': 'PUT',
  };
  headers['fspiop-signature'] = await sign(headers, text, key);
  const response = await fetch(`${url}/transfers/${transferId}/error`, { method: 'PUT', headers, body: text });
  const answer = await response.text();
  return { status: response.status, code: response.status >= 400 ? JSON.parse(answer).errorInformation?.errorCode : undefined, transferId };
}

const deliveredFor = (transferId: string) => delivered.find((message) => message.id === transferId);

test("an error in the switch's name is the switch's only when the switch's key signed it", async (t) => {
  const bySwitch = await putTransferError(hubKeys.privateKey, 'Hub');
  t.is(bySwitch.status, 200);
  t.true(deliveredFor(bySwitch.transferId)?.fromSwitch, 'signed by the switch: it decides the transfer');

  const forged = await putTransferError(payer.privateKey, 'Hub');
  t.is(forged.status, 400, "a participant's key does not sign for the switch");
  t.is(forged.code, '3105');
  t.is(deliveredFor(forged.transferId), undefined);

  const relayed = await putTransferError(payer.privateKey, 'payerfsp');
  t.is(relayed.status, 200);
  t.false(deliveredFor(relayed.transferId)?.fromSwitch, "a participant's own error is delivered, not as the switch's");
});

test("a message without a body is never the switch's on signatures alone: nothing binds its FSPIOP-Source", async (t) => {
  const transferId = crypto.randomUUID();
  const response = await fetch(`${url}/transfers/${transferId}`, {
    headers: {
      accept: 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': 'Hub',
      'fspiop-destination': 'payerfsp',
    },
  });
  t.is(response.status, 202);
  t.false(deliveredFor(transferId)?.fromSwitch);
});
