// `npm run interop`: the hub against real Mojaloop software. Two stock @mojaloop/sdk-scheme-adapter DFSPs (each
// with its own Redis and a small backend) are provisioned through the admin API as Mojaloop's onboarding does
// and make P2P and merchant-initiated payments through the hub; every check prints a line, and the run ends with `N passed, M failed`.
//
//   npm run interop                                   starts a hub of its own (fresh database, in-memory Temporal)
//   npm run interop -- --switch URL --admin URL       uses a running hub (started with NEW_PARTICIPANTS_ACTIVE=true)

import crypto from 'node:crypto';
import path from 'node:path';
import { answerBody } from '../helpers/http';
import { DfspBackend, MERCHANT_OTP } from './backend';
import { adminCall, HubProcesses, onboardParticipant, positionOf, startHubProcesses } from '../helpers/hubProcesses';
import { installPeers, PEERS_DIR, redisServerPath, SdkAdapter, startRedis, startSdkAdapter, Tap, Tapped } from './peers';

const say = (message: string) => process.stdout.write(`${message}\n`);
const log = (message: string) => process.stderr.write(`${message}\n`);

const CURRENCY = 'USD';
/** The payer SDK dates its transfers this far ahead; the expiry scenario waits it out. */
const PAYER_EXPIRY_SECONDS = 12;
const REJECTED_AMOUNT = '66';
const SLOW_AMOUNT = '13';

type Hub = Pick<HubProcesses, 'switchUrl' | 'adminUrl' | 'stop'>;

interface Dfsp {
  name: string;
  sdk: SdkAdapter;
  backend: DfspBackend;
  tap: Tap;
}

let passed = 0;
let failed = 0;

function check(what: string, ok: boolean, detail?: unknown): boolean {
  if (ok) passed++;
  else failed++;
  say(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : ` — ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
  return ok;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** A participant's position, as the admin API reports it. */
const position = (hub: Hub, name: string) => positionOf(hub.adminUrl, name, CURRENCY);

const admin = (hub: Hub, method: string, urlPath: string, body?: unknown) => adminCall(hub.adminUrl, method, urlPath, body);

async function outbound(dfsp: Dfsp, method: string, urlPath: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${dfsp.sdk.outboundUrl}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: response.status, body: await answerBody(response) };
}

const msisdn = () => `4470${crypto.randomInt(10 ** 7, 10 ** 8)}`;

function transferRequest(from: string, to: string, amount: string) {
  return {
    homeTransactionId: crypto.randomUUID(),
    from: { idType: 'MSISDN', idValue: from },
    to: { idType: 'MSISDN', idValue: to },
    amountType: 'SEND',
    currency: CURRENCY,
    amount,
    transactionType: 'TRANSFER',
    note: 'interop suite',
  };
}

/** The Mojaloop error code an SDK outbound error names, wherever this SDK version puts it. */
function mojaloopErrorCode(body: any): string | undefined {
  const error = body?.transferState?.lastError?.mojaloopError ?? body?.mojaloopError;
  return error?.errorInformation?.errorCode ?? body?.statusCode;
}

/** Registers a customer at its DFSP's backend and in the hub's account lookup, through the SDK's POST /accounts. */
async function addCustomer(dfsp: Dfsp, id: string, firstName: string): Promise<boolean> {
  dfsp.backend.customers.set(`MSISDN/${id}`, {
    idType: 'MSISDN',
    idValue: id,
    displayName: `${firstName} Test`,
    firstName,
    lastName: 'Test',
    dateOfBirth: '1990-01-01',
  });
  const registered = await outbound(dfsp, 'POST', '/accounts', [{ idType: 'MSISDN', idValue: id, currency: CURRENCY }]);
  return check(`${dfsp.name} registers MSISDN ${id} in the hub's account lookup (SDK POST /accounts)`, registered.status === 200, registered);
}

const refusals = (dfsp: Dfsp, since: number) => dfsp.tap.seen.slice(since).filter((message) => message.status >= 400);

async function happyPath(hub: Hub, payer: Dfsp, payee: Dfsp, payerId: string, payeeId: string): Promise<void> {
  say('\n# P2P transfer: lookup, quote, transfer, positions');
  const [payerBefore, payeeBefore] = [await position(hub, payer.name), await position(hub, payee.name)];
  const [payerSeen, payeeSeen] = [payer.tap.seen.length, payee.tap.seen.length];
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, payeeId, '100'));
  check('the payer SDK completes the transfer (currentState COMPLETED)', result.status === 200 && result.body?.currentState === 'COMPLETED', result);
  check('the party lookup found the payee at its DFSP', result.body?.to?.fspId === payee.name, result.body?.to);
  check('the quote came back from the payee with a condition', Boolean(result.body?.quoteResponse?.body?.condition), result.body?.quoteResponse);
  check(
    'the transfer is COMMITTED with a fulfilment',
    result.body?.fulfil?.body?.transferState === 'COMMITTED' && Boolean(result.body?.fulfil?.body?.fulfilment),
    result.body?.fulfil,
  );
  check('the payer position rose by 100', (await position(hub, payer.name)) === payerBefore + 100);
  const transaction = await admin(hub, 'GET', `/transactions/${result.body?.transferId}`);
  check(
    "the admin API's GET /transactions/{id} reads the transaction in the payee SDK's ILP packet",
    transaction.status === 200 && transaction.body?.quoteId === result.body?.quoteId && transaction.body?.amount?.amount === '100',
    transaction,
  );
  check('the payee position fell by 100', (await position(hub, payee.name)) === payeeBefore - 100);
  const refused = [...refusals(payer, payerSeen), ...refusals(payee, payeeSeen)];
  check(
    'neither SDK refused any message of the payment',
    refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
}

