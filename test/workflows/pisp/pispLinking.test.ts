import crypto from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { ConsentsPostRequestPISP } from '../../../activities/shared/contracts/bodies';
import { participantWorkflowIds, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { authenticate, passCredential, requestConsent, type LinkingRequestConsentPostRequest } from '../../../workflows/pisp/appApi';
import type { pispLinking } from '../../../workflows/pisp/pispLinking';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE, DAY } from '../../helpers/stubbedWorkflows';
import { messagesTo } from '../../helpers/peerMessages';

// The PISP connector's pispLinking workflow (Document 1, "Linking", the PISP's side) on the time-skipping server,
// driven as its outbound gateway drives it (the app's request-consent, authenticate and pass-credential calls are
// updates) and as its inbound gateway feeds it (the DFSP's messages are signals, to it or to the exchange waiting for
// the registration's answer), with stub activities for sending to the switch and the connector's GENERIC keys.
// REQUEST_TIMEOUT_MS is a minute. Serial: each test moves the one server clock the file shares.
const DFSP = 'dfspa';
const CHALLENGE = 'b'.repeat(64);
const GENERIC_CREDENTIAL = { publicKey: 'cHVibGljIGtleSBvZiB0aGUgY29uc2VudA==', signature: 'c2lnbmF0dXJlIG92ZXIgdGhlIGNoYWxsZW5nZQ==' };
const OTP = { authChannels: ['OTP'] };
const AUTH_TOKEN = '123456';

const stubs = new StubActivities({
  sendToSwitch: async () => undefined,
  registrationChallenge: async () => CHALLENGE,
  genericCredential: async () => GENERIC_CREDENTIAL,
});
const test = stubbedWorkflowTest('pisp', stubs);

const message = messagesTo('pisp', DFSP);

/** The app's request-consent for one savings account, which starts the linking as the outbound gateway starts it: the update with the start. */
async function requestingConsent(t: { context: StubbedWorkflows }) {
  const consentRequestId = crypto.randomUUID();
  const body: LinkingRequestConsentPostRequest = {
    toParticipantId: DFSP,
    consentRequestId,
    accounts: [{ accountNickname: 'Savings', address: `dfspa.alice.${crypto.randomInt(10 ** 6)}`, currency: 'USD' }],
    actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'],
    userId: 'alice',
    callbackUri: 'pisp-app://linking-done',
  };
  const { client, taskQueue } = t.context;
  const workflowId = participantWorkflowIds.pispLinking(consentRequestId);
  const requested = client.workflow.executeUpdateWithStart(requestConsent, {
    args: [body],
    startWorkflowOperation: new WithStartWorkflowOperation<typeof pispLinking>('pispLinking', {
      workflowId,
      taskQueue,
      args: [{ requestTimeoutMs: MINUTE }],
      workflowIdConflictPolicy: 'FAIL',
    }),
  });
  await stubs.next('sendToSwitch', (m) => m.resource === 'consentRequests' && m.name === 'request');
  return { consentRequestId, body, requested, handle: client.workflow.getHandle<typeof pispLinking>(workflowId) };
}

/** The DFSP's PUT /consentRequests/{ID} naming the channel, taken; then the app's authenticate with the user's OTP, sent on. */
async function authenticating(t: { context: StubbedWorkflows }) {
  const started = await requestingConsent(t);
  const scopes = started.body.accounts.map(({ address }) => ({ address, actions: started.body.actions }));
  await started.handle.signal(peerMessageSignal, message('consentRequests', 'answer', { scopes, ...OTP }, DFSP, started.consentRequestId));
  await started.requested;
  const authenticated = started.handle.executeUpdate(authenticate, { args: [{ authToken: AUTH_TOKEN }] });
  await stubs.next('sendToSwitch', (m) => m.resource === 'consentRequests' && m.name === 'patch');
  return { ...started, scopes, authenticated };
}

/** Authenticated, and the DFSP's POST /consents granting the consent taken. */
async function granted(t: { context: StubbedWorkflows }) {
  const started = await authenticating(t);
  const consent: ConsentsPostRequestPISP = {
    consentId: crypto.randomUUID(),
    consentRequestId: started.consentRequestId,
    scopes: started.scopes,
    status: 'ISSUED',
  };
  await started.handle.signal(peerMessageSignal, message('consents', 'request', consent));
  await started.authenticated;
  return { ...started, consent };
}

