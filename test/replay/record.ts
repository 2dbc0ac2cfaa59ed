/**
 * Re-records the workflow histories that test/replay/replay.test.ts replays: the hub's, then the connectors'
 * (recordConnectors.ts) under histories/dfsp and histories/pisp. Run it when a workflow changes on purpose
 * (`npm run record-histories`, or `npm run record-histories -- <name>…` for some of them: a hub history's name, or
 * a connector scenario's), review the diff, and commit the new histories.
 * A change that must not break workflows already running in production needs `patched()` instead:
 * then keep the old histories, add new ones, and the replay test proves both paths still replay.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { repoRoot } from '../../activities/shared/platform/config';
import { startDevServer } from '../../temporal/devServer';
import { temporalCliPath } from '../../temporal/setup';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkQuoteAnswer, bulkQuoteBody, bulkTransferBody, ilpPair, quoteBody, transactionRequestBody, transferBody } from '../helpers/fspiopBodies';
import { sendAccepted, startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { GenericSigner } from '../helpers/softAuthenticator';
import {
  AUTH_SERVICE,
  finishLinking,
  observerReaching,
  genericCredential,
  linkThroughSwitch,
  payFromLinkedAccount,
  thirdpartyTransactionRequest,
} from '../helpers/thirdpartyFlows';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { connectorScenarios, startConnectorScheme } from './recordConnectors';

const log = (message: string) => process.stderr.write(`record: ${message}\n`);
export const historiesDir = path.join(repoRoot, 'test', 'replay', 'histories');

type Scenario = (hub: SwitchHarness, payer: SimulatedDfsp, payee: SimulatedDfsp) => Promise<string>;

const put = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

async function fulfilledTransfer(hub: SwitchHarness, payer: SimulatedDfsp, payee: SimulatedDfsp, transferState: 'COMMITTED' | 'RESERVED', repeat = false) {
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, '10', { condition });
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  await payee.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
  if (repeat) {
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: { ...body, amount: { amount: '11', currency: 'USD' } } });
    await payer.waitFor(put(`/transfers/${body.transferId}/error`));
  }
  await hub.fspiop('PUT', `/transfers/${body.transferId}`, {
    source: payee.name,
    destination: payer.name,
    body: { fulfilment, completedTimestamp: new Date().toISOString(), transferState },
  });
  await payer.waitFor(put(`/transfers/${body.transferId}`));
  return workflowIds.transfer(body.transferId);
}

/** A merchant (the payee FSP) asks the payer FSP to pay; the payer FSP answers RECEIVED, then `final`. */
async function transactionRequest(hub: SwitchHarness, payer: SimulatedDfsp, payee: SimulatedDfsp, final: 'ACCEPTED' | 'REJECTED', authorize: boolean) {
  const body = transactionRequestBody(payee.name, payer.name, '10');
  const id = body.transactionRequestId;
  const answer = (transactionRequestState: string) =>
    hub.fspiop('PUT', `/transactionRequests/${id}`, { source: payer.name, destination: payee.name, body: { transactionRequestState } });
  await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body });
  await payer.waitFor((r) => r.method === 'POST' && r.body?.transactionRequestId === id);
  await answer('RECEIVED');
  await payee.waitFor(put(`/transactionRequests/${id}`));
  if (authorize) {
    const query = 'authenticationType=OTP&retriesLeft=1&amount=10&currency=USD';
    await hub.fspiop('GET', `/authorizations/${id}?${query}`, { source: payer.name, destination: payee.name, version: '1.0' });
    await payee.waitFor((r) => r.method === 'GET' && r.path === `/authorizations/${id}?${query}`);
    await hub.fspiop('PUT', `/authorizations/${id}`, {
      source: payee.name,
      destination: payer.name,
      body: { authenticationInfo: { authentication: 'OTP', authenticationValue: '1234' }, responseType: 'ENTERED' },
      version: '1.0',
    });
    await payer.waitFor(put(`/authorizations/${id}`));
  }
  await answer(final);
  return workflowIds.transactionRequest(id);
}

