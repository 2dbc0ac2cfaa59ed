import crypto from 'node:crypto';
import type { QuotesIDPutResponse, ThirdpartyRequestsTransactionsPostRequest } from '../../../activities/shared/contracts/bodies';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { thirdpartyTransactionQuery } from '../../../workflows/dfsp/thirdpartyContracts';
import type { dfspThirdpartyTransaction } from '../../../workflows/dfsp/dfspThirdpartyTransaction';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { ilpPair } from '../../helpers/fspiopBodies';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows, HOUR } from '../../helpers/stubbedWorkflows';
import { expirationAt } from '../../../activities/shared/contracts/expiry';

// The DFSP connector's dfspThirdpartyTransaction workflow (Document 1, "Payment flow", the payer DFSP's side) on the
// time-skipping server, fed the PISP's POST as its inbound gateway feeds it, with stub bank activities and a stub
// sendToSwitch that plays the switch and the peers: each request it sends is answered (or not) as the test scripts,
// by a signal to the exchange waiting for the answer. The request expires an hour ahead; each wait before the
// transfer ends at that expiration. Serial: each test moves the one server clock the file shares.
const ME = 'dfspa';
const PISP = 'pisp';
const PAYEE_FSP = 'payeefsp';
const AUTH_SERVICE = 'centralauth';
const HUB = 'Hub';
const CHALLENGE = 'a'.repeat(64);
const TRANSACTIONS = 'thirdpartyRequests/transactions';
const AUTHORIZATIONS = 'thirdpartyRequests/authorizations';
const VERIFICATIONS = 'thirdpartyRequests/verifications';

/** How a peer answers one request (the reply's name, body and sender), or undefined to leave it unanswered. */
type Reply = { name: 'answer' | 'error'; body: unknown; source: string; fromSwitch?: boolean } | undefined;
type Peer = (request: OutgoingMessage) => Reply;

/** The fulfilment of each condition the payee quoted, for its PUT /transfers. */
const fulfilments = new Map<string, string>();
const quoteOf = (amount = '10', currency = 'USD'): QuotesIDPutResponse => {
  const { fulfilment, condition } = ilpPair();
  fulfilments.set(condition, fulfilment);
  return {
    transferAmount: { amount, currency: currency as 'USD' },
    payeeReceiveAmount: { amount, currency: currency as 'USD' },
    expiration: expirationAt(Date.now() + HOUR),
    ilpPacket: Buffer.from('ilp packet of the quote').toString('base64url'),
    condition,
  };
};

/** The switch and the peers as they answer a payment that completes; each test changes what it needs. */
function completingPeers(): Record<string, Peer> {
  return {
    quotes: () => ({ name: 'answer', body: quoteOf(), source: PAYEE_FSP }),
    [AUTHORIZATIONS]: () => ({
      name: 'answer',
      body: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: 'c2lnbmF0dXJl' } },
      source: PISP,
    }),
    [VERIFICATIONS]: () => ({ name: 'answer', body: { authenticationResponse: 'VERIFIED' }, source: AUTH_SERVICE }),
    transfers: (request) => {
      const { condition } = request.body as { condition: string };
      return {
        name: 'answer',
        body: { fulfilment: fulfilments.get(condition), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
        source: PAYEE_FSP,
      };
    },
  };
}
let peers = completingPeers();

/** The ID each request's answer comes back on, which names the exchange waiting for it. */
function answerIdOf(request: OutgoingMessage): string | undefined {
  const body = request.body as Record<string, string> | undefined;
  if (request.name === 'get') return request.id;
  const ids: Record<string, string | undefined> = {
    quotes: body?.quoteId,
    [AUTHORIZATIONS]: body?.authorizationRequestId,
    [VERIFICATIONS]: body?.verificationRequestId,
    transfers: body?.transferId,
  };
  return ids[request.resource];
}

let client: StubbedWorkflows['client'] | undefined;
const stubs = new StubActivities({
  thirdpartyIdentity: async () => ({ dfspId: ME, authServiceId: AUTH_SERVICE, requestTimeoutMs: 60_000 }),
  checkThirdpartyTransactionRequest: async ({ request }: { request: ThirdpartyRequestsTransactionsPostRequest }) => ({
    ok: true,
    consentId: 'consent-of-alice',
    address: request.payer.partyIdentifier,
    holder: { partyIdType: 'MSISDN', partyIdentifier: '27713803911', firstName: 'Alice', lastName: 'Payer' },
  }),
  reserveFunds: async () => ({ ok: true }),
  transactionChallenge: async () => CHALLENGE,
  commitReservation: async () => undefined,
  releaseReservation: async () => undefined,
  fulfilsCondition: async (fulfilment: string, condition: string) =>
    crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url') === condition,
  sendToSwitch: async (request: OutgoingMessage) => {
    const answerId = answerIdOf(request);
    const reply = answerId === undefined ? undefined : peers[request.name === 'get' ? `${request.resource}:get` : request.resource]?.(request);
    if (!reply) return;
    const { fromSwitch = false, ...said } = reply;
    const message: PeerMessage = { resource: request.resource, id: answerId, headers: { 'fspiop-source': said.source }, fromSwitch, ...said };
    await client!.workflow.getHandle(participantWorkflowIds.exchange(request.resource, answerId!)).signal(peerMessageSignal, message);
  },
});
const test = stubbedWorkflowTest('dfsp', stubs);

