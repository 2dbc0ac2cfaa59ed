/**
 * `npm run walkthrough`: payments through a running hub (`npm start`), step by step, with two simulated DFSPs
 * as real HTTP servers on this machine: provision both; a P2P payment (register the payee's MSISDN, look it up,
 * quote, transfer, read positions); a merchant-initiated payment (transaction request, quote, OTP authorization,
 * transfer); a bulk of three transfers; the day's settlement (close the window, settle it, positions back to zero);
 * and where to find each conversation in the Temporal UI.
 */
import crypto from 'node:crypto';
import { loadConfig } from '../activities/shared/platform/config';
import { SimulatedDfsp } from './helpers/dfsp';
import { bulkItem, bulkTransferBody, ilpPair, quoteBody, transactionRequestBody, transferBody } from './helpers/fspiopBodies';
import { uniqueName } from './helpers/database';
import { adminCall } from './helpers/hubProcesses';
import { deferredNetModel, settleOpenWindow, type AdminCall } from './helpers/settlementCycle';

const config = loadConfig();
const admin = `http://${config.host}:${config.adminPort}`;
const hub = `http://${config.host}:${config.switchPort}`;
const say = (message: string) => process.stdout.write(`${message}\n`);

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function fspiop(method: string, path: string, source: string, destination: string | undefined, body?: unknown) {
  const resource = path.split(/[/?]/)[1];
  const type = `application/vnd.interoperability.${resource}+json;version=1.1`;
  return call(hub, method, path, body, {
    ...(method === 'PUT' ? {} : { accept: type }),
    'content-type': type,
    date: new Date().toUTCString(),
    'fspiop-source': source,
    ...(destination ? { 'fspiop-destination': destination } : {}),
  });
}

async function provision(dfsp: SimulatedDfsp) {
  const created = await call(admin, 'POST', '/participants', { name: dfsp.name, currency: 'USD' });
  await call(admin, 'PUT', `/participants/${dfsp.name}`, { isActive: true });
  for (const endpoint of dfsp.endpoints()) await call(admin, 'POST', `/participants/${dfsp.name}/endpoints`, endpoint);
  await call(admin, 'POST', `/participants/${dfsp.name}/initialPositionAndLimits`, {
    currency: 'USD',
    limit: { type: 'NET_DEBIT_CAP', value: 10000 },
    initialPosition: 0,
  });
  const settlement = created.accounts.find((a: { ledgerAccountType: string }) => a.ledgerAccountType === 'SETTLEMENT').id;
  await call(admin, 'POST', `/participants/${dfsp.name}/accounts/${settlement}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'opening deposit',
    action: 'recordFundsIn',
    reason: 'walkthrough',
    amount: { amount: 10000, currency: 'USD' },
  });
  say(`  ${dfsp.name}: active, endpoints at ${dfsp.url}, Net Debit Cap 10000 USD, 10000 USD deposited`);
}

async function main(): Promise<void> {
  const payer = await SimulatedDfsp.start(uniqueName('payer'));
  const payee = await SimulatedDfsp.start(uniqueName('payee'));
  try {
    say('1. provision two DFSPs through the admin API');
    await provision(payer);
    await provision(payee);

    const msisdn = String(27_700_000_000 + crypto.randomInt(99_999_999));
    say(`2. ${payee.name} registers MSISDN ${msisdn} in the hub's account lookup`);
    await fspiop('POST', `/participants/MSISDN/${msisdn}`, payee.name, undefined, { fspId: payee.name, currency: 'USD' });
    await payee.waitFor((r) => r.method === 'PUT' && r.path === `/participants/MSISDN/${msisdn}`);

    say(`3. ${payer.name} looks the party up: GET /parties/MSISDN/${msisdn}`);
    payee.react(async (request) => {
      if (request.method === 'GET' && request.path.startsWith('/parties/')) {
        await fspiop('PUT', `/parties/MSISDN/${msisdn}`, payee.name, payer.name, {
          party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: msisdn, fspId: payee.name }, name: 'Mats Hagman' },
        });
      }
    });
    await fspiop('GET', `/parties/MSISDN/${msisdn}`, payer.name, undefined);
    const party = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/parties/MSISDN/${msisdn}`);
    say(`   → ${party.body.party.name} at ${party.body.party.partyIdInfo.fspId}`);

    const { fulfilment, condition } = ilpPair();
    payee.react(async (request) => {
      if (request.method === 'POST' && request.path === '/quotes') {
        await fspiop('PUT', `/quotes/${request.body.quoteId}`, payee.name, payer.name, {
          transferAmount: request.body.amount,
          expiration: new Date(Date.now() + 60_000).toISOString(),
          ilpPacket: Buffer.from(`payment to ${msisdn}`).toString('base64url'),
          condition,
        });
      }
      if (request.method === 'POST' && request.path === '/transfers') {
        await fspiop('PUT', `/transfers/${request.body.transferId}`, payee.name, payer.name, {
          fulfilment,
          completedTimestamp: new Date().toISOString(),
          transferState: 'COMMITTED',
        });
      }
    });
    const quote = quoteBody(payer.name, payee.name, '100');
    say(`4. ${payer.name} asks for a quote: POST /quotes ${quote.quoteId}`);
    await fspiop('POST', '/quotes', payer.name, payee.name, quote);
    const quoted = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/quotes/${quote.quoteId}`);
    say(`   → ${quoted.body.transferAmount.amount} ${quoted.body.transferAmount.currency}, condition ${quoted.body.condition}`);

    const transfer = transferBody(payer.name, payee.name, '100', { condition: quoted.body.condition });
    say(`5. ${payer.name} sends the transfer: POST /transfers ${transfer.transferId}`);
    await fspiop('POST', '/transfers', payer.name, payee.name, transfer);
    const done = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${transfer.transferId}`);
    say(`   → ${done.body.transferState}, fulfilment ${done.body.fulfilment}`);

    say('6. positions after the transfer');
    for (const dfsp of [payer, payee]) {
      const position = await call(admin, 'GET', `/participants/${dfsp.name}/positions?currency=USD`);
      say(`   ${dfsp.name}: ${position.value} ${position.currency}`);
    }
    say(`7. find it in the Temporal UI: http://127.0.0.1:8233/namespaces/default/workflows/transfer%2F${transfer.transferId}`);
    say(`   or search: PayerFsp = '${payer.name}' AND State = 'COMMITTED'`);

    await merchantInitiated(payer, payee, condition, fulfilment);
    await bulkTransfer(payer, payee);
    await settlement(payer, payee);
  } finally {
    await payer.close();
    await payee.close();
  }
}

