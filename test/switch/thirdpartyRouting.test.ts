// The third-party API (Document 1) as the switch routes it, over real HTTP between simulated PISPs and DFSPs: every
// route and callback the switch offers is acknowledged (as the third-party OpenAPI document says) and reaches the
// participant named in FSPIOP-Destination at its TP_CB_URL_* endpoint, byte for byte, with the sender's headers
// (Accept removed from callbacks). What cannot be delivered comes back to the sender as PUT /{resource}/{ID}/error;
// what is malformed is refused with the thirdparty media type. The hub-hosted Auth service is test/switch/thirdparty.test.ts.

import test, { type ExecutionContext } from 'ava';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import type { thirdparty } from '@mojaloop/api-snippets';
import { uniqueName } from '../helpers/database';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { readAll } from '../helpers/http';
import { GenericSigner, SoftAuthenticator } from '../helpers/softAuthenticator';
import { HUB_ID, withSwitch } from '../helpers/switchHarness';

const fixture = withSwitch(test);

/** The third-party API's one media type, on every message it routes and every error the switch answers. */
const MEDIA_TYPE = 'application/vnd.interoperability.thirdparty+json;version=1.0';
/** The Auth service the hub hosts (AUTH_SERVICE_ID's default). */
const AUTH_SERVICE = 'centralauth';

type Kind = 'request' | 'get' | 'answer' | 'patch' | 'delete' | 'error';
const METHODS = { request: 'POST', get: 'GET', answer: 'PUT', patch: 'PATCH', delete: 'DELETE', error: 'PUT' } as const;
// The third-party API's PATCHes are requests, which carry Accept (its OpenAPI document requires it of them).
const isCallback = (kind: Kind) => kind === 'answer' || kind === 'error';

/** Who takes part: the PISP, the DFSP and, for verifications, an Auth service a DFSP hosts (a participant of its own). */
type Role = 'pisp' | 'dfsp' | 'auth';
type Cast = Record<Role, SimulatedDfsp>;

/** One message of Document 1 the switch routes. */
interface Message {
  /** Its path below the switch's root: `consents`, `thirdpartyRequests/transactions`. */
  resource: string;
  kind: Kind;
  /** Which of the body's shapes, where the spec has several (Web and OTP, FIDO and GENERIC). */
  variant?: string;
  /** The {ID} of its path, or for a POST the ID its body names (which the error callback about it names). */
  id: string;
  from: Role;
  to: Role;
  body?: object;
  /** A property the body's schema requires: without it the message is 400 (3102). */
  required?: string;
}

/** The message as the spec names it, e.g. "PUT /consentRequests/{ID} (OTP)": what a failure reports. */
function nameOf(m: Message): string {
  const id = m.resource === 'services' ? '{ServiceType}' : '{ID}';
  return `${METHODS[m.kind]} /${m.resource}${m.kind === 'request' ? '' : `/${id}`}${m.kind === 'error' ? '/error' : ''}${m.variant ? ` (${m.variant})` : ''}`;
}

/** Its path, the ID percent-encoded in its segment as the switch passes it on (`alice.example.org` as `alice%40example.org`). */
const pathOf = (m: Message, id = m.id) =>
  m.kind === 'request' ? `/${m.resource}` : `/${m.resource}/${encodeURIComponent(id)}${m.kind === 'error' ? '/error' : ''}`;
/** Where the switch reports a message it cannot deliver: PUT /{resource}/{ID}/error to its sender. */
const errorPathOf = (m: Message) => `/${m.resource}/${encodeURIComponent(m.id)}/error`;

const PATHS = join(dirname(require.resolve('@mojaloop/api-snippets/package.json')), 'thirdparty', 'v1_0', 'openapi3', 'paths');
/** Where the document gives a message several success codes, the one Mojaloop's thirdparty-api-svc answers. */
const SVC_ACKS: Record<string, number> = { 'PUT /consents/{ID}': 202 };

/**
 * The acknowledgement of a message: the success code its operation has in the third-party OpenAPI document
 * (@mojaloop/api-snippets, thirdparty v1_0), e.g. paths/consentRequests_ID.yaml's `put` for PUT /consentRequests/{ID}.
 */
function ackOf(m: Message): number {
  const id = m.resource === 'services' ? 'ServiceType' : 'ID';
  const file = [m.resource.replace('/', '_'), ...(m.kind === 'request' ? [] : [id]), ...(m.kind === 'error' ? ['error'] : [])].join('_');
  const operation = YAML.parse(fs.readFileSync(join(PATHS, `${file}.yaml`), 'utf-8'))[METHODS[m.kind].toLowerCase()];
  const codes = Object.keys(operation.responses)
    .map(Number)
    .filter((code) => code >= 200 && code < 300);
  if (codes.length === 1) return codes[0];
  const key = nameOf({ ...m, variant: undefined });
  if (!SVC_ACKS[key]) throw new Error(`${key}: the document gives ${codes.join(' or ')}; which does the switch answer?`);
  return SVC_ACKS[key];
}
/** The body as its sender writes it: indented and ending in a newline, so that a body the switch re-serialised would differ. */
const textOf = (m: Message) => (m.body === undefined ? undefined : `${JSON.stringify(m.body, null, 2)}\n`);

