import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pino from 'pino';
import type { Client } from '@temporalio/client';
import type { PeerMessage } from '../../api/contracts/peers';
import { inboundRouter } from '../../api/connector/inbound';
import { inboundSignatures } from '../../api/connector/signature';
import { createGateway, gatewayServer } from '../../api/http/gateway';
import { sign } from '../../activities/platform/jws';
import { quoteBody } from '../helpers/fspiopBodies';

// A connector's inbound API with VALIDATE_INBOUND_JWS on: what the switch delivers is handed over only if signed by its
// FSPIOP-Source, whose key is <fspId>.pem in JWS_VERIFICATION_KEYS_DIRECTORY. No Temporal is needed: the route records.
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'connector-jws-'));
const payer = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
fs.writeFileSync(path.join(directory, 'payerfsp.pem'), payer.publicKey.export({ type: 'spki', format: 'pem' }));

const delivered: PeerMessage[] = [];
const log = pino({ level: 'silent' });
let url: string;
let server: ReturnType<typeof gatewayServer>;
test.before(async () => {
  const routes = [{ resource: 'quotes' as const, name: 'request' as const, deliver: async (message: PeerMessage) => void delivered.push(message) }];
  const deps = {
    client: undefined as unknown as Client,
    taskQueue: 'none',
    log,
    hubParticipantName: 'Hub',
    checkSignature: inboundSignatures({ validateInboundJws: true, jwsVerificationKeysDirectory: directory }),
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

const handedOver = (quoteId: string) => delivered.some((message) => (message.body as { quoteId: string }).quoteId === quoteId);

test("a message signed by its FSPIOP-Source's key is handed to its conversation", async (t) => {
  const sent = await postQuote(payer.privateKey);
  t.is(sent.status, 202);
  t.true(handedOver(sent.quoteId));
});

test('an unsigned message, one signed with another key, and one from a sender without a key are refused 3105 and go nowhere', async (t) => {
  const stranger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
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
