// `npm run interop`: the hub against real Mojaloop software. Two stock @mojaloop/sdk-scheme-adapter DFSPs (each
// with its own Redis and a small backend) are provisioned through the admin API as Mojaloop's onboarding does
// and make P2P and merchant-initiated payments through the hub; then our own DFSP connector pays one of them and is
// paid by it; then Mojaloop's thirdparty-sdk, as PISP and as DFSP, links accounts, pays and unlinks, with each other
// and with our PISP and DFSP connectors (thirdpartyPeers.ts); then DFSPs on Mojaloop's sdk-standard-components 19.x
// pay in FSPIOP 2.0 and 2.0 to 1.1, and in ISO 20022 through a second hub in that mode (standardScenarios.ts); and two
// more adapters pay over mutual TLS. Every
// participant and the hub sign what they send and validate what they receive (JWS, keys made for the run), and forged
// messages are refused. Every check prints a line, and the run ends with `N passed, M failed`.
//
//   npm run interop                                   starts a hub of its own (fresh database, in-memory Temporal)
//                                                     and a second one in ISO 20022 mode for the ISO peers
//   npm run interop -- --switch URL --admin URL       uses a running hub (started with NEW_PARTICIPANTS_ACTIVE=true),
//                      [--temporal HOST:PORT]         without JWS (its keys are not the run's); our connector runs on
//                                                     that Temporal (127.0.0.1:7233 by default)

import crypto from 'node:crypto';
import path from 'node:path';
import { answerBody, httpsRequest, jsonOrUndefined } from '../helpers/http';
import { DfspBackend, MERCHANT_OTP } from './backend';
import { HubProcesses, onboardParticipant, startHubProcesses } from '../helpers/hubProcesses';
import { SchemePki, startMutualTlsDfsp, startMutualTlsGateway } from './mutualTls';
import { loadConfig } from '../../activities/shared/platform/config';
import { JwsKeys, makeJwsKeys } from './jws';
import { OurDfsp, startOurDfsp } from './ourConnectors';
import { installPeers, PEERS_DIR, redisServerPath, startRedis, startSdkAdapter, Tap, Tapped } from './peers';
import { thirdpartyIds, thirdpartyPeers } from './thirdpartyPeers';
import { iso20022Peers, isoIds, standardIds, standardPeers } from './standardScenarios';
import { check, log, say, totals } from './report';
import { admin, CURRENCY, type Dfsp, type Hub, msisdn, outbound, position, sendFspiop, sendRaw } from './scheme';

/** The payer SDK dates its transfers this far ahead; the expiry scenario waits it out. */
const PAYER_EXPIRY_SECONDS = 12;
const REJECTED_AMOUNT = '66';
const SLOW_AMOUNT = '13';