test.serial.before((t) => {
  client = t.context.client;
});
test.serial.beforeEach(() => {
  peers = completingPeers();
});

/** The PISP's POST /thirdpartyRequests/transactions of 10 USD, expiring an hour past the server's clock, handed over as the inbound gateway hands it. */
async function requested(t: { context: StubbedWorkflows }) {
  const request = {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: PAYEE_FSP } },
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: 'dfspa.alice.savings', fspId: ME },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: await t.context.expiration(HOUR),
  } as ThirdpartyRequestsTransactionsPostRequest;
  const post: PeerMessage = { resource: TRANSACTIONS, name: 'request', source: PISP, fromSwitch: false, headers: { 'fspiop-source': PISP }, body: request };
  const handle = await t.context.client.workflow.signalWithStart<typeof dfspThirdpartyTransaction, [PeerMessage]>('dfspThirdpartyTransaction', {
    workflowId: participantWorkflowIds.dfspThirdpartyTransaction(request.transactionRequestId),
    taskQueue: t.context.taskQueue,
    args: [{ transactionRequestId: request.transactionRequestId }],
    signal: peerMessageSignal,
    signalArgs: [post],
  });
  return { request, handle };
}

const sent = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];
const sentOn = (resource: string) => sent().filter((m) => m.resource === resource);
/** What the PISP was told of its request: RECEIVED, then exactly one final outcome. */
const toPisp = () => sentOn(TRANSACTIONS).map((m) => ({ name: m.name, body: m.body as any }));

test.serial(
  'a payment that completes: RECEIVED, the quote, the challenge signed and verified, the transfer of the quoted terms, one PATCH, and the hold committed',
  async (t) => {
    const { request, handle } = await requested(t);
    t.is(await handle.result(), 'completed');
    const [received, patch] = toPisp();
    t.like(received, { name: 'answer', body: { transactionRequestState: 'RECEIVED' } });
    t.deepEqual(patch, { name: 'patch', body: { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' } });
    t.is(toPisp().length, 2);

    const [quote] = sentOn('quotes');
    t.like(quote, {
      to: PAYEE_FSP,
      name: 'request',
      body: {
        transactionRequestId: request.transactionRequestId,
        amount: request.amount,
        payer: { partyIdInfo: { partyIdentifier: '27713803911', fspId: ME } },
        expiration: request.expiration,
      },
    });
    const [authorization] = sentOn(AUTHORIZATIONS);
    t.like(authorization, {
      to: PISP,
      name: 'request',
      body: { transactionRequestId: request.transactionRequestId, challenge: CHALLENGE, transferAmount: request.amount },
    });
    const [verification] = sentOn(VERIFICATIONS);
    t.like(verification, {
      to: AUTH_SERVICE,
      body: { challenge: CHALLENGE, consentId: 'consent-of-alice', signedPayloadType: 'GENERIC', genericSignedPayload: 'c2lnbmF0dXJl' },
    });
    const [transfer] = sentOn('transfers');
    t.like(transfer, { to: PAYEE_FSP, name: 'request', body: { payerFsp: ME, payeeFsp: PAYEE_FSP, amount: request.amount, expiration: request.expiration } });

    t.deepEqual(stubs.inputs('reserveFunds'), [{ transactionRequestId: request.transactionRequestId, address: request.payer.partyIdentifier, amount: '10' }]);
    t.deepEqual(stubs.inputs('commitReservation'), [{ transactionRequestId: request.transactionRequestId, amount: '10' }]);
    t.deepEqual(stubs.inputs('releaseReservation'), []);
    t.like(await handle.query(thirdpartyTransactionQuery), { originator: PISP, transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  },
);

test.serial('a quote the payee FSP never answers: at the expiration the PISP gets 3301, the user is never asked, and the hold is released', async (t) => {
  peers.quotes = () => undefined;
  const { request, handle } = await requested(t);
  await stubs.next('sendToSwitch', (m) => m.resource === 'quotes');
  await t.context.environment.sleep(HOUR - 60_000);
  t.is(toPisp().length, 1, 'a minute before the expiration only RECEIVED has gone');
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '3301' } } });
  t.deepEqual(sentOn(AUTHORIZATIONS), []);
  t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
});

test.serial(
  'a PISP that never answers the authorization request: at the expiration it gets 3301, nothing is verified or transferred, and the hold is released',
  async (t) => {
    peers[AUTHORIZATIONS] = () => undefined;
    const { request, handle } = await requested(t);
    t.is(await handle.result(), 'failed');
    t.like(toPisp(), [{ name: 'answer' }, { name: 'error', body: { errorInformation: { errorCode: '3301' } } }]);
    t.deepEqual(sentOn(VERIFICATIONS), []);
    t.deepEqual(sentOn('transfers'), []);
    t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
  },
);

test.serial('an Auth service that never answers the verification: at the expiration the PISP gets 3301 and nothing is transferred', async (t) => {
  peers[VERIFICATIONS] = () => undefined;
  const { request, handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '3301' } } });
  t.deepEqual(sentOn('transfers'), []);
  t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
});