/**
 * Every message of Document 1 the switch routes, each with IDs of its own, and bodies in the shapes of the
 * third-party OpenAPI document (@mojaloop/api-snippets, thirdparty v1_0).
 */
async function catalogue(): Promise<Message[]> {
  const id = () => crypto.randomUUID();
  const userId = `${uniqueName('alice')}@example.org`;
  const scopes: thirdparty.Schemas.Scope[] = [{ address: 'dfsp.alice.chequing', actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'] }];
  const challenge = crypto.randomBytes(32).toString('base64');
  const authenticator = await SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });
  const signer = new GenericSigner();
  const failed = (errorCode: string, errorDescription: string) => ({ errorInformation: { errorCode, errorDescription } });
  const money = (amount: string): thirdparty.Schemas.Money => ({ amount, currency: 'USD' });
  const payee: thirdparty.Schemas.Party = { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '16135551212', fspId: fixture.payee } };
  const payer: thirdparty.Schemas.PartyIdInfo = { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: 'qwerty-56789', fspId: 'dfsp' };
  const transactionType: thirdparty.Schemas.TransactionType = { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' };
  const expiration = new Date(Date.now() + 60_000).toISOString();
  // A POST's ID is in its body.
  const [consentRequestId, consentId, transactionRequestId, authorizationRequestId] = [id(), id(), id(), id()];
  const [fidoVerificationId, genericVerificationId] = [id(), id()];

  return [
    // Discovery: {ID} is the user's identifier at the DFSP.
    { resource: 'accounts', kind: 'get', id: userId, from: 'pisp', to: 'dfsp' },
    {
      resource: 'accounts',
      kind: 'answer',
      id: userId,
      from: 'dfsp',
      to: 'pisp',
      body: { accounts: [{ accountNickname: 'Chequing', address: 'dfsp.alice.chequing', currency: 'USD' }] } satisfies thirdparty.Schemas.AccountsIDPutResponse,
      required: 'accounts',
    },
    { resource: 'accounts', kind: 'error', id: userId, from: 'dfsp', to: 'pisp', body: failed('6205', 'No user found'), required: 'errorInformation' },

    // Request consent and authentication.
    {
      resource: 'consentRequests',
      kind: 'request',
      id: consentRequestId,
      from: 'pisp',
      to: 'dfsp',
      body: {
        consentRequestId,
        userId,
        scopes,
        authChannels: ['WEB', 'OTP'],
        callbackUri: 'https://pisp.example.org/linked',
      } satisfies thirdparty.Schemas.ConsentRequestsPostRequest,
      required: 'consentRequestId',
    },
    {
      resource: 'consentRequests',
      kind: 'answer',
      variant: 'Web',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: {
        scopes,
        authChannels: ['WEB'],
        callbackUri: 'https://pisp.example.org/linked',
        authUri: 'https://dfsp.example.org/authorize?session=42',
      } satisfies thirdparty.Schemas.ConsentRequestsIDPutResponseWeb,
      required: 'scopes',
    },
    {
      resource: 'consentRequests',
      kind: 'answer',
      variant: 'OTP',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: { scopes, authChannels: ['OTP'] } satisfies thirdparty.Schemas.ConsentRequestsIDPutResponseOTP,
      required: 'scopes',
    },
    {
      resource: 'consentRequests',
      kind: 'patch',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: { authToken: '123456' } satisfies thirdparty.Schemas.ConsentRequestsIDPatchRequest,
      required: 'authToken',
    },
    {
      resource: 'consentRequests',
      kind: 'error',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: failed('6101', 'Unsupported scopes'),
      required: 'errorInformation',
    },

    // Grant consent, credential registration, unlinking (a consent the hub's Auth service does not hold).
    {
      resource: 'consents',
      kind: 'request',
      variant: 'to the PISP, without credential',
      id: consentId,
      from: 'dfsp',
      to: 'pisp',
      body: { consentId, consentRequestId, scopes, status: 'ISSUED' } satisfies thirdparty.Schemas.ConsentsPostRequestPISP,
      required: 'consentId',
    },
    {
      resource: 'consents',
      kind: 'answer',
      variant: 'GENERIC credential signed by the PISP',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: {
        scopes,
        credential: { credentialType: 'GENERIC', status: 'PENDING', genericPayload: signer.register(challenge) },
      } satisfies thirdparty.Schemas.ConsentsIDPutResponseSigned,
      required: 'credential',
    },
    {
      resource: 'consents',
      kind: 'answer',
      variant: 'FIDO credential signed by the PISP',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: {
        scopes,
        credential: { credentialType: 'FIDO', status: 'PENDING', fidoPayload: authenticator.register(challenge) },
      } satisfies thirdparty.Schemas.ConsentsIDPutResponseSigned,
      required: 'credential',
    },
    {
      resource: 'consents',
      kind: 'answer',
      variant: 'VERIFIED, to the PISP',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: {
        status: 'ISSUED',
        scopes,
        credential: { credentialType: 'GENERIC', status: 'VERIFIED', genericPayload: signer.register(challenge) },
      } satisfies thirdparty.Schemas.ConsentsIDPutResponseVerified,
      required: 'credential',
    },
    {
      resource: 'consents',
      kind: 'patch',
      variant: 'VERIFIED',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: { credential: { status: 'VERIFIED' } } satisfies thirdparty.Schemas.ConsentsIDPatchResponseVerified,
      required: 'credential',
    },
    {
      resource: 'consents',
      kind: 'patch',
      variant: 'REVOKED',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: { status: 'REVOKED', revokedAt: new Date().toISOString() } satisfies thirdparty.Schemas.ConsentsIDPatchResponseRevoked,
      required: 'revokedAt',
    },
    { resource: 'consents', kind: 'get', variant: 'to a DFSP', id: id(), from: 'pisp', to: 'dfsp' },
    { resource: 'consents', kind: 'delete', variant: 'not held by the Auth service', id: id(), from: 'pisp', to: 'dfsp' },
    {
      resource: 'consents',
      kind: 'error',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: failed('7212', 'Signed challenge does not match'),
      required: 'errorInformation',
    },

    // Payment: the transaction request, its state and its final notification.
    {
      resource: 'thirdpartyRequests/transactions',
      kind: 'request',
      id: transactionRequestId,
      from: 'pisp',
      to: 'dfsp',
      body: {
        transactionRequestId,
        payee,
        payer,
        amountType: 'RECEIVE',
        amount: money('100'),
        transactionType,
        expiration,
      } satisfies thirdparty.Schemas.ThirdpartyRequestsTransactionsPostRequest,
      required: 'transactionRequestId',
    },
    { resource: 'thirdpartyRequests/transactions', kind: 'get', id: id(), from: 'pisp', to: 'dfsp' },
    {
      resource: 'thirdpartyRequests/transactions',
      kind: 'answer',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: { transactionId: id(), transactionRequestState: 'RECEIVED' } satisfies thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPutResponse,
      required: 'transactionRequestState',
    },
    {
      resource: 'thirdpartyRequests/transactions',
      kind: 'patch',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: {
        completedTimestamp: new Date().toISOString(),
        transactionRequestState: 'ACCEPTED',
        transactionState: 'COMPLETED',
      } satisfies thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPatchResponse,
      required: 'transactionState',
    },
    {
      resource: 'thirdpartyRequests/transactions',
      kind: 'error',
      id: id(),
      from: 'dfsp',
      to: 'pisp',
      body: failed('6104', 'Account is inactive'),
      required: 'errorInformation',
    },

    // Payment: the user's signature over the challenge.
    {
      resource: 'thirdpartyRequests/authorizations',
      kind: 'request',
      id: authorizationRequestId,
      from: 'dfsp',
      to: 'pisp',
      body: {
        authorizationRequestId,
        transactionRequestId: id(),
        challenge,
        transferAmount: money('100.5'),
        payeeReceiveAmount: money('100'),
        fees: money('0.5'),
        payer,
        payee,
        transactionType,
        expiration,
      } satisfies thirdparty.Schemas.ThirdpartyRequestsAuthorizationsPostRequest,
      required: 'authorizationRequestId',
    },
    {
      resource: 'thirdpartyRequests/authorizations',
      kind: 'answer',
      variant: 'FIDO',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: {
        responseType: 'ACCEPTED',
        signedPayload: { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert(challenge) },
      } satisfies thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseFIDO,
      required: 'signedPayload',
    },
    {
      resource: 'thirdpartyRequests/authorizations',
      kind: 'answer',
      variant: 'GENERIC',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: {
        responseType: 'ACCEPTED',
        signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) },
      } satisfies thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseGeneric,
      required: 'signedPayload',
    },
    {
      resource: 'thirdpartyRequests/authorizations',
      kind: 'answer',
      variant: 'REJECTED',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: { responseType: 'REJECTED' } satisfies thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponseRejected,
      required: 'responseType',
    },
    {
      resource: 'thirdpartyRequests/authorizations',
      kind: 'error',
      id: id(),
      from: 'pisp',
      to: 'dfsp',
      body: failed('7103', 'PISP could not get the signature'),
      required: 'errorInformation',
    },

    // Payment: verification by an Auth service a DFSP hosts (not the hub's).
    {
      resource: 'thirdpartyRequests/verifications',
      kind: 'request',
      variant: 'FIDO',
      id: fidoVerificationId,
      from: 'dfsp',
      to: 'auth',
      body: {
        verificationRequestId: fidoVerificationId,
        challenge,
        consentId: id(),
        signedPayloadType: 'FIDO',
        fidoSignedPayload: authenticator.assert(challenge),
      } satisfies thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequestFIDO,
      required: 'verificationRequestId',
    },
    {
      resource: 'thirdpartyRequests/verifications',
      kind: 'request',
      variant: 'GENERIC',
      id: genericVerificationId,
      from: 'dfsp',
      to: 'auth',
      body: {
        verificationRequestId: genericVerificationId,
        challenge,
        consentId: id(),
        signedPayloadType: 'GENERIC',
        genericSignedPayload: signer.sign(challenge),
      } satisfies thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequestGeneric,
      required: 'verificationRequestId',
    },
    {
      resource: 'thirdpartyRequests/verifications',
      kind: 'answer',
      id: id(),
      from: 'auth',
      to: 'dfsp',
      body: { authenticationResponse: 'VERIFIED' } satisfies thirdparty.Schemas.ThirdpartyRequestsVerificationsIDPutResponse,
      required: 'authenticationResponse',
    },
    {
      resource: 'thirdpartyRequests/verifications',
      kind: 'error',
      id: id(),
      from: 'auth',
      to: 'dfsp',
      body: failed('7105', 'Authorization received from PISP failed DFSP validation'),
      required: 'errorInformation',
    },

    // Pre-linking: the list of providers, routed when a participant sends it (the switch answers GETs itself).
    {
      resource: 'services',
      kind: 'answer',
      id: 'THIRD_PARTY_DFSP',
      from: 'dfsp',
      to: 'pisp',
      body: { providers: ['dfspa', 'dfspb'] } satisfies thirdparty.Schemas.ServicesServiceTypePutResponse,
      required: 'providers',
    },
    {
      resource: 'services',
      kind: 'error',
      id: 'THIRD_PARTY_DFSP',
      from: 'dfsp',
      to: 'pisp',
      body: failed('7201', 'No thirdparty enabled FSP found'),
      required: 'errorInformation',
    },
  ];
}