/** An SDK outbound transfer's fulfil: COMMITTED, with a fulfilment whose SHA-256 is the quote's condition. */
function checkCommitted(what: string, result: { body: any }, quote: { condition?: string } | undefined): void {
  const fulfil = result.body?.fulfil?.body;
  check(
    what,
    fulfil?.transferState === 'COMMITTED' && typeof fulfil?.fulfilment === 'string' && conditionOf(fulfil.fulfilment) === quote?.condition,
    result.body?.fulfil,
  );
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

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
async function addCustomer(dfsp: Pick<Dfsp, 'name' | 'sdk' | 'backend'>, id: string, firstName: string): Promise<boolean> {
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

/** Over every message the hub sent either SDK in the whole run; `signed` when JWS is on. */
function whatTheHubSent(dfsps: Dfsp[], signed: boolean): void {
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
  if (signed) {
    const withBody = fromHub.filter((m) => m.raw !== '');
    check(
      `the hub's own ${withBody.length} messages with a body are signed, and (as above) each passed its SDK's validation`,
      withBody.length > 0 && withBody.every((m) => typeof m.headers['fspiop-signature'] === 'string'),
    );
  }
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

/** A message's headers as the hub passed it on, the end-to-end ones only (`signed` adds those of its signature). */
function headersOf(message: Tapped, signed: boolean): Record<string, string> {
  const names = [
    'accept',
    'content-type',
    'date',
    'fspiop-source',
    'fspiop-destination',
    ...(signed ? ['fspiop-uri', 'fspiop-http-method', 'fspiop-signature'] : []),
  ];
  return Object.fromEntries(names.flatMap((name) => (typeof message.headers[name] === 'string' ? [[name, message.headers[name] as string]] : [])));
}

/** Resends a message exactly as its sender sent it (headers, signature and bytes, as the hub forwarded them), or with another body, dated now and signed anew by its sender. */
async function resend(hub: Hub, message: Tapped, body?: unknown): Promise<number> {
  if (body === undefined) return (await sendRaw(hub, message.method, message.path, headersOf(message, true), message.raw)).status;
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { ...headersOf(message, false), date: new Date().toUTCString() };
  const signed = hub.jws ? await hub.jws.signedBy(headers['fspiop-source'], message.method, message.path, headers, text) : headers;
  return (await sendRaw(hub, message.method, message.path, signed, text)).status;
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

/**
 * With JWS on: the payer SDK's signed POST /transfers sent again with its amount altered, and a new one in the payer's
 * name signed with a key not the payer's. The hub refuses both with 3105: no money moves and the payee hears nothing.
 */
async function forgedMessages(hub: Hub & { jws: JwsKeys }, payer: Dfsp, payee: Dfsp): Promise<void> {
  say('\n# Forged and altered messages to the hub');
  const original = payee.tap.seen.find((m) => m.method === 'POST' && m.path === '/transfers' && m.headers['fspiop-source'] === payer.name);
  if (!check("the payer SDK's POST /transfers reached the payee SDK with its signature", typeof original?.headers['fspiop-signature'] === 'string')) return;
  const [payerBefore, payeeBefore, payeeSeen] = [await position(hub, payer.name), await position(hub, payee.name), payee.tap.seen.length];
  const altered = JSON.stringify({ ...original!.body, amount: { ...original!.body.amount, amount: '999' } });
  const alteredAnswer = await sendRaw(hub, 'POST', '/transfers', headersOf(original!, true), altered);
  check(
    "the payer SDK's signed POST /transfers with its amount altered is refused 3105",
    alteredAnswer.status === 400 && alteredAnswer.code === '3105',
    alteredAnswer,
  );
  const forged = JSON.stringify({ ...original!.body, transferId: crypto.randomUUID() });
  const headers = { ...headersOf(original!, false), date: new Date().toUTCString() };
  const forgedAnswer = await sendRaw(hub, 'POST', '/transfers', await hub.jws.forged('POST', '/transfers', headers, forged), forged);
  check(
    "a POST /transfers in the payer's name signed with another key is refused 3105",
    forgedAnswer.status === 400 && forgedAnswer.code === '3105',
    forgedAnswer,
  );
  check(
    'neither moved money: both positions are unchanged',
    (await position(hub, payer.name)) === payerBefore && (await position(hub, payee.name)) === payeeBefore,
  );
  check('the payee SDK was sent neither', payee.tap.seen.length === payeeSeen);
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

/** base64url(SHA-256(fulfilment)): the condition a fulfilment satisfies. */
const conditionOf = (fulfilment: string) => crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url');

/** A call of our connector's outbound API, the way its bank's own systems call it. */
async function ourOutbound(ours: OurDfsp, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${ours.outboundUrl}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(200_000),
  });
  return { status: response.status, body: await answerBody(response) };
}

/** An outbound transferRequest from Alice at our connector's bank, as its bank's systems send it. */
function ourTransferRequest(ours: OurDfsp, to: string, amount: string) {
  const request = transferRequest(ours.alice, to, amount);
  return { ...request, from: { ...request.from, displayName: 'Alice Alpaca' } };
}

async function startOurs(hub: Hub, name: string): Promise<OurDfsp | undefined> {
  say('\n# Our DFSP connector with a stock SDK DFSP');
  const what = `our DFSP connector ${name} runs as its own process (dist/worker/dfsp.js) and answers /health`;
  try {
    const ours = await startOurDfsp({
      name,
      switchUrl: hub.switchUrl,
      temporalAddress: hub.temporalAddress,
      currency: CURRENCY,
      jws: hub.jws && { signingKeyPath: hub.jws.signingKeyPath(name), verificationKeysDirectory: hub.jws.verificationKeysDirectory },
    });
    check(what, true);
    return ours;
  } catch (error) {
    check(what, false, (error as Error).message);
    return undefined;
  }
}

/**
 * Onboards our connector as the SDK DFSPs are, and registers its customers in the hub's account lookup as a DFSP
 * does: POST /participants/MSISDN/{ID} from the connector's DFSP ID, answered with PUT /participants/MSISDN/{ID}.
 * The stranger is registered too, so that a lookup of it reaches the connector, whose bank does not hold it.
 */
async function onboardOurs(hub: Hub, ours: OurDfsp): Promise<boolean> {
  await onboardParticipant(hub.adminUrl, ours.name, `http://127.0.0.1:${ours.tap.port}`, { currency: CURRENCY });
  const participant = (await admin(hub, 'GET', `/participants/${ours.name}`)).body;
  if (!check(`our connector ${ours.name} is onboarded as the SDK DFSPs are, and active`, participant?.isActive === 1, participant)) return false;
  let registered = true;
  for (const id of [ours.alice, ours.bob, ours.stranger]) {
    const since = ours.tap.seen.length;
    const status = await sendFspiop(hub, 'POST', `/participants/MSISDN/${id}`, ours.name, undefined, { fspId: ours.name, currency: CURRENCY });
    const answered = await ours.tap.waitFor((m) => m.method === 'PUT' && m.path.startsWith(`/participants/MSISDN/${id}`), { since });
    registered =
      check(
        `MSISDN ${id} is registered for our connector in the hub's account lookup (202, then PUT /participants/MSISDN/${id})`,
        status === 202 && answered?.body?.fspId === ours.name,
        { status, answered: answered?.body },
      ) && registered;
  }
  return registered;
}

async function sdkPaysOurs(hub: Hub, payer: Dfsp, ours: OurDfsp, payerId: string): Promise<void> {
  say("\n# The SDK DFSP pays a customer of our connector: our connector's party, quote, ILP packet and fulfilment");
  const [payerBefore, oursBefore] = [await position(hub, payer.name), await position(hub, ours.name)];
  const [payerSeen, oursSeen] = [payer.tap.seen.length, ours.tap.seen.length];
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, ours.bob, '30'));
  check(
    'the payer SDK completes the transfer to our customer (currentState COMPLETED)',
    result.status === 200 && result.body?.currentState === 'COMPLETED',
    result,
  );
  check(
    'our connector answered the party lookup: the SDK finds Bob Bonobo at our DFSP',
    result.body?.to?.fspId === ours.name && result.body?.to?.firstName === 'Bob' && result.body?.to?.lastName === 'Bonobo',
    result.body?.to,
  );
  const quote = result.body?.quoteResponse?.body;
  check('our quote came back to the SDK with our ILP packet and condition', Boolean(quote?.ilpPacket && quote?.condition), result.body?.quoteResponse);
  checkCommitted('the transfer is COMMITTED with our fulfilment, which hashes to our condition', result, quote);
  check('the payer position rose by 30', (await position(hub, payer.name)) === payerBefore + 30);
  check("our connector's position fell by 30", (await position(hub, ours.name)) === oursBefore - 30);
  const transaction = await admin(hub, 'GET', `/transactions/${result.body?.transferId}`);
  check(
    "the admin API's GET /transactions/{id} reads the transaction in our ILP packet: the quote, 30 USD, Bob at our DFSP",
    transaction.status === 200 &&
      transaction.body?.quoteId === result.body?.quoteId &&
      transaction.body?.amount?.amount === '30' &&
      transaction.body?.payee?.partyIdInfo?.partyIdentifier === ours.bob &&
      transaction.body?.payee?.partyIdInfo?.fspId === ours.name,
    transaction,
  );
  const refused = [...refusals(payer, payerSeen), ...ours.tap.seen.slice(oursSeen).filter((m) => m.status >= 400)];
  check(
    'neither the SDK nor our connector refused any message of the payment',
    refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
}

async function oursPaysSdk(hub: Hub, ours: OurDfsp, payee: Dfsp, payeeId: string): Promise<void> {
  say("\n# Our connector's bank pays a customer of the SDK DFSP: the SDK's party, quote and fulfilment");
  const [oursBefore, payeeBefore] = [await position(hub, ours.name), await position(hub, payee.name)];
  const [payeeSeen, oursSeen] = [payee.tap.seen.length, ours.tap.seen.length];
  const result = await ourOutbound(ours, 'POST', '/transfers', ourTransferRequest(ours, payeeId, '40'));
  check('our connector completes the transfer (currentState COMPLETED)', result.status === 200 && result.body?.currentState === 'COMPLETED', result);
  check(
    "our connector read the SDK's party: the payee at the SDK's DFSP",
    result.body?.to?.fspId === payee.name && result.body?.getPartiesResponse?.body?.party?.partyIdInfo?.partyIdentifier === payeeId,
    result.body?.getPartiesResponse,
  );
  const quote = result.body?.quoteResponse?.body;
  check(
    "our connector took the SDK's quote: 40 USD with its ILP packet and condition",
    quote?.transferAmount?.amount === '40' && Boolean(quote?.ilpPacket && quote?.condition),
    result.body?.quoteResponse,
  );
  checkCommitted("the transfer is COMMITTED with the SDK's fulfilment of its condition", result, quote);
  check("our connector's position rose by 40", (await position(hub, ours.name)) === oursBefore + 40);
  check('the payee position fell by 40', (await position(hub, payee.name)) === payeeBefore - 40);
  const asked = payee.backend.received.find((r) => r.method === 'POST' && r.path === '/quoterequests' && r.body?.transactionId === result.body?.transferId);
  check(
    'the SDK read our POST /quotes: its backend was asked for 40 USD from Alice at our DFSP to its payee',
    asked?.body?.amount === '40' && asked.body?.from?.idValue === ours.alice && asked.body?.from?.fspId === ours.name && asked.body?.to?.idValue === payeeId,
    asked,
  );
  const credited = payee.backend.received.find((r) => r.method === 'POST' && r.path === '/transfers' && r.body?.transferId === result.body?.transferId);
  check(
    'the SDK handed the transfer to its backend (POST /transfers, 40 USD to the payee)',
    credited?.body?.amount === '40' && credited?.body?.to?.idValue === payeeId,
    credited,
  );
  const status = await ourOutbound(ours, 'GET', `/transfers/${result.body?.transferId}`);
  check("our connector's GET /transfers/{id} shows it COMPLETED", status.status === 200 && status.body?.currentState === 'COMPLETED', status);
  const refused = [...refusals(payee, payeeSeen), ...ours.tap.seen.slice(oursSeen).filter((m) => m.status >= 400)];
  check(
    'neither the SDK nor our connector refused any message of the payment',
    refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
}

async function oursHasNoSuchParty(payer: Dfsp, ours: OurDfsp, payerId: string): Promise<void> {
  say('\n# The SDK DFSP looks up a party our connector is registered for but its bank does not hold');
  const payerSeen = payer.tap.seen.length;
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, ours.stranger, '5'));
  check('the payer SDK reports 3204 Party not found', result.status >= 400 && mojaloopErrorCode(result.body) === '3204', result);
  const error = await payer.tap.waitFor((m) => m.method === 'PUT' && m.path === `/parties/MSISDN/${ours.stranger}/error`, {
    since: payerSeen,
    timeoutMs: 5_000,
  });
  check(
    "our connector's PUT /parties/…/error reached the payer SDK through the hub, and was accepted",
    error?.headers['fspiop-source'] === ours.name && error.body?.errorInformation?.errorCode === '3204' && error.status === 200,
    error,
  );
}

async function sdkPayeeRejectsOurs(hub: Hub, ours: OurDfsp, payee: Dfsp, payeeId: string): Promise<void> {
  say("\n# The SDK payee's backend rejects our connector's transfer");
  const [oursBefore, oursSeen] = [await position(hub, ours.name), ours.tap.seen.length];
  const result = await ourOutbound(ours, 'POST', '/transfers', ourTransferRequest(ours, payeeId, REJECTED_AMOUNT));
  const error = await ours.tap.waitFor((m) => m.method === 'PUT' && /^\/transfers\/[^/]+\/error$/.test(m.path), { since: oursSeen, timeoutMs: 1_000 });
  check("the payee SDK's error callback reached our connector through the hub, and was accepted", error?.status === 200, error);
  check(
    "our connector reports the SDK's error: ERROR_OCCURRED, 5104 Payee rejected transaction",
    result.status >= 400 &&
      result.body?.transferState?.currentState === 'ERROR_OCCURRED' &&
      result.body?.statusCode === '5104' &&
      error?.body?.errorInformation?.errorCode === '5104',
    result,
  );
  check("our connector's position is unchanged", (await position(hub, ours.name)) === oursBefore);
}

/** Over every message the hub delivered to our connector in the run. */
function ourConnectorTookEverything(ours: OurDfsp): void {
  const refused = ours.tap.seen.filter((m) => m.status >= 400);
  check(
    `our connector refused none of the ${ours.tap.seen.length} messages the hub sent it`,
    ours.tap.seen.length > 0 && refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
}

/**
 * The P2P payment again, between two more SDK DFSPs, over mutual TLS: a second gateway process of the hub serves the
 * switch over HTTPS and takes only client certificates the scheme CA signed; each SDK calls it with its own (CN = its
 * DFSP ID) and its inbound API takes only the hub's, which the hub's worker and gateways show.
 */
async function mutualTls(
  hub: HubProcesses,
  pki: SchemePki,
  jws: JwsKeys | undefined,
  redisServer: string,
  suffix: string,
  stoppers: Array<() => Promise<unknown>>,
): Promise<void> {
  say(`\n# Mutual TLS: the switch over HTTPS, a client certificate per SDK DFSP${jws ? ', JWS on as before' : ''}`);
  const gateway = await startMutualTlsGateway(hub, pki);
  stoppers.push(() => gateway.stop());
  const refused = await httpsRequest(`${gateway.switchUrl}/health`, { method: 'GET', tls: { ca: pki.ca.cert } }).then(
    () => false,
    () => true,
  );
  check('a connection without a client certificate is refused at the TLS handshake', refused);
  const [payerTls, payeeTls] = [await pki.dfsp(`tlspayer${suffix}`), await pki.dfsp(`tlspayee${suffix}`)];
  const started = { switchUrl: gateway.switchUrl, adminUrl: hub.adminUrl, currency: CURRENCY, redisServer };
  const signing = (name: string) => jws && { signingKeyPath: jws.signingKeyPath(name), verificationKeysDirectory: jws.verificationKeysDirectory };
  const payer = await startMutualTlsDfsp({ ...started, name: `tlspayer${suffix}`, tls: payerTls, jws: signing(`tlspayer${suffix}`) }, stoppers);
  const payee = await startMutualTlsDfsp({ ...started, name: `tlspayee${suffix}`, tls: payeeTls, jws: signing(`tlspayee${suffix}`) }, stoppers);
  const [payerId, payeeId] = [msisdn(), msisdn()];
  if (!(await addCustomer(payer, payerId, 'Payer')) || !(await addCustomer(payee, payeeId, 'Payee'))) return;

  const [payerBefore, payeeBefore] = [await position(hub, payer.name), await position(hub, payee.name)];
  const result = await outbound(payer, 'POST', '/transfers', transferRequest(payerId, payeeId, '100'));
  check(
    'the payer SDK completes the transfer over mutual TLS (currentState COMPLETED, COMMITTED with a fulfilment)',
    result.status === 200 && result.body?.currentState === 'COMPLETED' && result.body?.fulfil?.body?.transferState === 'COMMITTED',
    result,
  );
  check('the payer position rose by 100', (await position(hub, payer.name)) === payerBefore + 100);
  check('the payee position fell by 100', (await position(hub, payee.name)) === payeeBefore - 100);

  // The payer's own certificate, but the payee's FSPIOP-Source: a transfer from the payee's position to the payer.
  const mediaType = 'application/vnd.interoperability.transfers+json;version=1.1';
  const spoofed = await httpsRequest(`${gateway.switchUrl}/transfers`, {
    method: 'POST',
    headers: { accept: mediaType, 'content-type': mediaType, date: new Date().toUTCString(), 'fspiop-source': payee.name, 'fspiop-destination': payer.name },
    body: JSON.stringify({
      transferId: crypto.randomUUID(),
      payerFsp: payee.name,
      payeeFsp: payer.name,
      amount: { amount: '50', currency: CURRENCY },
      ilpPacket: 'AYIBgQAAAAAAAASw',
      condition: 'nqi1porZuMIy0zuLyv5QyeN6loM0v5pEiNHMAZQQABw',
      expiration: new Date(Date.now() + 60_000).toISOString(),
    }),
    tls: { ca: pki.ca.cert, cert: payerTls.client.cert, key: payerTls.client.key },
  });
  const refusal = jsonOrUndefined(spoofed.text);
  check(
    "a message with the payer's certificate and the payee's FSPIOP-Source is refused: 403 with ErrorInformation 3100",
    spoofed.status === 403 && refusal?.errorInformation?.errorCode === '3100',
    spoofed,
  );
  check('and no money moved', (await position(hub, payer.name)) === payerBefore + 100 && (await position(hub, payee.name)) === payeeBefore - 100);

  // A DFSP's inbound API trusts only the CA of the hub's client certificate: another DFSP cannot call it as the hub.
  const bypass = await httpsRequest(`https://127.0.0.1:${payer.sdk.inboundPort}/transfers/${crypto.randomUUID()}`, {
    method: 'PATCH',
    headers: { 'content-type': mediaType, date: new Date().toUTCString(), 'fspiop-source': loadConfig().hubParticipantName, 'fspiop-destination': payer.name },
    body: JSON.stringify({ transferState: 'COMMITTED', completedTimestamp: new Date().toISOString() }),
    tls: { ca: pki.ca.cert, cert: payeeTls.client.cert, key: payeeTls.client.key },
  }).then(
    () => false,
    () => true,
  );
  check("the payee's certificate cannot open a connection to the payer's inbound API: only the hub's client certificate can", bypass);
}

/** The settings of a hub that signs with the run's key for `hubId` and validates every participant's signature. */
const hubJwsEnv = (jws: JwsKeys, hubId: string) => ({
  JWS_VALIDATE: 'true',
  JWS_VERIFICATION_KEYS_DIRECTORY: jws.verificationKeysDirectory,
  JWS_SIGNING_KEY_PATH: jws.signingKeyPath(hubId),
});

/**
 * The ISO 20022 peers need a hub in ISO mode, one mode per deployment: the suite starts a second hub of its own with
 * API_TYPE=iso20022 and the run's keys. Against a hub of the caller's (--switch) the phase is skipped: the suite cannot
 * start that hub's ISO 20022 twin.
 */
async function isoPhase(jws: JwsKeys | undefined, suffix: string, stoppers: Array<() => Promise<unknown>>): Promise<void> {
  if (!jws) {
    say('\n# ISO 20022 peers: skipped against a hub of your own (the suite starts its ISO 20022 hub only beside its own)');
    return;
  }
  const hubId = loadConfig().hubParticipantName;
  const env = { ...hubJwsEnv(jws, hubId), API_TYPE: 'iso20022' };
  const processes = await startHubProcesses({ log, logDir: path.join(PEERS_DIR, 'logs', 'iso20022'), env });
  stoppers.push(() => processes.stop());
  await iso20022Peers({ hub: { ...processes, temporalAddress: processes.temporal.address, jws }, suffix, stoppers });
}

async function main(): Promise<number> {
  const stoppers: Array<() => Promise<unknown>> = [];
  try {
    await installPeers(log);
    const redisServer = redisServerPath(log);
    const given = argument('switch');
    const suffix = crypto.randomBytes(3).toString('hex');
    const hubId = loadConfig().hubParticipantName;
    // A hub the suite starts itself has every participant sign and validate (JWS), and a second gateway of it serves
    // the mutual TLS part; a hub given with --switch has keys and certificates the suite cannot know.
    const jws = given
      ? undefined
      : makeJwsKeys(
          [
            `payerfsp${suffix}`,
            `payeefsp${suffix}`,
            `ourdfsp${suffix}`,
            `tlspayer${suffix}`,
            `tlspayee${suffix}`,
            ...Object.values(thirdpartyIds(suffix)),
            ...Object.values(standardIds(suffix)),
            ...Object.values(isoIds(suffix)),
            hubId,
          ],
          // The hub's Auth service signs with the hub's key.
          { [loadConfig().authService.participantId]: hubId },
        );
    if (jws) stoppers.push(async () => jws.remove());
    const pki = given ? undefined : await SchemePki.create(hubId);
    if (pki) stoppers.push(async () => pki.remove());
    const processes =
      jws &&
      pki &&
      (await startHubProcesses({
        log,
        logDir: path.join(PEERS_DIR, 'logs'),
        env: { ...pki.hubEnv, ...hubJwsEnv(jws, hubId) },
      }));
    const hub: Hub = processes
      ? { ...processes, temporalAddress: processes.temporal.address, jws }
      : {
          switchUrl: given!,
          adminUrl: argument('admin') ?? given!.replace(/:\d+$/, ':3001'),
          temporalAddress: argument('temporal') ?? '127.0.0.1:7233',
          stop: async () => undefined,
        };
    stoppers.push(() => hub.stop());
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
        jws: jws && { signingKeyPath: jws.signingKeyPath(name), verificationKeysDirectory: jws.verificationKeysDirectory },
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
    say(
      `# hub ${hub.switchUrl} (admin ${hub.adminUrl}); DFSPs ${payer.name}, ${payee.name}: @mojaloop/sdk-scheme-adapter with Redis; ` +
        `JWS ${jws ? 'signed and validated by every participant and the hub' : 'off'}`,
    );
    for (const dfsp of dfsps) {
      const participant = (await admin(hub, 'GET', `/participants/${dfsp.name}`)).body;
      check(`${dfsp.name} onboarded as Mojaloop's onboarding does (numeric strings, no activation step) is active`, participant?.isActive === 1, participant);
    }

    const [payerId, payeeId] = [msisdn(), msisdn()];
    if ((await addCustomer(payer, payerId, 'Payer')) && (await addCustomer(payee, payeeId, 'Payee'))) {
      await happyPath(hub, payer, payee, payerId, payeeId);
      if (hub.jws) await forgedMessages({ ...hub, jws: hub.jws }, payer, payee);
      await payeeRejects(hub, payer, payee, payerId, payeeId);
      await transferExpires(hub, payer, payee, payerId, payeeId);
      await duplicateTransfer(hub, payer, payee, payerId, payeeId);
      await merchantInitiated(hub, payer, payee, payerId, payeeId);
      await partyNotFound(payer, payerId);
      const ours = await startOurs(hub, `ourdfsp${suffix}`);
      if (ours) stoppers.push(() => ours.stop());
      const onboarded = ours && (await onboardOurs(hub, ours)) ? ours : undefined;
      if (onboarded) {
        await sdkPaysOurs(hub, payer, onboarded, payerId);
        await oursPaysSdk(hub, onboarded, payee, payeeId);
        await oursHasNoSuchParty(payer, onboarded, payerId);
        await sdkPayeeRejectsOurs(hub, onboarded, payee, payeeId);
      }
      await thirdpartyPeers({ hub, redisServer, suffix, stoppers, payee, payeeId, ours: onboarded });
      if (onboarded) {
        ourConnectorTookEverything(onboarded);
        check(`our connector stops cleanly on SIGTERM (exit 0; see ${onboarded.logFile})`, (await onboarded.stop()) === 0);
      }
    }
    whatTheHubSent(dfsps, hub.jws !== undefined);
    await standardPeers({ hub, suffix, stoppers });
    await isoPhase(jws, suffix, stoppers);
    if (processes && pki) await mutualTls(processes, pki, jws, redisServer, suffix, stoppers);
    else say('\n# Mutual TLS: skipped, it needs a hub the suite starts itself');
  } catch (error) {
    check('the suite ran to the end', false, (error as Error).message);
  } finally {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  }
  say(`\n${totals.passed} passed, ${totals.failed} failed`);
  return totals.failed === 0 && totals.passed > 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