test.serial(
  'a transfer nobody answers is not given up: the DFSP asks the switch with GET /transfers/{ID}, and the switch’s COMMITTED completes the payment',
  async (t) => {
    peers.transfers = () => undefined;
    peers['transfers:get'] = () => ({
      name: 'answer',
      body: { completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
      source: HUB,
      fromSwitch: true,
    });
    const { request, handle } = await requested(t);
    t.is(await handle.result(), 'completed');
    const [transfer] = sentOn('transfers');
    t.like(sentOn('transfers')[1], { name: 'get', id: (transfer.body as { transferId: string }).transferId });
    t.like(toPisp()[1], { name: 'patch', body: { transactionState: 'COMPLETED' } });
    t.deepEqual(stubs.inputs('commitReservation'), [{ transactionRequestId: request.transactionRequestId, amount: '10' }]);
  },
);

test.serial('a transfer the switch aborts ends the request with 7108, and the hold is released', async (t) => {
  peers.transfers = () => ({
    name: 'error',
    body: { errorInformation: { errorCode: '3303', errorDescription: 'Transfer expired' } },
    source: HUB,
    fromSwitch: true,
  });
  const { request, handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '7108' } } });
  t.deepEqual(stubs.inputs('commitReservation'), []);
  t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
});

test.serial('a user who rejects the terms: PATCH REJECTED, no verification, no transfer, the hold released', async (t) => {
  peers[AUTHORIZATIONS] = () => ({ name: 'answer', body: { responseType: 'REJECTED' }, source: PISP });
  const { request, handle } = await requested(t);
  t.is(await handle.result(), 'rejected');
  t.deepEqual(toPisp()[1], { name: 'patch', body: { transactionRequestState: 'REJECTED', transactionState: 'REJECTED' } });
  t.deepEqual(sentOn(VERIFICATIONS), []);
  t.deepEqual(sentOn('transfers'), []);
  t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
});

test.serial('a signature the Auth service does not verify ends the request with 7105 and no transfer', async (t) => {
  peers[VERIFICATIONS] = () => ({
    name: 'error',
    body: { errorInformation: { errorCode: '7212', errorDescription: 'Signed challenge does not match derived challenge' } },
    source: AUTH_SERVICE,
  });
  const { handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '7105' } } });
  t.deepEqual(sentOn('transfers'), []);
});

test.serial("the payee FSP's refusal of the quote ends the request with 7103 before the user is asked", async (t) => {
  peers.quotes = () => ({ name: 'error', body: { errorInformation: { errorCode: '5101', errorDescription: 'Payee rejected quote' } }, source: PAYEE_FSP });
  const { handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '7103' } } });
  t.deepEqual(sentOn(AUTHORIZATIONS), []);
});

test.serial('a quote of more than the amount held (payee fees) is refused 7101 before the user is asked', async (t) => {
  peers.quotes = () => ({ name: 'answer', body: quoteOf('11'), source: PAYEE_FSP });
  const { request, handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp()[1], { name: 'error', body: { errorInformation: { errorCode: '7101' } } });
  t.deepEqual(sentOn(AUTHORIZATIONS), []);
  t.deepEqual(stubs.inputs('releaseReservation'), [request.transactionRequestId]);
});

test.serial('a request the checks of rule 3 refuse gets one PUT …/error 7101: never RECEIVED, no quote', async (t) => {
  stubs.script({
    checkThirdpartyTransactionRequest: async () => ({
      ok: false,
      errorInformation: { errorCode: '7101', errorDescription: 'Transaction request failed DFSP validation - the account is not active' },
    }),
  });
  const { handle } = await requested(t);
  t.is(await handle.result(), 'failed');
  t.like(toPisp(), [{ name: 'error', body: { errorInformation: { errorCode: '7101' } } }]);
  t.deepEqual(sentOn('quotes'), []);
  t.deepEqual(stubs.inputs('reserveFunds'), []);
});

test.serial('a conversation started without its POST ends failed after a minute, having sent nothing', async (t) => {
  const handle = await t.context.start<typeof dfspThirdpartyTransaction>(
    'dfspThirdpartyTransaction',
    participantWorkflowIds.dfspThirdpartyTransaction(crypto.randomUUID()),
    { transactionRequestId: crypto.randomUUID() },
  );
  t.is(await handle.result(), 'failed');
  t.deepEqual(stubs.calls, []);
});
