import crypto from 'node:crypto';
import test from 'ava';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { consentQuery } from '../../workflows/hub/consent';
import { playThirdpartyDfsp, startTestDfsp, startTestPisp } from '../helpers/connectors';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair } from '../helpers/fspiopBodies';
import { pollUntil } from '../helpers/polling';
import { answerOrError, isTo, TestDfsp, userAt } from '../helpers/scriptedPisp';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// Unlinking from the PISP's app (DELETE /linking/consents/{consentId}, this connector's addition to the SDK's API):
// the PISP addresses DELETE /consents/{ID} to the DFSP (Document 1, linking rule 6), the hub's Auth service revokes
// the consent, and neither the DFSP nor the PISP pays from it any more.

let hub: SwitchHarness;
let pisp: Awaited<ReturnType<typeof startTestPisp>>;
let dfsp: TestDfsp;
let payee: SimulatedDfsp;
/** A party of the payee FSP, registered in the hub's account lookup. */
const payeeMsisdn = `255${crypto.randomInt(10 ** 8, 10 ** 9)}`;

useSwitch(test, async (started) => {
  hub = started;
  pisp = await startTestPisp(hub);
  dfsp = await startTestDfsp(hub);
  payee = await hub.provision();
  const registered = await hub.fspiop('POST', `/participants/MSISDN/${payeeMsisdn}`, { source: payee.name, body: { fspId: payee.name } });
  if (registered.status !== 202) throw new Error(`the payee's party was not registered: ${registered.status}`);
  await payee.waitFor((r) => r.method === 'PUT' && r.path === `/participants/MSISDN/${payeeMsisdn}`);
  // The payee FSP finds its party, quotes what it is asked and commits each transfer with the fulfilment.
  const fulfilments = new Map<string, string>();
  payee.react(async (request) => {
    const from = request.headers['fspiop-source'] as string;
    const reply = (path: string, body: object) => hub.fspiop('PUT', path, { source: payee.name, destination: from, body });
    if (request.method === 'GET' && request.path === `/parties/MSISDN/${payeeMsisdn}`)
      await reply(request.path, { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn, fspId: payee.name }, name: 'Bob Payee' } });
    if (isTo('POST', '/quotes')(request)) {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      await reply(`/quotes/${request.body.quoteId}`, {
        transferAmount: request.body.amount,
        payeeReceiveAmount: request.body.amount,
        expiration: new Date(Date.now() + 60_000).toISOString(),
        ilpPacket: Buffer.from(`ilp packet of quote ${request.body.quoteId}`).toString('base64url'),
        condition,
      });
    }
    if (isTo('POST', '/transfers')(request))
      await reply(`/transfers/${request.body.transferId}`, {
        fulfilment: fulfilments.get(request.body.condition),
        completedTimestamp: new Date().toISOString(),
        transferState: 'COMMITTED',
      });
  });
});

test.after.always(async () => {
  await pisp?.connector.stop();
  await dfsp?.connector.stop();
});

/** The app links `address` of `userId` at `fspId` with a GENERIC credential, the user reading the secret `secretOf` gives. */
async function linkThroughApp(fspId: string, userId: string, address: string, secretOf: (consentRequestId: string) => string): Promise<string> {
  const consentRequestId = crypto.randomUUID();
  const requested = await pisp.app('POST', '/linking/request-consent', {
    toParticipantId: fspId,
    consentRequestId,
    accounts: [{ accountNickname: 'Everyday', address, currency: 'USD' }],
    actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'],
    userId,
    callbackUri: 'https://pisp.example.org/linked',
  });
  if (requested.status !== 200) throw new Error(`request-consent: ${JSON.stringify(requested.body)}`);
  const authenticated = await pisp.app('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken: secretOf(consentRequestId) });
  if (authenticated.status !== 200) throw new Error(`authenticate: ${JSON.stringify(authenticated.body)}`);
  const linked = await pisp.app('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, { credential: { credentialType: 'GENERIC' } });
  if (linked.body.currentState !== 'accountsLinked') throw new Error(`pass-credential: ${JSON.stringify(linked.body)}`);
  return authenticated.body.consent.consentId;
}

/** A user's account at the DFSP connector, linked through the app; the secret is the one the simulated bank gave them. */
const linkAt = (who: 'alice' | 'bob') => {
  const { userId, address } = userAt(dfsp, who);
  return linkThroughApp(dfsp.name, userId, address, (id) => dfsp.backends.thirdparty.secretFor(id)!.secret);
};

/** Party lookup and initiate of 10 USD from `address` at `fspId` to the payee. */
async function initiate(fspId: string, address: string) {
  const transactionRequestId = crypto.randomUUID();
  const lookup = await pisp.app('POST', '/thirdpartyTransaction/partyLookup', {
    transactionRequestId,
    payee: { partyIdType: 'MSISDN', partyIdentifier: payeeMsisdn },
  });
  if (lookup.body.currentState !== 'partyLookupSuccess') throw new Error(`partyLookup: ${JSON.stringify(lookup.body)}`);
  const initiated = await pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, {
    payee: lookup.body.party,
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: address, fspId },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: new Date(Date.now() + 60_000).toISOString(),
  });
  return { transactionRequestId, initiated };
}

