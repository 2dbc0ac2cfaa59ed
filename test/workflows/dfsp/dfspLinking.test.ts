import crypto from 'node:crypto';
import type { ConsentRequestsPostRequest } from '../../../activities/shared/contracts/bodies';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import type { dfspLinking } from '../../../workflows/dfsp/dfspLinking';
import { dfspLinkingQuery } from '../../../workflows/dfsp/thirdpartyContracts';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspLinking workflow (Document 1, "Linking", the DFSP's side) on the time-skipping server, fed
// the PISP's POST /consentRequests as its inbound gateway feeds it, with stub bank activities and a stub sendToSwitch
// that plays the PISP, the Auth service and the account lookup: each message the DFSP sends is answered (or not) as the
// test scripts, by a signal to the linking (the PISP's PATCH with the authToken) or to the exchange waiting for the
// answer. The user's steps wait ten minutes; the Auth service's and the account lookup's answers REQUEST_TIMEOUT_MS, a
// minute. Serial: each test moves the one server clock the file shares.
const ME = 'dfspa';
const PISP = 'pisp';
const AUTH_SERVICE = 'centralauth';
const HUB = 'Hub';
const OTP = '246810';
const USER_STEP_MS = 10 * MINUTE;
const SIGNED = {
  credentialType: 'GENERIC',
  status: 'PENDING',
  genericPayload: { publicKey: 'cHVibGljIGtleQ==', signature: 'c2lnbmF0dXJl' },
};

/** How a peer answers one message of the DFSP (the reply's name, body and sender), or undefined to leave it unanswered. */
type Reply = { name: PeerMessage['name']; body: unknown; source: string; fromSwitch?: boolean } | undefined;
type Peer = (sent: OutgoingMessage) => Reply;
/** The steps of a linking where a peer answers the DFSP. */
type Step = 'authenticate' | 'sign' | 'verify' | 'link';

/** The PISP, the Auth service and the account lookup as they answer a linking that completes; each test changes what it needs. */
function linkingPeers(): Record<Step, Peer> {
  return {
    // The user read the OTP and the PISP passes it on (PATCH /consentRequests/{ID}).
    authenticate: () => ({ name: 'patch', body: { authToken: OTP }, source: PISP }),
    // The PISP registers the user's credential over the consent's challenge (PUT /consents/{ID}).
    sign: (sent) => ({ name: 'answer', body: { scopes: (sent.body as { scopes: unknown }).scopes, credential: SIGNED }, source: PISP }),
    verify: (sent) => ({
      name: 'answer',
      body: { scopes: (sent.body as { scopes: unknown }).scopes, credential: { ...SIGNED, status: 'VERIFIED' } },
      source: AUTH_SERVICE,
    }),
    link: () => ({ name: 'answer', body: { fspId: ME }, source: HUB, fromSwitch: true }),
  };
}
let peers = linkingPeers();

/** Which step a message of the DFSP is, by what it is and whom it goes to. */
function stepOf(sent: OutgoingMessage): Step | undefined {
  if (sent.resource === 'consentRequests' && sent.name === 'answer') return 'authenticate';
  if (sent.resource === 'consents' && sent.name === 'request') return sent.to === AUTH_SERVICE ? 'verify' : 'sign';
  if (sent.resource === 'participants' && sent.name === 'request') return 'link';
  return undefined;
}

let client: StubbedWorkflows['client'] | undefined;
const stubs = new StubActivities({
  thirdpartyIdentity: async () => ({ dfspId: ME, authServiceId: AUTH_SERVICE, requestTimeoutMs: MINUTE }),
  checkConsentRequest: async () => ({ ok: true, channel: 'OTP' }),
  startUserAuthentication: async () => ({ authUri: 'https://dfspa.example/login/consent' }),
  verifyAuthToken: async ({ authToken }: { authToken: string }) => authToken === OTP,
  storeConsent: async () => undefined,
  consentRevoked: async () => true,
  sendToSwitch: async (sent: OutgoingMessage) => {
    const step = stepOf(sent);
    const reply = step && peers[step](sent);
    if (!reply) return;
    const { fromSwitch = false, ...said } = reply;
    // The PISP's PATCH continues the linking; every other answer goes to the exchange named by the consent or the link.
    const id = sent.resource === 'consents' ? (sent.body as { consentId: string }).consentId : sent.id!;
    const workflowId = step === 'authenticate' ? participantWorkflowIds.dfspLinking(id) : participantWorkflowIds.exchange(sent.resource, id);
    const message: PeerMessage = { resource: sent.resource, id, headers: { 'fspiop-source': said.source }, fromSwitch, ...said };
    await client!.workflow.getHandle(workflowId).signal(peerMessageSignal, message);
  },
});
const test = stubbedWorkflowTest('dfsp', stubs);

test.serial.before((t) => {
  client = t.context.client;
});
test.serial.beforeEach(() => {
  peers = linkingPeers();
});

/** The PISP's POST /consentRequests for two of alice's accounts, handed over as the inbound gateway hands it. */
async function requested(t: { context: StubbedWorkflows }) {
  const consentRequestId = crypto.randomUUID();
  const request: ConsentRequestsPostRequest = {
    consentRequestId,
    userId: 'alice',
    scopes: [
      { address: `dfspa.alice.savings.${crypto.randomInt(10 ** 6)}`, actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'] },
      { address: `dfspa.alice.current.${crypto.randomInt(10 ** 6)}`, actions: ['ACCOUNTS_TRANSFER'] },
    ],
    authChannels: ['WEB', 'OTP'],
    callbackUri: 'pisp-app://linking-done',
  };
  const post: PeerMessage = {
    resource: 'consentRequests',
    name: 'request',
    source: PISP,
    fromSwitch: false,
    headers: { 'fspiop-source': PISP },
    body: request,
  };
  const handle = await t.context.client.workflow.signalWithStart<typeof dfspLinking, [PeerMessage]>('dfspLinking', {
    workflowId: participantWorkflowIds.dfspLinking(consentRequestId),
    taskQueue: t.context.taskQueue,
    args: [{ consentRequestId }],
    signal: peerMessageSignal,
    signalArgs: [post],
  });
  return { consentRequestId, request, handle };
}

const sent = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];
/** What the PISP was told, in order. */
const toPisp = () => sent().filter((m) => m.to === PISP);
/** The consent the DFSP granted, as its POST /consents to the PISP named it. */
const consentIdGranted = () => (sent().find((m) => m.resource === 'consents' && m.name === 'request')?.body as { consentId: string } | undefined)?.consentId;

test.serial(
  'a linking over OTP: the channel to the PISP, the OTP verified, the consent granted, its credential registered with the Auth service, the consent kept, each account linked, and the PISP told VERIFIED',
  async (t) => {
    const { consentRequestId, request, handle } = await requested(t);
    t.is(await handle.result(), 'LINKED');
    const consentId = consentIdGranted()!;
    t.deepEqual(
      sent().map((m) => [m.resource, m.name, m.to]),
      [
        ['consentRequests', 'answer', PISP],
        ['consents', 'request', PISP],
        ['consents', 'request', AUTH_SERVICE],
        ['participants', 'request', undefined],
        ['participants', 'request', undefined],
        ['consents', 'patch', PISP],
      ],
    );
    const [channel, grant, registration, link1, link2, verified] = sent();
    t.deepEqual(channel, {
      to: PISP,
      resource: 'consentRequests',
      name: 'answer',
      id: consentRequestId,
      body: { scopes: request.scopes, authChannels: ['OTP'], callbackUri: request.callbackUri },
    });
    t.deepEqual(stubs.inputs('verifyAuthToken'), [{ consentRequestId, authToken: OTP }]);
    t.deepEqual(grant.body, { consentId, consentRequestId, scopes: request.scopes, status: 'ISSUED' });
    t.deepEqual(registration.body, { consentId, consentRequestId, scopes: request.scopes, credential: SIGNED, status: 'ISSUED' });
    t.deepEqual(stubs.inputs('storeConsent'), [
      { consentId, consentRequestId, pispId: PISP, userId: 'alice', scopes: request.scopes, status: 'VERIFIED', credentialType: 'GENERIC' },
    ]);
    // The accounts are linked side by side, in no order.
    const byId = (a: { id?: string }, b: { id?: string }) => a.id!.localeCompare(b.id!);
    t.deepEqual(
      [link1, link2].map(({ id, body }) => ({ id, body })).sort(byId),
      request.scopes.map(({ address }) => ({ id: `THIRD_PARTY_LINK/${address}`, body: { fspId: ME } })).sort(byId),
    );
    t.deepEqual(verified, { to: PISP, resource: 'consents', name: 'patch', id: consentId, body: { credential: { status: 'VERIFIED' } } });
    t.deepEqual(await handle.query(dfspLinkingQuery), { state: 'LINKED', pisp: PISP, consentId });
    t.deepEqual(stubs.inputs('consentRevoked'), []);
  },
);

test.serial("a linking over the WEB channel: the PISP is sent the bank's login page as authUri, and the linking completes", async (t) => {
  stubs.script({ checkConsentRequest: async () => ({ ok: true, channel: 'WEB' }) });
  const { request, handle } = await requested(t);
  t.is(await handle.result(), 'LINKED');
  t.like(toPisp()[0], { body: { authChannels: ['WEB'], callbackUri: request.callbackUri, authUri: 'https://dfspa.example/login/consent' } });
  t.like(stubs.inputs('startUserAuthentication'), [{ request, channel: 'WEB' }]);
});

test.serial("a consent request the bank's checks refuse gets one PUT /consentRequests/{ID}/error with the bank's reason, and no user is asked", async (t) => {
  const refusal = { errorCode: '6101', errorDescription: 'Unsupported scopes were requested' };
  stubs.script({ checkConsentRequest: async () => ({ ok: false, errorInformation: refusal }) });
  const { consentRequestId, handle } = await requested(t);
  t.is(await handle.result(), 'FAILED');
  t.deepEqual(sent(), [{ to: PISP, resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: refusal } }]);
  t.deepEqual(stubs.inputs('startUserAuthentication'), []);
  t.like(await handle.query(dfspLinkingQuery), { state: 'FAILED', errorInformation: refusal });
});