/**
 * The payee, a merchant, asks the payer's DFSP for money (POST /transactionRequests); the payer's DFSP takes it in,
 * quotes it, asks the merchant's DFSP for the customer's OTP (GET /authorizations), approves and transfers. The whole
 * conversation is one workflow, `transactionRequest/<ID>`, with each authorization round in its history.
 */
async function merchantInitiated(payer: SimulatedDfsp, merchant: SimulatedDfsp, condition: string, fulfilment: string): Promise<void> {
  const request = transactionRequestBody(merchant.name, payer.name, '40');
  const id = request.transactionRequestId;
  say(`8. ${merchant.name}, a merchant, asks ${payer.name}'s customer to pay 40 USD: POST /transactionRequests ${id}`);
  payer.react(async (message) => {
    if (message.method === 'POST' && message.path === '/transactionRequests') {
      await fspiop('PUT', `/transactionRequests/${id}`, payer.name, merchant.name, { transactionRequestState: 'RECEIVED' });
    }
  });
  await fspiop('POST', '/transactionRequests', merchant.name, payer.name, request);
  const received = await merchant.waitFor((r) => r.method === 'PUT' && r.path === `/transactionRequests/${id}`);
  say(`   → ${payer.name} answers ${received.body.transactionRequestState}`);

  const quote = { ...quoteBody(payer.name, merchant.name, '40'), transactionRequestId: id };
  say(`9. ${payer.name} quotes it: POST /quotes ${quote.quoteId} (transactionRequestId ${id})`);
  await fspiop('POST', '/quotes', payer.name, merchant.name, quote);
  const quoted = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/quotes/${quote.quoteId}`);

  const otp = String(crypto.randomInt(1000, 10_000));
  merchant.react(async (message) => {
    if (message.method === 'GET' && message.path.startsWith(`/authorizations/${id}`)) {
      await fspiop('PUT', `/authorizations/${id}`, merchant.name, payer.name, {
        authenticationInfo: { authentication: 'OTP', authenticationValue: otp },
        responseType: 'ENTERED',
      });
    }
    if (message.method === 'POST' && message.path === '/transfers') {
      await fspiop('PUT', `/transfers/${message.body.transferId}`, merchant.name, payer.name, {
        fulfilment,
        completedTimestamp: new Date().toISOString(),
        transferState: 'COMMITTED',
      });
    }
  });
  say(`10. ${payer.name} asks for the customer's OTP: GET /authorizations/${id}?authenticationType=OTP&retriesLeft=3&amount=40&currency=USD`);
  await fspiop('GET', `/authorizations/${id}?authenticationType=OTP&retriesLeft=3&amount=40&currency=USD`, payer.name, merchant.name);
  const entered = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/authorizations/${id}`);
  say(`    → the customer entered ${entered.body.authenticationInfo.authenticationValue} (${entered.body.responseType})`);

  const transfer = transferBody(payer.name, merchant.name, '40', { condition: quoted.body.condition ?? condition });
  say(`11. the OTP checks out: ${payer.name} approves and transfers: POST /transfers ${transfer.transferId}`);
  await fspiop('POST', '/transfers', payer.name, merchant.name, transfer);
  const done = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/transfers/${transfer.transferId}`);
  await fspiop('PUT', `/transactionRequests/${id}`, payer.name, merchant.name, { transactionRequestState: 'ACCEPTED' });
  await merchant.waitFor((r) => r.method === 'PUT' && r.path === `/transactionRequests/${id}` && r.body.transactionRequestState === 'ACCEPTED');
  say(`    → ${done.body.transferState}; ${payer.name} tells ${merchant.name} the request is ACCEPTED`);
  say(`12. the whole conversation: http://127.0.0.1:8233/namespaces/default/workflows/transactionRequest%2F${id}`);
}