/** The user accepts; the connector signs the challenge with the GENERIC key of the account's consent. */
const approveGeneric = (transactionRequestId: string) =>
  pisp.app('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, {
    authorizationResponse: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } },
  });

test('unlinking from the app: DELETE /consents/{ID} goes to the DFSP, the Auth service revokes the consent, and a later payment from the account is refused', async (t) => {
  const { address } = userAt(dfsp);
  const consentId = await linkAt('alice');
  const { transactionRequestId, initiated } = await initiate(dfsp.name, address);
  t.is(initiated.body.currentState, 'authorizationReceived');
  t.like((await approveGeneric(transactionRequestId)).body, {
    currentState: 'transactionStatusReceived',
    transactionStatus: { transactionState: 'COMPLETED' },
  });

  const unlinked = await pisp.app('DELETE', `/linking/consents/${consentId}`);
  t.is(unlinked.status, 200);
  t.is(unlinked.body.currentState, 'consentRevoked');
  t.like(unlinked.body.consent, { consentId, status: 'REVOKED' });
  t.truthy(Date.parse(unlinked.body.consent.revokedAt));
  const unlinking = await pisp.connector.client.workflow.getHandle(participantWorkflowIds.pispUnlinking(consentId)).describe();
  t.is(unlinking.typedSearchAttributes.get(State), 'consentRevoked');

  // The hub's Auth service holds the consent (CONSENT/{ID}) and revoked it; it told the DFSP, whose bank revoked it too.
  const atHub = await hub.worker.client.workflow.getHandle(workflowIds.consent(consentId)).query(consentQuery);
  t.is(atHub.state, 'REVOKED');
  await hub.fspiop('GET', `/participants/CONSENT/${consentId}`, { source: payee.name });
  const lookedUp = await answerOrError(payee, `/participants/CONSENT/${consentId}`);
  t.is(lookedUp.path, `/participants/CONSENT/${consentId}/error`, 'the switch no longer finds CONSENT/{ID}');
  const atBank = await pollUntil(
    () => dfsp.backends.thirdparty.consent(consentId),
    (consent) => consent?.status === 'REVOKED',
  );
  t.is(atBank?.status, 'REVOKED', 'the DFSP learnt of the revocation from the PATCH');
  t.is(atBank?.revokedAt, unlinked.body.consent.revokedAt);

  const after = await initiate(dfsp.name, address);
  t.is(after.initiated.status, 500);
  t.is(after.initiated.body.currentState, 'errored');
  t.is(after.initiated.body.errorInformation.errorCode, '7101', 'payment rule 3 (b): no valid consent covers the account');

  // Repeated, the DELETE now reaches the DFSP (the switch holds CONSENT/{ID} no more), which tells the same revocation.
  const again = await pisp.app('DELETE', `/linking/consents/${consentId}`);
  t.deepEqual(again.body, unlinked.body);
});

test('after unlinking the PISP signs nothing for the consent’s accounts: a GENERIC approval is refused 7213, as for an account never linked', async (t) => {
  // A DFSP that registers consents with the hub's Auth service but ignores what it is told of their revocation.
  const forgetful = await hub.provision();
  playThirdpartyDfsp(hub, forgetful);
  const address = `${forgetful.name}.${crypto.randomUUID().slice(0, 8)}`;
  const consentId = await linkThroughApp(forgetful.name, 'alice.example.org', address, () => '123456');

  const unlinked = await pisp.app('DELETE', `/linking/consents/${consentId}`);
  t.is(unlinked.body.currentState, 'consentRevoked');
  const deleted = await pollUntil(
    async () => forgetful.received.find(isTo('PATCH', `/consents/${consentId}`)),
    (patch) => patch?.body.status === 'REVOKED',
  );
  t.is(deleted?.headers['fspiop-source'], AUTH_SERVICE, 'the switch handed the DELETE to its Auth service, which told the DFSP');

  const { transactionRequestId, initiated } = await initiate(forgetful.name, address);
  t.is(initiated.body.currentState, 'authorizationReceived');
  const approved = await approveGeneric(transactionRequestId);
  t.is(approved.status, 500);
  t.is(approved.body.currentState, 'errored');
  t.is(approved.body.errorInformation.errorCode, '7213');
  t.false(forgetful.received.some((r) => r.path.startsWith('/thirdpartyRequests/authorizations/')));
});