/** An observer's step that a scenario must see before it goes on (an answer the observer learns from the Auth service). */
const reaching = (hub: SwitchHarness, workflowId: string) => async (state: string) => {
  const view = await observerReaching(hub.worker.client, workflowId, state);
  if (view.state !== state) throw new Error(`${workflowId} is ${view.state}, not ${state}`);
};

export const scenarios: Record<string, Scenario> = {
  'transfer-committed': (hub, payer, payee) => fulfilledTransfer(hub, payer, payee, 'COMMITTED'),
  'transfer-reserved-patch': (hub, payer, payee) => fulfilledTransfer(hub, payer, payee, 'RESERVED'),
  'transfer-duplicate': (hub, payer, payee) => fulfilledTransfer(hub, payer, payee, 'COMMITTED', true),
  'transfer-rejected': async (hub, payer, payee) => {
    const body = transferBody(payer.name, payee.name, '5');
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST' && r.body?.transferId === body.transferId);
    await hub.fspiop('PUT', `/transfers/${body.transferId}/error`, {
      source: payee.name,
      destination: payer.name,
      body: { errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } },
    });
    await payer.waitFor(put(`/transfers/${body.transferId}/error`));
    return workflowIds.transfer(body.transferId);
  },
  'transfer-expired': async (hub, payer, payee) => {
    const body = transferBody(payer.name, payee.name, '5', { expiresInMs: 3_000 });
    await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    await payer.waitFor(put(`/transfers/${body.transferId}/error`), 20_000);
    return workflowIds.transfer(body.transferId);
  },
  'bulkTransfer-completed': async (hub, payer, payee) => {
    const items = [bulkItem('1'), bulkItem('2'), bulkItem('3')];
    const body = bulkTransferBody(payer.name, payee.name, items);
    await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST' && r.body?.bulkTransferId === body.bulkTransferId);
    const [valid, invalid, refused] = items.map((item) => item.transfer.transferId);
    await hub.fspiop('PUT', `/bulkTransfers/${body.bulkTransferId}`, {
      source: payee.name,
      destination: payer.name,
      body: {
        bulkTransferState: 'COMPLETED',
        completedTimestamp: new Date().toISOString(),
        individualTransferResults: [
          { transferId: valid, fulfilment: items[0].fulfilment },
          { transferId: invalid, fulfilment: ilpPair().fulfilment },
          { transferId: refused, errorInformation: { errorCode: '5100', errorDescription: 'Payee rejection' } },
        ],
      },
    });
    await payer.waitFor(put(`/bulkTransfers/${body.bulkTransferId}`));
    return workflowIds.bulkTransfer(body.bulkTransferId);
  },
  'bulkTransfer-expired': async (hub, payer, payee) => {
    const body = bulkTransferBody(payer.name, payee.name, [bulkItem('4'), bulkItem('5')], { expiresInMs: 3_000 });
    await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
    await payer.waitFor(put(`/bulkTransfers/${body.bulkTransferId}`), 20_000);
    return workflowIds.bulkTransfer(body.bulkTransferId);
  },
  'quote-accepted': async (hub, payer, payee) => {
    const body = quoteBody(payer.name, payee.name, '5');
    await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST' && r.body?.quoteId === body.quoteId);
    const { condition } = ilpPair();
    await hub.fspiop('PUT', `/quotes/${body.quoteId}`, {
      source: payee.name,
      destination: payer.name,
      body: { transferAmount: body.amount, expiration: new Date(Date.now() + 60_000).toISOString(), ilpPacket: 'AYIBgQAAAAAAAASw', condition },
    });
    await payer.waitFor(put(`/quotes/${body.quoteId}`));
    return workflowIds.quote(body.quoteId);
  },
  'transactionRequest-accepted': (hub, payer, payee) => transactionRequest(hub, payer, payee, 'ACCEPTED', true),
  'transactionRequest-rejected': (hub, payer, payee) => transactionRequest(hub, payer, payee, 'REJECTED', false),
  'bulkQuote-accepted': async (hub, payer, payee) => {
    const body = bulkQuoteBody(payer.name, payee.name, 3);
    await hub.fspiop('POST', '/bulkQuotes', { source: payer.name, destination: payee.name, body });
    await payee.waitFor((r) => r.method === 'POST' && r.body?.bulkQuoteId === body.bulkQuoteId);
    await hub.fspiop('PUT', `/bulkQuotes/${body.bulkQuoteId}`, { source: payee.name, destination: payer.name, body: bulkQuoteAnswer(body) });
    await payer.waitFor(put(`/bulkQuotes/${body.bulkQuoteId}`));
    return workflowIds.bulkQuote(body.bulkQuoteId);
  },
  // payer: the DFSP holding the linked account; payee: the PISP.
  'linking-linked': async (hub, dfsp, pisp) => {
    const signer = new GenericSigner();
    const { consentRequestId, consentId } = await linkThroughSwitch(hub, dfsp, pisp, (id, scopes) => genericCredential(signer, id, scopes));
    await reaching(hub, workflowIds.linking(consentRequestId))('CREDENTIAL_VERIFIED');
    await finishLinking(hub, dfsp, pisp, consentId);
    return workflowIds.linking(consentRequestId);
  },
  'consent-revoked': async (hub, dfsp, pisp) => {
    const signer = new GenericSigner();
    const { consentId } = await linkThroughSwitch(hub, dfsp, pisp, (id, scopes) => genericCredential(signer, id, scopes));
    const challenge = 'a transaction challenge';
    for (const genericSignedPayload of [signer.sign(challenge), new GenericSigner().sign(challenge)]) {
      const verification = { verificationRequestId: crypto.randomUUID(), challenge, consentId, signedPayloadType: 'GENERIC', genericSignedPayload };
      await sendAccepted(hub, 'POST', '/thirdpartyRequests/verifications', dfsp.name, AUTH_SERVICE, verification);
      await dfsp.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/thirdpartyRequests/verifications/${verification.verificationRequestId}`));
    }
    await sendAccepted(hub, 'DELETE', `/consents/${consentId}`, pisp.name, dfsp.name);
    return workflowIds.consent(consentId);
  },
  'thirdpartyTransaction-completed': async (hub, dfsp, pisp) => {
    const payee = await hub.provision();
    const id = await payFromLinkedAccount(hub, { pisp, dfsp, payee: payee.name }, (transactionRequestId, state) =>
      reaching(hub, workflowIds.thirdpartyTransaction(transactionRequestId))(state),
    );
    return workflowIds.thirdpartyTransaction(id);
  },
  'thirdpartyTransaction-expired': async (hub, dfsp, pisp) => {
    const request = thirdpartyTransactionRequest(dfsp.name, 'payeefsp', 1_500);
    await sendAccepted(hub, 'POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
    return workflowIds.thirdpartyTransaction(request.transactionRequestId);
  },
};

/** Writes the history of a workflow once it has ended (or failed) to `<historiesDir>/<name>.json`. */
async function record(client: Client, workflowId: string, name: string): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  await handle.result().catch(() => undefined);
  const file = path.join(historiesDir, `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, historyToJSON(await handle.fetchHistory()));
  log(`${name}: ${workflowId}`);
}

async function main(): Promise<void> {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((name) => !(name in scenarios) && !(name in connectorScenarios));
  if (unknown.length > 0) throw new Error(`no scenario ${unknown.join(', ')}; the connectors' are ${Object.keys(connectorScenarios).join(', ')}`);
  const picked = <T>(all: Record<string, T>) => Object.entries(all).filter(([name]) => chosen.length === 0 || chosen.includes(name));

  const server = await startDevServer({ cliPath: await temporalCliPath(log), ui: false, log });
  process.env.TEMPORAL_ADDRESS = server.address;
  const hub = await startSwitch();
  try {
    const payer = await hub.provision();
    const payee = await hub.provision();
    for (const [name, scenario] of picked(scenarios)) await record(hub.worker.client, await scenario(hub, payer, payee), name);

    const connectors = picked(connectorScenarios);
    if (connectors.length === 0) return;
    const scheme = await startConnectorScheme(hub);
    try {
      for (const [, scenario] of connectors) {
        const histories = await scenario(scheme);
        await Promise.all(histories.map(({ role, name, client, workflowId }) => record(client, workflowId, path.join(role, name))));
      }
    } finally {
      await scheme.stop();
    }
  } finally {
    await hub.close();
    await server.stop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