/** A fresh catalogue's messages that match `which`. */
async function messages(which: (m: Message) => boolean): Promise<Message[]> {
  return (await catalogue()).filter(which);
}

/** The messages of one resource, error callbacks apart (see the failing tests at the end). */
const of =
  (resource: string) =>
  (m: Message): boolean =>
    m.resource === resource && m.kind !== 'error';

/** A PISP, a DFSP and a DFSP-hosted Auth service, each a provisioned participant whose simulator has every TP_CB_URL_* endpoint. */
async function cast(): Promise<Cast> {
  const pisp = await fixture.hub.provision();
  const dfsp = await fixture.hub.provision();
  const auth = await fixture.hub.provision();
  return { pisp, dfsp, auth };
}

/** An active participant created through the admin API with the endpoints given (none by default). */
async function participant(endpoints: Array<{ type: string; value: string }> = []): Promise<string> {
  const { admin } = fixture.hub;
  const name = uniqueName();
  const created = await admin.call('POST', '/participants', { name, currency: 'USD' });
  if (created.status !== 200) throw new Error(`could not create ${name}: ${JSON.stringify(created.body)}`);
  const activated = await admin.call('PUT', `/participants/${name}`, { isActive: true });
  if (activated.status !== 200) throw new Error(`could not activate ${name}: ${JSON.stringify(activated.body)}`);
  for (const endpoint of endpoints) {
    const added = await admin.call('POST', `/participants/${name}/endpoints`, endpoint);
    if (added.status >= 300) throw new Error(`could not add ${endpoint.type} to ${name}: ${JSON.stringify(added.body)}`);
  }
  return name;
}