/** Granted, and the app's pass-credential asking the connector for a GENERIC credential, sent to the DFSP as PUT /consents/{ID}. */
async function registering(t: { context: StubbedWorkflows }) {
  const started = await granted(t);
  const registered = started.handle.executeUpdate(passCredential, { args: [{ credential: { credentialType: 'GENERIC' } }] });
  const registration = await stubs.next('sendToSwitch', (m) => m.resource === 'consents');
  /** The DFSP's answer to the registration, as the inbound gateway hands it to the exchange named after the consent. */
  const answer = (name: PeerMessage['name'], body: unknown, source = DFSP) =>
    t.context.client.workflow
      .getHandle(participantWorkflowIds.exchange('consents', started.consent.consentId))
      .signal(peerMessageSignal, message('consents', name, body, source, started.consent.consentId));
  return { ...started, registered, registration, answer };
}

const sentOn = (resource: string) => stubs.inputs('sendToSwitch').filter((m) => m.resource === resource);

test.serial(
  "a linking over OTP with a GENERIC credential: the consent request to the DFSP, the user's OTP passed on, the consent's challenge, the credential registered, and the accounts linked",
  async (t) => {
    const { consentRequestId, body, requested, handle } = await requestingConsent(t);
    const scopes = body.accounts.map(({ address }) => ({ address, actions: body.actions }));
    t.deepEqual(sentOn('consentRequests')[0], {
      to: DFSP,
      resource: 'consentRequests',
      name: 'request',
      body: { consentRequestId, userId: 'alice', scopes, authChannels: ['WEB', 'OTP'], callbackUri: body.callbackUri },
    });
    const channelResponse = { scopes, ...OTP };
    await handle.signal(peerMessageSignal, message('consentRequests', 'answer', channelResponse, DFSP, consentRequestId));
    t.deepEqual(await requested, { channelResponse, currentState: 'OTPAuthenticationChannelResponseReceived' });

    const authenticated = handle.executeUpdate(authenticate, { args: [{ authToken: AUTH_TOKEN }] });
    t.deepEqual(await stubs.next('sendToSwitch', (m) => m.name === 'patch'), {
      to: DFSP,
      resource: 'consentRequests',
      name: 'patch',
      id: consentRequestId,
      body: { authToken: AUTH_TOKEN },
    });
    const consent: ConsentsPostRequestPISP = { consentId: crypto.randomUUID(), consentRequestId, scopes, status: 'ISSUED' };
    await handle.signal(peerMessageSignal, message('consents', 'request', consent));
    t.deepEqual(await authenticated, { consent, challenge: CHALLENGE, currentState: 'consentReceivedAwaitingCredential' });
    t.deepEqual(stubs.inputs('registrationChallenge'), [consent]);

    const registered = handle.executeUpdate(passCredential, { args: [{ credential: { credentialType: 'GENERIC' } }] });
    t.deepEqual(await stubs.next('sendToSwitch', (m) => m.resource === 'consents'), {
      to: DFSP,
      resource: 'consents',
      name: 'answer',
      id: consent.consentId,
      body: { status: 'ISSUED', scopes, credential: { credentialType: 'GENERIC', status: 'PENDING', genericPayload: GENERIC_CREDENTIAL } },
    });
    t.deepEqual(stubs.inputs('genericCredential'), [consent]);
    await t.context.client.workflow
      .getHandle(participantWorkflowIds.exchange('consents', consent.consentId))
      .signal(peerMessageSignal, message('consents', 'patch', { credential: { status: 'VERIFIED' } }, DFSP, consent.consentId));
    t.deepEqual(await registered, { credential: { status: 'VERIFIED' }, currentState: 'accountsLinked' });
    t.deepEqual(await handle.result(), { state: 'accountsLinked', consentId: consent.consentId, dfsp: DFSP, scopes });
  },
);