test.serial('a wrong OTP is refused 7205 on the consent request, and no consent is created (linking rule 4)', async (t) => {
  peers.authenticate = () => ({ name: 'patch', body: { authToken: '000000' }, source: PISP });
  const { consentRequestId, handle } = await requested(t);
  t.is(await handle.result(), 'FAILED');
  t.like(toPisp(), [
    { name: 'answer' },
    { resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: { errorCode: '7205' } } },
  ]);
  t.is(toPisp().length, 2);
  t.is(consentIdGranted(), undefined);
});

test.serial(
  'an authToken from anyone but the PISP that asked is not taken: with none from it in ten minutes the consent request is refused 7200',
  async (t) => {
    peers.authenticate = () => ({ name: 'patch', body: { authToken: OTP }, source: 'mallory' });
    const { consentRequestId, handle } = await requested(t);
    await stubs.next('sendToSwitch', (m) => m.resource === 'consentRequests');
    await t.context.environment.sleep(USER_STEP_MS - MINUTE);
    t.is(toPisp().length, 1, 'a minute before, only the channel has gone');
    t.is(await handle.result(), 'FAILED');
    t.like(toPisp()[1], { resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: { errorCode: '7200' } } });
    t.deepEqual(stubs.inputs('verifyAuthToken'), []);
    t.is(consentIdGranted(), undefined);
  },
);

