import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { simulatedBackends } from '../../activities/dfsp/simulator/simulated';
import { SimulatedBank } from '../../activities/dfsp/simulator/simulatedBank';
import { startDfspConnector } from '../../worker/dfspConnector';
import type { RunningConnector } from '../../worker/connector';
import { connectorBundle, connectorConfig, onboardConnector, testLog } from '../helpers/connectors';
import { uniqueName } from '../helpers/database';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair } from '../helpers/fspiopBodies';
import { signedCall } from '../helpers/signedCalls';
import { fspiopHeadersOf, startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { rsaKeyPair } from '../helpers/keyPairs';

// A payer connector that knows its senders by signatures alone (VALIDATE_INBOUND_JWS, no client certificates): a
// payee's signed message reads the same whether the switch relayed it or the payee sent it straight to the payer's
// connector, so the payer takes a COMMITTED in the payee's name as the outcome only once the switch, in its own signed
// name, says the transfer committed.

const keysDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-payer-'));
const rsa = () => rsaKeyPair();
const hubKeys = rsa();
const payeeKeys = rsa();
const publicPem = (keys: crypto.KeyPairKeyObjectResult) => keys.publicKey.export({ type: 'spki', format: 'pem' });

let hub: SwitchHarness;
let payer: RunningConnector;
let payee: SimulatedDfsp;
/** What the payee does with each transfer it is asked for, with the fulfilment of its quote's condition. */
let onTransfer: (transfer: { transferId: string; fulfilment: string }) => Promise<void>;

test.before(async () => {
  const signingKeyPath = path.join(keysDirectory, 'hub.key');
  fs.writeFileSync(signingKeyPath, hubKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  hub = await startSwitch({ jws: { validate: false, signingKeyPath } });
  payee = await hub.provision();
  fs.writeFileSync(path.join(keysDirectory, 'Hub.pem'), publicPem(hubKeys));
  fs.writeFileSync(path.join(keysDirectory, `${payee.name}.pem`), publicPem(payeeKeys));
  const name = uniqueName();
  payer = await startDfspConnector(
    connectorConfig(hub, name, { requestTimeoutMs: 3_000, validateInboundJws: true, jwsVerificationKeysDirectory: keysDirectory }),
    testLog(),
    simulatedBackends(new SimulatedBank(name)),
    { workflowBundlePath: connectorBundle('dfsp') },
  );
  await onboardConnector(hub, payer);
  const fulfilments = new Map<string, string>();
  payee.react(async (request) => {
    const from = request.headers['fspiop-source'] as string;
    if (request.method === 'POST' && request.path === '/quotes') {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      const quote = {
        transferAmount: request.body.amount,
        payeeReceiveAmount: request.body.amount,
        expiration: new Date(Date.now() + 60_000).toISOString(),
        ilpPacket: Buffer.from(`ilp packet of quote ${request.body.quoteId}`).toString('base64url'),
        condition,
      };
      const quotePath = `/quotes/${request.body.quoteId}`;
      await hub.fspiop('PUT', quotePath, await signedCall('PUT', quotePath, { source: payee.name, destination: from, body: quote }, payeeKeys.privateKey));
    }
    if (request.method === 'POST' && request.path === '/transfers') {
      await onTransfer({ transferId: request.body.transferId, fulfilment: fulfilments.get(request.body.condition)! });
    }
  });
});

test.after.always(async () => {
  await payer?.stop();
  await hub?.close();
  fs.rmSync(keysDirectory, { recursive: true, force: true });
});

const committed = (fulfilment: string) => ({ fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' });

/** The payee's PUT /transfers/{ID} COMMITTED with the fulfilment, signed with its key: sent through the switch or straight to the payer. */
async function signedCommit(transferId: string, fulfilment: string) {
  const transferPath = `/transfers/${transferId}`;
  const call = await signedCall(
    'PUT',
    transferPath,
    { source: payee.name, destination: payer.config.participantId, body: committed(fulfilment) },
    payeeKeys.privateKey,
  );
  return { transferPath, call };
}

/** Alice at the payer bank sends `amount` to Bob at the payee, through the payer connector's outbound API. */
async function pay(amount: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${payer.outboundUrl}/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      homeTransactionId: crypto.randomUUID(),
      from: { idType: 'MSISDN', idValue: '27713803911' },
      to: { idType: 'MSISDN', idValue: '27713803912', fspId: payee.name },
      amountType: 'SEND',
      currency: 'USD',
      amount,
      transactionType: 'TRANSFER',
      skipPartyLookup: true,
      prepareExpirySeconds: 3,
    }),
  });
  return { status: response.status, body: await response.json() };
}

test.serial(
  'a COMMITTED the payee signs and sends straight to the payer, never fulfilling at the switch, is not the outcome: the switch aborts and the payer reports the error',
  async (t) => {
    onTransfer = async ({ transferId, fulfilment }) => {
      const { transferPath, call } = await signedCommit(transferId, fulfilment);
      const headers = { ...fspiopHeadersOf('PUT', transferPath, call), ...(call.headers as Record<string, string>) };
      const straight = await fetch(`${payer.inboundUrl}${transferPath}`, { method: 'PUT', headers, body: call.body as string });
      if (straight.status !== 200) throw new Error(`the payer's connector did not take the payee's signed COMMITTED: ${straight.status}`);
    };
    const before = await hub.position({ name: payer.config.participantId });
    const sent = await pay('7');
    t.is(sent.status, 500, JSON.stringify(sent.body));
    t.is(sent.body.transferState.currentState, 'ERROR_OCCURRED', 'the fulfilment alone did not make it COMPLETED');
    t.is(await hub.position({ name: payer.config.participantId }), before, 'the switch moved nothing');
  },
);

test.serial('the same payee fulfilling through the switch: the payer confirms with the switch and reports COMPLETED', async (t) => {
  onTransfer = async ({ transferId, fulfilment }) => {
    const { transferPath, call } = await signedCommit(transferId, fulfilment);
    const answered = await hub.fspiop('PUT', transferPath, call);
    if (answered.status !== 200) throw new Error(`the switch did not take the fulfilment: ${answered.status} ${JSON.stringify(answered.body)}`);
  };
  const before = await hub.position({ name: payer.config.participantId });
  const sent = await pay('8');
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.currentState, 'COMPLETED');
  t.is(await hub.position({ name: payer.config.participantId }), before + 8);
});