/** A W3C trace context of its own for each message sent: the switch passes it on, which tells each arrival apart. */
const traceContext = () => `00-${crypto.randomBytes(16).toString('hex')}-${crypto.randomBytes(8).toString('hex')}-01`;

/**
 * Sends a message as its sender would. A callback is sent with Accept too, which the switch must not pass on
 * (Document 2: callbacks carry none).
 */
async function send(m: Message, source: string, destination: string | undefined, options: { id?: string; text?: string } = {}) {
  const { id = m.id, text = textOf(m) } = options;
  const traceparent = traceContext();
  const ack = await fixture.hub.fspiop(METHODS[m.kind], pathOf(m, id), {
    source,
    destination,
    body: text,
    headers: { traceparent, ...(isCallback(m.kind) ? { accept: MEDIA_TYPE } : {}) },
  });
  return { ack, traceparent, text };
}

/** Runs checks side by side and fails with the first that failed, once all have ended (none is left running). */
async function allOf(checks: Array<Promise<void>>): Promise<void> {
  const failure = (await Promise.allSettled(checks)).find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * The message is acknowledged and reaches its destination's simulator at the spec's method and path, its body byte
 * for byte, FSPIOP-Source kept, FSPIOP-Destination set, the sender's other headers kept and Accept removed from a callback.
 */
async function checkRouted(t: ExecutionContext, parties: Cast, m: Message): Promise<void> {
  const name = nameOf(m);
  const from = parties[m.from];
  const to = parties[m.to];
  const { ack, traceparent, text } = await send(m, from.name, to.name);
  t.is(ack.status, ackOf(m), `${name}: acknowledged (${JSON.stringify(ack.body)})`);
  const received = await to.waitFor((r) => r.headers.traceparent === traceparent, 15_000, `${name} from ${from.name}`);
  t.is(received.method, METHODS[m.kind], `${name}: method`);
  t.is(received.path, pathOf(m), `${name}: path`);
  t.is(received.raw, text ?? '', `${name}: body byte for byte`);
  t.is(received.headers['fspiop-source'], from.name, `${name}: FSPIOP-Source kept`);
  t.is(received.headers['fspiop-destination'], to.name, `${name}: FSPIOP-Destination`);
  t.is(received.headers['content-type'], MEDIA_TYPE, `${name}: Content-Type kept`);
  t.is(received.headers.accept, isCallback(m.kind) ? undefined : MEDIA_TYPE, `${name}: Accept ${isCallback(m.kind) ? 'removed' : 'kept'}`);
}

/** The switch reports to the sender of `m` that it could not deliver it: PUT /{resource}/{ID}/error with `errorCode`, from the hub. */
async function checkReported(t: ExecutionContext, sender: SimulatedDfsp, m: Message, destination: string | undefined, errorCode: string): Promise<void> {
  const name = nameOf(m);
  const { ack } = await send(m, sender.name, destination);
  t.is(ack.status, ackOf(m), `${name}: acknowledged before it is routed (${JSON.stringify(ack.body)})`);
  const report = await sender.waitFor((r) => r.method === 'PUT' && r.path === errorPathOf(m), 15_000, `error callback about ${name}`);
  t.is(report.body?.errorInformation?.errorCode, errorCode, `${name}: error code (${JSON.stringify(report.body)})`);
  t.is(report.headers['fspiop-source'], HUB_ID, `${name}: the error callback is the hub's`);
  t.is(report.headers['fspiop-destination'], sender.name, `${name}: the error callback goes to the sender`);
  t.is(report.headers['content-type'], MEDIA_TYPE, `${name}: the error callback's media type`);
  t.is(report.headers.accept, undefined, `${name}: the error callback carries no Accept`);
}

/** The gateway refuses the message: 400 with `errorCode`, in the thirdparty media type. */
function checkRefused(t: ExecutionContext, what: string, answer: { status: number; body: any; headers: Headers }, errorCode: string): void {
  t.is(answer.status, 400, `${what}: status (${JSON.stringify(answer.body)})`);
  t.is(answer.body?.errorInformation?.errorCode, errorCode, `${what}: error code (${JSON.stringify(answer.body)})`);
  t.is(answer.headers.get('content-type'), MEDIA_TYPE, `${what}: media type`);
}

/** The PUT /services/{ServiceType} the switch sends `requester` in answer to its GET. */
async function servicesAnswer(requester: SimulatedDfsp, destination: string, serviceType: string): Promise<string[]> {
  const ack = await fixture.hub.fspiop('GET', `/services/${serviceType}`, { source: requester.name, destination });
  if (ack.status !== 202) throw new Error(`GET /services/${serviceType}: ${ack.status} ${JSON.stringify(ack.body)}`);
  const answer = await requester.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/services/${serviceType}`), 15_000, `PUT /services/${serviceType}`);
  if (answer.path !== `/services/${serviceType}`) throw new Error(`GET /services/${serviceType} answered at ${answer.path}: ${answer.raw}`);
  if (answer.headers['fspiop-source'] !== HUB_ID) throw new Error(`PUT /services/${serviceType} came from ${answer.headers['fspiop-source']}, not the switch`);
  if (answer.headers['content-type'] !== MEDIA_TYPE) throw new Error(`PUT /services/${serviceType} in ${answer.headers['content-type']}`);
  return answer.body.providers;
}

// Routing, one resource at a time.

test('discovery: GET /accounts/{ID} reaches the DFSP and its PUT /accounts/{ID} the PISP, byte for byte', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('accounts'))).map((m) => checkRouted(t, parties, m)));
});

test('an /accounts/{ID} reaches the DFSP as the same ID in one path segment: an MSISDN keeps its +, a / or ? never leaves /accounts/', async (t) => {
  const { pisp, dfsp } = await cast();
  // What a participant's router decodes back to the ID sent: `%2B`, never `+`, which form decoding reads as a space.
  const cases = [
    { sent: '/accounts/+447700900123', arrives: '/accounts/%2B447700900123' },
    { sent: '/accounts/%2B447700900123', arrives: '/accounts/%2B447700900123' },
    { sent: '/accounts/..%2F..%2Fadmin%3Fx%3D1', arrives: '/accounts/..%2F..%2Fadmin%3Fx%3D1' },
  ];
  for (const { sent, arrives } of cases) {
    const traceparent = traceContext();
    const ack = await fixture.hub.fspiop('GET', sent, { source: pisp.name, destination: dfsp.name, headers: { traceparent } });
    t.is(ack.status, 202, `GET ${sent} (${JSON.stringify(ack.body)})`);
    const received = await dfsp.waitFor((r) => r.headers.traceparent === traceparent, 15_000, `GET ${sent}`);
    t.is(received.path, arrives, `GET ${sent}`);
  }
  const answer = { accounts: [{ accountNickname: 'Chequing', address: 'dfsp.alice.chequing', currency: 'USD' }] };
  for (const path of ['/accounts/+447700900123', '/accounts/+447700900123/error']) {
    const traceparent = traceContext();
    const body = path.endsWith('/error') ? { errorInformation: { errorCode: '6205', errorDescription: 'No user found' } } : answer;
    const ack = await fixture.hub.fspiop('PUT', path, { source: dfsp.name, destination: pisp.name, body, headers: { traceparent } });
    t.is(ack.status, 200, `PUT ${path} (${JSON.stringify(ack.body)})`);
    const received = await pisp.waitFor((r) => r.headers.traceparent === traceparent, 15_000, `PUT ${path}`);
    t.is(received.path, path.replace('+', '%2B'), `PUT ${path}`);
  }
  // A dot segment stays one however it is encoded (WHATWG URL): it is refused, not passed on.
  for (const id of ['%2E%2E', '.%2e']) {
    const refused = await rawGet(`/accounts/${id}`, pisp.name, dfsp.name);
    t.is(refused.status, 400, `GET /accounts/${id}: ${refused.text}`);
    t.is(JSON.parse(refused.text).errorInformation.errorCode, '3101', `GET /accounts/${id}`);
  }
});

/** A GET sent with its path as written, dot segments included, which a URL parser would resolve before sending. */
function rawGet(path: string, source: string, destination: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(fixture.hub.url);
    // The path apart from the URL: parsed as one, it would lose its dot segments too.
    const request = http.request({
      hostname,
      port,
      path,
      method: 'GET',
      headers: { accept: MEDIA_TYPE, 'content-type': MEDIA_TYPE, date: new Date().toUTCString(), 'fspiop-source': source, 'fspiop-destination': destination },
    });
    request.on('response', (response) => {
      readAll(response).then((bytes) => resolve({ status: response.statusCode!, text: bytes.toString('utf-8') }), reject);
    });
    request.on('error', reject);
    request.end();
  });
}

test('consent requests: POST and PATCH /consentRequests reach the DFSP; PUT /consentRequests/{ID} (Web and OTP) the PISP', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('consentRequests'))).map((m) => checkRouted(t, parties, m)));
});

test('consents: POST (PISP form), PATCH and the VERIFIED PUT reach the PISP; the signed PUT, GET and DELETE of a consent the hub does not hold reach the DFSP', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('consents'))).map((m) => checkRouted(t, parties, m)));
  t.false(
    parties.dfsp.received.some((r) => r.headers['fspiop-source'] === AUTH_SERVICE),
    "the hub's Auth service took none of the consent messages",
  );
});

test('transaction requests: POST and GET reach the DFSP; PUT and PATCH /thirdpartyRequests/transactions/{ID} the PISP', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('thirdpartyRequests/transactions'))).map((m) => checkRouted(t, parties, m)));
});

test('authorizations: POST reaches the PISP; PUT /thirdpartyRequests/authorizations/{ID} (FIDO, GENERIC, REJECTED) the DFSP', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('thirdpartyRequests/authorizations'))).map((m) => checkRouted(t, parties, m)));
});

test('verifications addressed to a DFSP-hosted Auth service reach it, not the hub, and its PUT reaches the DFSP', async (t) => {
  const parties = await cast();
  const routed = await messages(of('thirdpartyRequests/verifications'));
  await allOf(routed.map((m) => checkRouted(t, parties, m)));
  const hubAnswers = parties.dfsp.received.filter((r) => r.headers['fspiop-source'] === AUTH_SERVICE);
  t.deepEqual(
    hubAnswers.map((r) => r.path),
    [],
    "the hub's Auth service answered none of them",
  );
});

test('PUT /services/{ServiceType} sent by a participant is routed to the one it names', async (t) => {
  const parties = await cast();
  await allOf((await messages(of('services'))).map((m) => checkRouted(t, parties, m)));
});

test('GET /services/{ServiceType} is answered by the switch itself: THIRD_PARTY_DFSP, PISP and AUTH_SERVICE providers', async (t) => {
  const parties = await cast();
  const bare = await participant();
  // Takes authorizations, not consent requests: a PISP and nothing else.
  const pispOnly = await participant([{ type: 'TP_CB_URL_TRANSACTION_REQUEST_AUTH_POST', value: parties.pisp.url }]);

  // Addressed to a DFSP, as a PISP may name any: the switch answers all the same, and passes nothing on.
  const dfsps = await servicesAnswer(parties.pisp, parties.dfsp.name, 'THIRD_PARTY_DFSP');
  for (const provisioned of [fixture.payer, fixture.payee, parties.pisp.name, parties.dfsp.name, parties.auth.name]) {
    t.true(dfsps.includes(provisioned), `THIRD_PARTY_DFSP lists ${provisioned}, which has TP_CB_URL_CONSENT_REQUEST_POST: ${dfsps.join(', ')}`);
  }
  for (const other of [bare, pispOnly, HUB_ID, AUTH_SERVICE]) {
    t.false(dfsps.includes(other), `THIRD_PARTY_DFSP does not list ${other}`);
  }

  const pisps = await servicesAnswer(parties.dfsp, parties.pisp.name, 'PISP');
  t.true(pisps.includes(pispOnly), `PISP lists ${pispOnly}: ${pisps.join(', ')}`);
  t.false(pisps.includes(parties.pisp.name), 'PISP does not list a participant that takes consent requests (a DFSP)');

  t.deepEqual(await servicesAnswer(parties.pisp, HUB_ID, 'AUTH_SERVICE'), [AUTH_SERVICE]);

  t.false(
    Object.values(parties).some((side) => side.received.some((r) => r.method === 'GET' && r.path.startsWith('/services'))),
    'no GET /services is passed on',
  );
});

// What cannot be delivered, and what is refused.

test('a message without FSPIOP-Destination is acknowledged, then its sender gets PUT /{resource}/{ID}/error with 3100', async (t) => {
  const parties = await cast();
  const undeliverable = await messages((m) => m.kind !== 'error');
  await allOf(undeliverable.map((m) => checkReported(t, parties[m.from], m, undefined, '3100')));
});

test('a message to a participant with no TP_CB_URL_* endpoint is acknowledged, then its sender gets PUT /{resource}/{ID}/error with 1001', async (t) => {
  const parties = await cast();
  const bare = await participant();
  const undeliverable = await messages((m) => m.kind !== 'error');
  await allOf(undeliverable.map((m) => checkReported(t, parties[m.from], m, bare, '1001')));
  t.false(
    Object.values(parties).some((side) => side.received.some((r) => r.headers['fspiop-destination'] === bare)),
    'nothing addressed to the participant without endpoints went elsewhere',
  );
});

test('an invalid body is 400 in the thirdparty media type: unparseable or not an object 3101, a required property missing 3102', async (t) => {
  const parties = await cast();
  const withBodies = await messages((m) => m.body !== undefined && m.kind !== 'error');
  await allOf(
    withBodies.map(async (m) => {
      const name = nameOf(m);
      const [from, to] = [parties[m.from].name, parties[m.to].name];
      checkRefused(t, `${name} with a body that is not JSON`, (await send(m, from, to, { text: '{"scopes": [' })).ack, '3101');
      checkRefused(t, `${name} with a JSON array for a body`, (await send(m, from, to, { text: '[]' })).ack, '3101');
      const { [m.required!]: _dropped, ...incomplete } = m.body as Record<string, unknown>;
      checkRefused(t, `${name} without ${m.required}`, (await send(m, from, to, { text: JSON.stringify(incomplete) })).ack, '3102');
    }),
  );
});

test('a body of several forms is validated against the one its tag names, and the error names its own problem', async (t) => {
  const parties = await cast();
  const all = await catalogue();
  const find = (resource: string, kind: Kind, variant: string) => all.find((m) => m.resource === resource && m.kind === kind && m.variant === variant)!;
  const signed = find('consents', 'answer', 'GENERIC credential signed by the PISP').body as { scopes: object[]; credential: { status: string } };
  const generic = find('thirdpartyRequests/authorizations', 'answer', 'GENERIC');
  const cases = [
    {
      // A registration whose credential is wrong: not the grant to the PISP (which allows other properties), so not
      // "must have required property 'credential'".
      what: 'POST /consents to the Auth service, its credential VERIFIED already',
      method: 'POST',
      path: '/consents',
      destination: AUTH_SERVICE,
      body: {
        consentId: crypto.randomUUID(),
        consentRequestId: crypto.randomUUID(),
        scopes: signed.scopes,
        status: 'ISSUED',
        credential: { ...signed.credential, status: 'VERIFIED' },
      },
      code: '3100',
      names: '/requestBody/credential/status',
    },
    {
      what: 'PUT /thirdpartyRequests/authorizations/{ID} (GENERIC) without its signature',
      method: 'PUT',
      path: `/thirdpartyRequests/authorizations/${generic.id}`,
      destination: parties.dfsp.name,
      body: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
      code: '3102',
      names: "/requestBody/signedPayload must have required property 'genericSignedPayload'",
    },
    {
      what: 'PATCH /consents/{ID} (REVOKED) without revokedAt',
      method: 'PATCH',
      path: `/consents/${crypto.randomUUID()}`,
      destination: parties.pisp.name,
      body: { status: 'REVOKED' },
      code: '3102',
      names: "/requestBody must have required property 'revokedAt'",
    },
  ];
  for (const { what, method, path, destination, body, code, names } of cases) {
    const source = method === 'PUT' ? parties.pisp.name : parties.dfsp.name;
    const answer = await fixture.hub.fspiop(method, path, { source, destination, body });
    checkRefused(t, what, answer, code);
    t.true(answer.body?.errorInformation?.errorDescription?.includes(names), `${what}: ${JSON.stringify(answer.body)}`);
  }
});

test("a message from the hub's own identities (its participant, its Auth service) is spoofed: 400 (3100), passed on to no one", async (t) => {
  const parties = await cast();
  const all = await messages(() => true);
  const sent: string[] = [];
  for (const hubIdentity of [HUB_ID, AUTH_SERVICE]) {
    await allOf(
      all.map(async (m) => {
        const { ack, traceparent } = await send(m, hubIdentity, parties[m.to].name);
        sent.push(traceparent);
        checkRefused(t, `${nameOf(m)} from ${hubIdentity}`, ack, '3100');
        t.regex(ack.body?.errorInformation?.errorDescription ?? '', new RegExp(`FSPIOP-Source ${hubIdentity}`), `${nameOf(m)} from ${hubIdentity}`);
      }),
    );
  }
  t.false(
    Object.values(parties).some((side) => side.received.some((r) => sent.includes(r.headers.traceparent as string))),
    'none of them was passed on',
  );
});

test('a path {ID} that is not a UUID is 400 (3100, a pattern it does not match), except /accounts/{ID} (a user ID); a /services/{ServiceType} outside the enumeration is 400', async (t) => {
  const parties = await cast();
  // /accounts/{ID}/error is left out: its user ID passes, and the hub then fails on the body of every error callback
  // (the hub bug of the failing tests at the end). The other error callbacks are refused for their {ID} before that.
  const withPathIds = await messages((m) => m.kind !== 'request' && !(m.resource === 'accounts' && m.kind === 'error'));
  await allOf(
    withPathIds.map(async (m) => {
      const name = nameOf(m);
      const [from, to] = [parties[m.from].name, parties[m.to].name];
      if (m.resource === 'accounts') {
        const { ack } = await send(m, from, to, { id: 'not-a-uuid' });
        t.is(ack.status, ackOf(m), `${name}: a user ID need not be a UUID (${JSON.stringify(ack.body)})`);
      } else if (m.resource === 'services') {
        const { ack } = await send(m, from, to, { id: 'NOT_A_SERVICE' });
        t.is(ack.status, 400, `${name} with ServiceType NOT_A_SERVICE (${JSON.stringify(ack.body)})`);
        t.regex(ack.body?.errorInformation?.errorCode ?? '', /^310\d$/, `${name} with ServiceType NOT_A_SERVICE: a validation error`);
        t.is(ack.headers.get('content-type'), MEDIA_TYPE, `${name} with ServiceType NOT_A_SERVICE: media type`);
      } else {
        checkRefused(t, `${name} with {ID} not-a-uuid`, (await send(m, from, to, { id: 'not-a-uuid' })).ack, '3100');
      }
    }),
  );
  const services = await fixture.hub.fspiop('GET', '/services/NOT_A_SERVICE', { source: parties.pisp.name, destination: HUB_ID });
  t.is(services.status, 400, `GET /services/NOT_A_SERVICE (${JSON.stringify(services.body)})`);
  t.is(services.headers.get('content-type'), MEDIA_TYPE, 'GET /services/NOT_A_SERVICE: media type');
});

test('error callbacks: PUT /{resource}/{ID}/error of every third-party resource reaches the original sender byte for byte', async (t) => {
  const parties = await cast();
  await allOf((await messages((m) => m.kind === 'error')).map((m) => checkRouted(t, parties, m)));
});

test('an error callback without errorInformation is 400 (3102) in the thirdparty media type', async (t) => {
  const parties = await cast();
  await allOf(
    (await messages((m) => m.kind === 'error')).map(async (m) => {
      checkRefused(t, `${nameOf(m)} with {}`, (await send(m, parties[m.from].name, parties[m.to].name, { text: '{}' })).ack, '3102');
    }),
  );
});