test.serial(
  'a PISP that never returns the signed credential: after ten minutes the consent is refused 7200, and nothing goes to the Auth service',
  async (t) => {
    peers.sign = () => undefined;
    const { handle } = await requested(t);
    await stubs.next('sendToSwitch', (m) => m.resource === 'consents');
    await t.context.environment.sleep(USER_STEP_MS - MINUTE);
    t.is(toPisp().length, 2, 'a minute before, only the channel and the grant have gone');
    t.is(await handle.result(), 'FAILED');
    const consentId = consentIdGranted();
    t.like(toPisp()[2], { resource: 'consents', name: 'error', id: consentId, body: { errorInformation: { errorCode: '7200' } } });
    t.false(sent().some((m) => m.to === AUTH_SERVICE));
    t.deepEqual(stubs.inputs('storeConsent'), []);
  },
);

test.serial("the PISP's PUT /consents/{ID}/error to the grant ends the linking FAILED with it, and the PISP is told nothing more", async (t) => {
  const abandoned = { errorCode: '7200', errorDescription: 'Generic Thirdparty account linking error - the user cancelled' };
  peers.sign = () => ({ name: 'error', body: { errorInformation: abandoned }, source: PISP });
  const { handle } = await requested(t);
  t.is(await handle.result(), 'FAILED');
  t.deepEqual(
    toPisp().map((m) => [m.resource, m.name]),
    [
      ['consentRequests', 'answer'],
      ['consents', 'request'],
    ],
  );
  t.false(sent().some((m) => m.to === AUTH_SERVICE));
  t.like(await handle.query(dfspLinkingQuery), { state: 'FAILED', errorInformation: abandoned });
});