/** Over every message the hub sent either SDK in the whole run. */
function whatTheHubSent(dfsps: Dfsp[]): void {
  say('\n# Every message the hub sent the SDKs');
  const all = dfsps.flatMap((dfsp) => dfsp.tap.seen);
  const refused = all.filter((m) => m.status >= 400);
  check(
    `the SDKs refused none of the ${all.length} messages`,
    all.length > 0 && refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
  const callbacks = all.filter((m) => m.method === 'PUT' || m.method === 'PATCH');
  check(
    `none of the ${callbacks.length} callbacks carries an Accept header`,
    callbacks.length > 0 && callbacks.every((m) => m.headers.accept === undefined),
    callbacks.map((m) => m.headers.accept),
  );
  const fromHub = all.filter((m) => m.headers['fspiop-source'] === 'Hub');
  check(
    `the hub's own ${fromHub.length} messages name FSPIOP-URI and FSPIOP-HTTP-Method as sent`,
    fromHub.length > 0 && fromHub.every((m) => m.headers['fspiop-uri'] === m.path && m.headers['fspiop-http-method'] === m.method),
    fromHub.map((m) => [m.method, m.path, m.headers['fspiop-http-method'], m.headers['fspiop-uri']]),
  );
}

async function payeeRejects(hub: Hub, payer: Dfsp, payee: Dfsp, payerId: string, payeeId: string): Promise<void> {
  say('\n# The payee rejects the transfer');
  const payerBefore = await position(hub, payer.name);
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, payeeId, REJECTED_AMOUNT));
  check('the payer SDK reports the failure (ERROR_OCCURRED)', result.status >= 400 && result.body?.transferState?.currentState === 'ERROR_OCCURRED', result);
  const rejection = await payee.tap.waitFor((m) => m.method === 'POST' && m.path === '/transfers' && m.body?.amount?.amount === REJECTED_AMOUNT, {
    timeoutMs: 1_000,
  });
  const error =
    rejection && (await payer.tap.waitFor((m) => m.method === 'PUT' && m.path === `/transfers/${rejection.body.transferId}/error`, { timeoutMs: 5_000 }));
  check("the payee SDK's error callback reached the payer SDK through the hub", error !== undefined && error.status === 200, error);
  check('the payer position is unchanged', (await position(hub, payer.name)) === payerBefore);
}