test('a DFSP revoking a consent on its own (PATCH /consents/{ID} REVOKED) is recorded, and the PISP signs nothing with it after', async (t) => {
  const bank = await hub.provision();
  playThirdpartyDfsp(hub, bank);
  const address = `${bank.name}.${crypto.randomUUID().slice(0, 8)}`;
  const consentId = await linkThroughApp(bank.name, 'alice.example.org', address, () => '123456');

  const revokedAt = new Date().toISOString();
  const told = await hub.fspiop('PATCH', `/consents/${consentId}`, { source: bank.name, destination: pisp.name, body: { status: 'REVOKED', revokedAt } });
  t.true(told.status < 300);
  const recorded = await pollUntil(
    () =>
      pisp.connector.client.workflow
        .getHandle(participantWorkflowIds.pispUnlinking(consentId))
        .describe()
        .then((d) => d.typedSearchAttributes.get(State))
        .catch(() => undefined),
    (state) => state === 'consentRevoked',
  );
  t.is(recorded, 'consentRevoked');
  t.false(
    bank.received.some((r) => r.method === 'DELETE'),
    'the PISP sent nothing: the DFSP revoked it',
  );

  const { transactionRequestId, initiated } = await initiate(bank.name, address);
  t.is(initiated.body.currentState, 'authorizationReceived');
  const approved = await approveGeneric(transactionRequestId);
  t.is(approved.body.errorInformation?.errorCode, '7213');
});

test('a revocation from a participant that does not hold the consent is no revocation', async (t) => {
  const bank = await hub.provision();
  playThirdpartyDfsp(hub, bank);
  const address = `${bank.name}.${crypto.randomUUID().slice(0, 8)}`;
  const consentId = await linkThroughApp(bank.name, 'alice.example.org', address, () => '123456');
  const mallory = await hub.provision();
  const delivered = await fetch(`${pisp.connector.inboundUrl}/consents/${consentId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'fspiop-source': mallory.name, 'fspiop-destination': pisp.name, date: new Date().toUTCString() },
    body: JSON.stringify({ status: 'REVOKED', revokedAt: new Date().toISOString() }),
  });
  t.is(delivered.status, 200, 'taken, as the switch delivers it');
  const { transactionRequestId } = await initiate(bank.name, address);
  t.like((await approveGeneric(transactionRequestId)).body, {
    currentState: 'transactionStatusReceived',
    transactionStatus: { transactionState: 'COMPLETED' },
  });
});

test('a consent no linking of this PISP received needs its DFSP named: unknown to it 404, unknown to the DFSP errored with its 7213', async (t) => {
  const consentId = crypto.randomUUID();
  const unnamed = await pisp.app('DELETE', `/linking/consents/${consentId}`);
  t.is(unnamed.status, 404);
  t.is(unnamed.body.errorInformation.errorCode, '3200');

  const refused = await pisp.app('DELETE', `/linking/consents/${consentId}?toParticipantId=${dfsp.name}`);
  t.is(refused.status, 500);
  t.is(refused.body.currentState, 'errored');
  t.is(refused.body.errorInformation.errorCode, '7213');

  const malformed = await pisp.app('DELETE', '/linking/consents/not-a-uuid', { toParticipantId: dfsp.name });
  t.is(malformed.status, 400);
  t.regex(malformed.body.errorInformation.errorDescription, /consentId/);
});

test('the DFSP the app names must be the one the consent was linked with', async (t) => {
  const consentId = await linkAt('bob');
  const wrong = await pisp.app('DELETE', `/linking/consents/${consentId}`, { toParticipantId: payee.name });
  t.is(wrong.status, 400);
  t.regex(wrong.body.errorInformation.errorDescription, new RegExp(`granted by ${dfsp.name}`));
  const named = await pisp.app('DELETE', `/linking/consents/${consentId}`, { toParticipantId: dfsp.name });
  t.is(named.body.currentState, 'consentRevoked');
});