test.serial(
  "a linking over the WEB channel with the user's FIDO credential: the DFSP's authUri reaches the app, the attestation goes to the DFSP as it is, and its PUT /consents/{ID} links the accounts",
  async (t) => {
    const { consentRequestId, body, requested, handle } = await requestingConsent(t);
    const scopes = body.accounts.map(({ address }) => ({ address, actions: body.actions }));
    const channelResponse = { scopes, authChannels: ['WEB'], callbackUri: body.callbackUri, authUri: 'https://dfspa.example/login/xyz' };
    await handle.signal(peerMessageSignal, message('consentRequests', 'answer', channelResponse, DFSP, consentRequestId));
    t.deepEqual(await requested, { channelResponse, currentState: 'WebAuthenticationChannelResponseReceived' });

    const authenticated = handle.executeUpdate(authenticate, { args: [{ authToken: 'secret-from-the-login-redirect' }] });
    const consent: ConsentsPostRequestPISP = { consentId: crypto.randomUUID(), consentRequestId, scopes, status: 'ISSUED' };
    await stubs.next('sendToSwitch', (m) => m.name === 'patch');
    await handle.signal(peerMessageSignal, message('consents', 'request', consent));
    t.like(await authenticated, { currentState: 'consentReceivedAwaitingCredential' });

    const attestation = {
      id: 'a2V5IGlk',
      rawId: 'a2V5IGlk',
      response: { clientDataJSON: 'Y2xpZW50IGRhdGE=', attestationObject: 'YXR0ZXN0YXRpb24=' },
      type: 'public-key' as const,
    };
    const registered = handle.executeUpdate(passCredential, { args: [{ credential: { payload: attestation } }] });
    t.like(await stubs.next('sendToSwitch', (m) => m.resource === 'consents'), {
      body: { credential: { credentialType: 'FIDO', status: 'PENDING', fidoPayload: attestation } },
    });
    t.deepEqual(stubs.inputs('genericCredential'), []);
    await t.context.client.workflow
      .getHandle(participantWorkflowIds.exchange('consents', consent.consentId))
      .signal(peerMessageSignal, message('consents', 'answer', { scopes, credential: { status: 'VERIFIED' } }, DFSP, consent.consentId));
    t.like(await registered, { currentState: 'accountsLinked' });
    t.like(await handle.result(), { state: 'accountsLinked', consentId: consent.consentId });
  },
);

test.serial("request consent: the DFSP's PUT /consentRequests/{ID}/error answers the app errored with it, and the linking is over", async (t) => {
  const { consentRequestId, requested, handle } = await requestingConsent(t);
  const refusal = { errorCode: '6101', errorDescription: 'Unsupported scopes were requested' };
  await handle.signal(peerMessageSignal, message('consentRequests', 'error', { errorInformation: refusal }, DFSP, consentRequestId));
  t.deepEqual(await requested, { currentState: 'errored', errorInformation: refusal });
  t.deepEqual(await handle.result(), { state: 'errored' });
  t.deepEqual(
    sentOn('consentRequests').map((m) => m.name),
    ['request'],
  );
});