async function transferExpires(hub: Hub, payer: Dfsp, payee: Dfsp, payerId: string, payeeId: string): Promise<void> {
  say(`\n# The payee answers after the transfer expired (${PAYER_EXPIRY_SECONDS} s)`);
  const payerBefore = await position(hub, payer.name);
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, payeeId, SLOW_AMOUNT));
  check('the payer SDK reports the failure with 3303 Transfer expired', result.status >= 400 && mojaloopErrorCode(result.body) === '3303', result);
  const prepare = payee.tap.seen.find((m) => m.method === 'POST' && m.path === '/transfers' && m.body?.amount?.amount === SLOW_AMOUNT);
  const toPayee =
    prepare && (await payee.tap.waitFor((m) => m.method === 'PUT' && m.path === `/transfers/${prepare.body.transferId}/error`, { timeoutMs: 5_000 }));
  check('the payee SDK is told 3303 too, and accepts it', toPayee?.body?.errorInformation?.errorCode === '3303' && toPayee.status === 200, toPayee);
  check('the reservation is released: the payer position is unchanged', (await position(hub, payer.name)) === payerBefore);
}

/** Resends a message exactly as its sender sent it (headers and bytes, as the hub forwarded them), dated now. */
async function resend(hub: Hub, message: Tapped, body?: unknown): Promise<number> {
  const headers: Record<string, string> = {};
  for (const name of ['accept', 'content-type', 'fspiop-source', 'fspiop-destination']) {
    const value = message.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers.date = new Date().toUTCString();
  const response = await fetch(`${hub.switchUrl}${message.path}`, {
    method: message.method,
    headers,
    body: body === undefined ? message.raw : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function duplicateTransfer(hub: Hub, payer: Dfsp, payee: Dfsp, payerId: string, payeeId: string): Promise<void> {
  say("\n# The payer SDK's POST /transfers is sent again after the transfer committed");
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, payeeId, '7'));
  if (!check('a transfer of 7 completes first', result.body?.currentState === 'COMPLETED', result)) return;
  const original = payee.tap.seen.find((m) => m.method === 'POST' && m.path === '/transfers' && m.body?.transferId === result.body.transferId);
  if (!check("the payee SDK received the payer SDK's POST /transfers", original !== undefined)) return;
  const [payerBefore, payerSeen] = [await position(hub, payer.name), payer.tap.seen.length];
  check('the repeated POST /transfers is accepted (202)', (await resend(hub, original!)) === 202);
  const resent = await payer.tap.waitFor((m) => m.method === 'PUT' && m.path === `/transfers/${original!.body.transferId}`, { since: payerSeen });
  check('the payer SDK gets the committed state again, and accepts it', resent?.body?.transferState === 'COMMITTED' && resent.status === 200, resent);
  check(
    'the payee SDK is not asked a second time',
    payee.tap.seen.filter((m) => m.method === 'POST' && m.body?.transferId === original!.body.transferId).length === 1,
  );
  check('the repeat moved no money', (await position(hub, payer.name)) === payerBefore);
  const modified = { ...original!.body, amount: { ...original!.body.amount, amount: '8' } };
  check('a repeat with a changed body is accepted (202)', (await resend(hub, original!, modified)) === 202);
  const error = await payer.tap.waitFor((m) => m.method === 'PUT' && m.path === `/transfers/${original!.body.transferId}/error`, { since: payerSeen });
  check('and answered with 3106 Modified request', error?.body?.errorInformation?.errorCode === '3106', error?.body);
}

/** A message sent to the hub the way a DFSP sends it, with the FSPIOP headers of its resource. */
async function sendFspiop(hub: Hub, method: string, urlPath: string, from: string, to: string, body?: unknown): Promise<number> {
  const resource = urlPath.split(/[/?]/)[1];
  const mediaType = `application/vnd.interoperability.${resource}+json;version=1.0`;
  const response = await fetch(`${hub.switchUrl}${urlPath}`, {
    method,
    headers: {
      ...(method === 'PUT' ? {} : { accept: `application/vnd.interoperability.${resource}+json;version=1` }),
      'content-type': mediaType,
      date: new Date().toUTCString(),
      'fspiop-source': from,
      'fspiop-destination': to,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * A merchant-initiated payment's own messages, each answered by a real SDK: the merchant's transaction request
 * reaches the customer's SDK, whose RECEIVED reaches the merchant's SDK; the customer's DFSP asks for authorization
 * and the merchant's SDK answers with the OTP its customer entered. SDK 18.0.2 cannot start these itself: its
 * outbound requestToPay and requestToPayTransfer want `scenario` as an object and put that object where FSPIOP wants
 * the scenario's name, so the suite sends the two requests as the SDK would, and the SDKs do everything else.
 * The quote and the transfer that complete such a payment are the P2P flows above.
 */
async function merchantInitiated(hub: Hub, customerDfsp: Dfsp, merchantDfsp: Dfsp, customerId: string, merchantId: string): Promise<void> {
  say('\n# Merchant-initiated payment: transaction request and OTP authorization between two SDKs');
  const transactionRequestId = crypto.randomUUID();
  const amount = { amount: '25', currency: CURRENCY };
  const [customerSeen, merchantSeen] = [customerDfsp.tap.seen.length, merchantDfsp.tap.seen.length];
  const request = {
    transactionRequestId,
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: merchantId, fspId: merchantDfsp.name } },
    payer: { partyIdType: 'MSISDN', partyIdentifier: customerId, fspId: customerDfsp.name },
    amount,
    transactionType: { scenario: 'PAYMENT', initiator: 'PAYEE', initiatorType: 'BUSINESS' },
  };
  check(
    "the merchant DFSP's POST /transactionRequests is accepted (202)",
    (await sendFspiop(hub, 'POST', '/transactionRequests', merchantDfsp.name, customerDfsp.name, request)) === 202,
  );
  const delivered = await customerDfsp.tap.waitFor(
    (m) => m.method === 'POST' && m.path === '/transactionRequests' && m.body?.transactionRequestId === transactionRequestId,
    {
      since: customerSeen,
    },
  );
  check('the customer SDK takes the transaction request in (202)', delivered?.status === 202, delivered);
  const asked = customerDfsp.backend.received.some(
    (r) => r.method === 'POST' && r.path === '/transactionrequests' && r.body?.transactionRequestId === transactionRequestId,
  );
  check('the customer SDK hands it to its backend (POST /transactionrequests)', asked);
  const received = await merchantDfsp.tap.waitFor((m) => m.method === 'PUT' && m.path === `/transactionRequests/${transactionRequestId}`, {
    since: merchantSeen,
  });
  check(
    "the customer SDK's RECEIVED reaches the merchant SDK through the hub, and is accepted",
    received?.body?.transactionRequestState === 'RECEIVED' && received.status === 200,
    received,
  );

  const query = `authenticationType=OTP&retriesLeft=1&amount=${amount.amount}&currency=${CURRENCY}`;
  const authorization = `/authorizations/${transactionRequestId}?${query}`;
  check(
    "the customer DFSP's GET /authorizations is accepted (202)",
    (await sendFspiop(hub, 'GET', authorization, customerDfsp.name, merchantDfsp.name)) === 202,
  );
  const forwarded = await merchantDfsp.tap.waitFor((m) => m.method === 'GET' && m.path.startsWith(`/authorizations/${transactionRequestId}`), {
    since: merchantSeen,
  });
  check('the merchant SDK gets it with the query intact, and accepts it (202)', forwarded?.path === authorization && forwarded.status === 202, forwarded?.path);
  const entered = await customerDfsp.tap.waitFor((m) => m.method === 'PUT' && m.path === `/authorizations/${transactionRequestId}`, { since: customerSeen });
  check(
    "the merchant SDK's OTP reaches the customer SDK through the hub, and is accepted",
    entered?.status === 200 && entered.body?.responseType === 'ENTERED' && entered.body?.authenticationInfo?.authenticationValue === MERCHANT_OTP,
    entered?.body,
  );
}

async function partyNotFound(payer: Dfsp, payerId: string): Promise<void> {
  say('\n# A party nobody registered');
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, msisdn(), '5'));
  check('the payer SDK reports 3204 Party not found from the hub', result.status >= 400 && mojaloopErrorCode(result.body) === '3204', result);
}

async function main(): Promise<number> {
  const stoppers: Array<() => Promise<unknown>> = [];
  try {
    await installPeers(log);
    const redisServer = redisServerPath(log);
    const given = argument('switch');
    const hub: Hub = given
      ? { switchUrl: given, adminUrl: argument('admin') ?? given.replace(/:\d+$/, ':3001'), stop: async () => undefined }
      : await startHubProcesses({ log, logDir: path.join(PEERS_DIR, 'logs') });
    stoppers.push(() => hub.stop());
    const suffix = crypto.randomBytes(3).toString('hex');
    const dfsps: Dfsp[] = [];
    for (const [name, expirySeconds] of [
      [`payerfsp${suffix}`, PAYER_EXPIRY_SECONDS],
      [`payeefsp${suffix}`, 60],
    ] as const) {
      const redis = await startRedis(redisServer, `redis-${name}`);
      stoppers.push(() => redis.stop());
      const backend = await DfspBackend.start();
      stoppers.push(() => backend.close());
      const sdk = await startSdkAdapter({
        dfspId: name,
        peerEndpoint: new URL(hub.switchUrl).host,
        backendPort: backend.port,
        cacheUrl: redis.url,
        expirySeconds,
      });
      stoppers.push(() => sdk.stop());
      const tap = await Tap.start(sdk.inboundPort);
      stoppers.push(() => tap.close());
      await onboardParticipant(hub.adminUrl, name, `http://127.0.0.1:${tap.port}`, { currency: CURRENCY });
      dfsps.push({ name, sdk, backend, tap });
    }
    const [payer, payee] = dfsps;
    payee.backend.decide = (amount) =>
      amount === REJECTED_AMOUNT ? { kind: 'reject' } : amount === SLOW_AMOUNT ? { kind: 'delay', ms: (PAYER_EXPIRY_SECONDS + 3) * 1000 } : { kind: 'accept' };
    say(`# hub ${hub.switchUrl} (admin ${hub.adminUrl}); DFSPs ${payer.name}, ${payee.name}: @mojaloop/sdk-scheme-adapter with Redis`);
    for (const dfsp of dfsps) {
      const participant = (await admin(hub, 'GET', `/participants/${dfsp.name}`)).body;
      check(`${dfsp.name} onboarded as Mojaloop's onboarding does (numeric strings, no activation step) is active`, participant?.isActive === 1, participant);
    }

    const [payerId, payeeId] = [msisdn(), msisdn()];
    if ((await addCustomer(payer, payerId, 'Payer')) && (await addCustomer(payee, payeeId, 'Payee'))) {
      await happyPath(hub, payer, payee, payerId, payeeId);
      await payeeRejects(hub, payer, payee, payerId, payeeId);
      await transferExpires(hub, payer, payee, payerId, payeeId);
      await duplicateTransfer(hub, payer, payee, payerId, payeeId);
      await merchantInitiated(hub, payer, payee, payerId, payeeId);
      await partyNotFound(payer, payerId);
    }
    whatTheHubSent(dfsps);
  } catch (error) {
    check('the suite ran to the end', false, (error as Error).message);
  } finally {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  }
  say(`\n${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