/**
 * One bulk of three transfers to the same payee FSP: the payee fulfils two and refuses one; the two commit, the third's
 * reservation is released, and the payer gets each item's result in one PUT /bulkTransfers/{ID}.
 */
async function bulkTransfer(payer: SimulatedDfsp, payee: SimulatedDfsp): Promise<void> {
  const items = [bulkItem('10'), bulkItem('20'), bulkItem('30')];
  const bulk = bulkTransferBody(payer.name, payee.name, items);
  const before = await call(admin, 'GET', `/participants/${payer.name}/positions?currency=USD`);
  say(`13. ${payer.name} sends a bulk of 3 transfers (10, 20, 30 USD): POST /bulkTransfers ${bulk.bulkTransferId}`);
  payee.react(async (message) => {
    if (message.method === 'POST' && message.path === '/bulkTransfers') {
      await fspiop('PUT', `/bulkTransfers/${bulk.bulkTransferId}`, payee.name, payer.name, {
        bulkTransferState: 'COMPLETED',
        completedTimestamp: new Date().toISOString(),
        individualTransferResults: items.map(({ transfer, fulfilment }, index) =>
          index < 2
            ? { transferId: transfer.transferId, fulfilment }
            : { transferId: transfer.transferId, errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } },
        ),
      });
    }
  });
  await fspiop('POST', '/bulkTransfers', payer.name, payee.name, bulk);
  const done = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/bulkTransfers/${bulk.bulkTransferId}`);
  say(`    → ${done.body.bulkTransferState}:`);
  for (const result of done.body.individualTransferResults) {
    say(`      ${result.transferId} ${result.fulfilment ? 'committed' : `refused ${result.errorInformation.errorCode}`}`);
  }
  const after = await call(admin, 'GET', `/participants/${payer.name}/positions?currency=USD`);
  say(`    ${payer.name}'s position rose by ${after.value - before.value} USD (the two committed items)`);
  say(`14. the bulk: http://127.0.0.1:8233/namespaces/default/workflows/bulkTransfer%2F${bulk.bulkTransferId}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * The operator settles the day over Mojaloop's settlement API (/v2 on the admin port): the open window closes, a
 * deferred net settlement of it walks to SETTLED, and every position is back where it stood before the window.
 */
async function settlement(payer: SimulatedDfsp, payee: SimulatedDfsp): Promise<void> {
  say('15. settlement: close the window, settle it, positions back to zero');
  const adminApi: AdminCall = (method, path, body) => adminCall(admin, method, path, body);
  const settled = await settleOpenWindow(adminApi, await deferredNetModel(adminApi, 'USD'), (line) => say(`   ${line}`));
  for (const dfsp of [payer, payee]) {
    const position = await call(admin, 'GET', `/participants/${dfsp.name}/positions?currency=USD`);
    say(`   ${dfsp.name}: ${position.value} ${position.currency}`);
  }
  say(`   in the Temporal UI: http://127.0.0.1:8233/namespaces/default/workflows/settlement%2F${settled.id}`);
}