test.serial('a credential the Auth service refuses: the consent is refused 7213 to the PISP, and it is neither kept nor linked', async (t) => {
  peers.verify = () => ({
    name: 'error',
    body: { errorInformation: { errorCode: '7212', errorDescription: 'Signed challenge does not match derived challenge' } },
    source: AUTH_SERVICE,
  });
  const { handle } = await requested(t);
  t.is(await handle.result(), 'FAILED');
  t.like(toPisp()[2], { resource: 'consents', name: 'error', id: consentIdGranted(), body: { errorInformation: { errorCode: '7213' } } });
  t.deepEqual(stubs.inputs('storeConsent'), []);
  t.false(sent().some((m) => m.resource === 'participants'));
});

test.serial(
  'a VERIFIED from anyone but the Auth service is not taken: with none from it within REQUEST_TIMEOUT_MS the consent is refused 7200, and not kept',
  async (t) => {
    peers.verify = (registration) => ({ ...linkingPeers().verify(registration)!, source: PISP });
    const { handle } = await requested(t);
    t.is(await handle.result(), 'FAILED');
    t.like(toPisp()[2], { resource: 'consents', name: 'error', id: consentIdGranted(), body: { errorInformation: { errorCode: '7200' } } });
    t.deepEqual(stubs.inputs('storeConsent'), []);
  },
);

test.serial('an account the lookup does not link: the consent is revoked at the bank and refused 7214 to the PISP, which is never told VERIFIED', async (t) => {
  peers.link = (registration) =>
    registration.id!.includes('current')
      ? { name: 'error', body: { errorInformation: { errorCode: '3200', errorDescription: 'Generic ID not found' } }, source: HUB, fromSwitch: true }
      : linkingPeers().link(registration);
  const { handle } = await requested(t);
  t.is(await handle.result(), 'FAILED');
  const consentId = consentIdGranted()!;
  t.like(stubs.inputs('consentRevoked'), [{ consentId }]);
  t.like(toPisp()[2], { resource: 'consents', name: 'error', id: consentId, body: { errorInformation: { errorCode: '7214' } } });
  t.false(toPisp().some((m) => m.name === 'patch'));
});

test.serial('a linking started without its POST ends FAILED after ten minutes, having sent nothing', async (t) => {
  const handle = await t.context.start<typeof dfspLinking>('dfspLinking', participantWorkflowIds.dfspLinking(crypto.randomUUID()), {
    consentRequestId: crypto.randomUUID(),
  });
  await t.context.environment.sleep(USER_STEP_MS - MINUTE);
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.is(await handle.result(), 'FAILED');
  t.deepEqual(stubs.calls, []);
});