test.serial(
  'request consent: a channel from anyone but the DFSP asked is not taken, and with none from the DFSP within REQUEST_TIMEOUT_MS the app is answered errored 2004',
  async (t) => {
    const { consentRequestId, body, requested, handle } = await requestingConsent(t);
    const scopes = body.accounts.map(({ address }) => ({ address, actions: body.actions }));
    await handle.signal(peerMessageSignal, message('consentRequests', 'answer', { scopes, ...OTP }, 'mallory', consentRequestId));
    await t.context.environment.sleep(MINUTE);
    t.like(await requested, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
    t.deepEqual(await handle.result(), { state: 'errored' });
  },
);

test.serial("request consent: the switch's refusal of the POST answers the app errored with the switch's ErrorInformation", async (t) => {
  stubs.script({
    sendToSwitch: async () => {
      throw rejection('destinationFspError', 'dfspa has no endpoint for consentRequests');
    },
  });
  const { requested, handle } = await requestingConsent(t);
  t.like(await requested, { currentState: 'errored', errorInformation: { errorCode: '3201' } });
  t.deepEqual(await handle.result(), { state: 'errored' });
});

test.serial("authentication: the DFSP's PUT /consentRequests/{ID}/error on the OTP answers the app errored with it, and no challenge is derived", async (t) => {
  const { consentRequestId, authenticated, handle } = await authenticating(t);
  const refusal = { errorCode: '7205', errorDescription: 'OTP failed validation' };
  await handle.signal(peerMessageSignal, message('consentRequests', 'error', { errorInformation: refusal }, DFSP, consentRequestId));
  t.deepEqual(await authenticated, { currentState: 'errored', errorInformation: refusal });
  t.deepEqual(await handle.result(), { state: 'errored' });
  t.deepEqual(stubs.inputs('registrationChallenge'), []);
});

test.serial('authentication: no POST /consents from the DFSP within REQUEST_TIMEOUT_MS answers the app errored 2004', async (t) => {
  const { authenticated, handle } = await authenticating(t);
  await t.context.environment.sleep(MINUTE);
  t.like(await authenticated, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
  t.deepEqual(await handle.result(), { state: 'errored' });
});

test.serial("credential registration: the DFSP's PUT /consents/{ID}/error answers the app errored with it, and no accounts are linked", async (t) => {
  const { registered, answer, handle } = await registering(t);
  const refusal = { errorCode: '7213', errorDescription: 'Consent is invalid' };
  await answer('error', { errorInformation: refusal });
  t.deepEqual(await registered, { currentState: 'errored', errorInformation: refusal });
  t.deepEqual(await handle.result(), { state: 'errored' });
});

test.serial(
  "credential registration: a VERIFIED from anyone but the consent's DFSP is not taken, and with none from it within REQUEST_TIMEOUT_MS the app is answered errored 2004",
  async (t) => {
    const { registered, answer, handle } = await registering(t);
    await answer('patch', { credential: { status: 'VERIFIED' } }, 'mallory');
    await t.context.environment.sleep(MINUTE);
    t.like(await registered, { currentState: 'errored', errorInformation: { errorCode: '2004' } });
    t.deepEqual(await handle.result(), { state: 'errored' });
  },
);

test.serial("credential registration: the DFSP's PATCH /consents/{ID} saying REVOKED links nothing: the app is answered errored 7200", async (t) => {
  const { registered, answer, handle } = await registering(t);
  await answer('patch', { status: 'REVOKED', revokedAt: '2030-01-01T00:00:00.000Z' });
  t.like(await registered, {
    currentState: 'errored',
    errorInformation: {
      errorCode: '7200',
      errorDescription: 'Generic Thirdparty account linking error - the DFSP answered the registration with REVOKED, not VERIFIED',
    },
  });
  t.deepEqual(await handle.result(), { state: 'errored' });
});

test.serial('an app call out of turn is refused at once, and the linking waits on for the one it needs', async (t) => {
  const { handle, authenticated, consentRequestId, scopes } = await authenticating(t);
  const early = handle.executeUpdate(passCredential, { args: [{ credential: { credentialType: 'GENERIC' } }] });
  await t.throwsAsync(early, { instanceOf: WorkflowUpdateFailedError });
  const consent: ConsentsPostRequestPISP = { consentId: crypto.randomUUID(), consentRequestId, scopes, status: 'ISSUED' };
  await handle.signal(peerMessageSignal, message('consents', 'request', consent));
  t.like(await authenticated, { currentState: 'consentReceivedAwaitingCredential' });
  t.deepEqual(sentOn('consents'), []);
});

test.serial('an app that never authenticates after the channel came: a day later the linking is abandoned, and the DFSP is sent nothing more', async (t) => {
  const { consentRequestId, body, requested, handle } = await requestingConsent(t);
  const scopes = body.accounts.map(({ address }) => ({ address, actions: body.actions }));
  await handle.signal(peerMessageSignal, message('consentRequests', 'answer', { scopes, ...OTP }, DFSP, consentRequestId));
  await requested;
  await t.context.environment.sleep(DAY - MINUTE);
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.deepEqual(await handle.result(), { state: 'abandoned' });
  t.is(stubs.inputs('sendToSwitch').length, 1);
});

test.serial('an app that never passes the credential after the grant: a day later the linking is abandoned, and nothing is registered', async (t) => {
  const { handle } = await granted(t);
  t.deepEqual(await handle.result(), { state: 'abandoned' });
  t.deepEqual(sentOn('consents'), []);
  t.deepEqual(stubs.inputs('genericCredential'), []);
});

test.serial(
  "authentication: a POST /consents naming the consent request from anyone but its DFSP is not taken: no challenge is derived for it, and the DFSP's grant is the consent",
  async (t) => {
    const { consentRequestId, scopes, authenticated, handle } = await authenticating(t);
    const forged: ConsentsPostRequestPISP = { consentId: crypto.randomUUID(), consentRequestId, scopes, status: 'ISSUED' };
    await handle.signal(peerMessageSignal, message('consents', 'request', forged, 'mallory'));
    const consent: ConsentsPostRequestPISP = { consentId: crypto.randomUUID(), consentRequestId, scopes, status: 'ISSUED' };
    await handle.signal(peerMessageSignal, message('consents', 'request', consent));
    t.like(await authenticated, { consent: { consentId: consent.consentId }, currentState: 'consentReceivedAwaitingCredential' });
    t.deepEqual(stubs.inputs('registrationChallenge'), [consent]);
  },
);

test.serial("request consent: the switch's own error on the consent request (it could not deliver the POST) answers the app errored with it", async (t) => {
  const { consentRequestId, requested, handle } = await requestingConsent(t);
  const undeliverable = { errorCode: '1001', errorDescription: 'Destination communication error' };
  await handle.signal(peerMessageSignal, {
    ...message('consentRequests', 'error', { errorInformation: undeliverable }, 'Hub', consentRequestId),
    fromSwitch: true,
  });
  t.deepEqual(await requested, { currentState: 'errored', errorInformation: undeliverable });
  t.deepEqual(await handle.result(), { state: 'errored' });
});
