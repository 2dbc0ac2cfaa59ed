import test from 'ava';
import crypto from 'node:crypto';
import type { thirdparty } from '@mojaloop/api-snippets';
import { consentChallenge } from '../../activities/hub/auth/challenge';
import { workflowIds } from '../../api/contracts/conversations';
import type { FollowedConversation } from '../../api/contracts/followers';
import { followedConversationQuery } from '../../workflows/kit/follower';
import { quoteBody } from '../helpers/fspiopBodies';
import { GenericSigner } from '../helpers/softAuthenticator';
import { withSwitch } from '../helpers/switchHarness';

const fixture = withSwitch(test);
const AUTH = 'centralauth';

/** The follower's view once it has reached `state` (it follows behind the routing, so it may need a moment). */
async function followed(workflowId: string, state: string): Promise<FollowedConversation> {
  const handle = fixture.hub.worker.client.workflow.getHandle(workflowId);
  for (let tries = 0; ; tries++) {
    const view = await handle.query(followedConversationQuery);
    if (view.state === state || tries >= 100) return view;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function accepted(response: { status: number; body: unknown }): void {
  if (response.status !== 202 && response.status !== 200) throw new Error(`refused: ${response.status} ${JSON.stringify(response.body)}`);
}

test('a linking is followed from the consent request to LINKED, its consent found by ConsentId', async (t) => {
  const { fspiop } = fixture.hub;
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const consentRequestId = crypto.randomUUID();
  const consentId = crypto.randomUUID();
  const scopes: thirdparty.Schemas.Scope[] = [{ address: `${dfsp.name}.account`, actions: ['ACCOUNTS_TRANSFER'] }];
  const signer = new GenericSigner();
  const send = async (method: string, path: string, from: string, to: string, body?: object) =>
    accepted(await fspiop(method, path, { source: from, destination: to, body }));

  await send('POST', '/consentRequests', pisp.name, dfsp.name, {
    consentRequestId,
    userId: 'user@example.org',
    scopes,
    authChannels: ['OTP'],
    callbackUri: 'https://pisp.example.org',
  });
  await send('PUT', `/consentRequests/${consentRequestId}`, dfsp.name, pisp.name, { scopes, authChannels: ['OTP'] });
  await send('PATCH', `/consentRequests/${consentRequestId}`, pisp.name, dfsp.name, { authToken: '123456' });
  await send('POST', '/consents', dfsp.name, pisp.name, { consentId, consentRequestId, scopes, status: 'ISSUED' });
  const credential = { credentialType: 'GENERIC', status: 'PENDING', genericPayload: signer.register(consentChallenge({ consentId, scopes })) };
  await send('PUT', `/consents/${consentId}`, pisp.name, dfsp.name, { scopes, credential });
  await send('POST', '/consents', dfsp.name, AUTH, { consentId, consentRequestId, scopes, credential, status: 'ISSUED' });
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}` && r.body.credential.status === 'VERIFIED');
  // The Auth service's answer is a step of the linking too: its follower learns it from the consent's workflow.
  t.is((await followed(workflowIds.linking(consentRequestId), 'CREDENTIAL_VERIFIED')).state, 'CREDENTIAL_VERIFIED');
  await send('PATCH', `/consents/${consentId}`, dfsp.name, pisp.name, { credential: { status: 'VERIFIED' } });

  const view = await followed(workflowIds.linking(consentRequestId), 'LINKED');
  t.is(view.state, 'LINKED');
  // Every message routed, and the Auth service's answer, in the linking's one history.
  t.is(view.messages.length, 8);
  t.true(view.messages.some((m) => m.from === AUTH && m.facts.state === 'VERIFIED'));
  const found = fixture.hub.worker.client.workflow.list({ query: `WorkflowId = '${workflowIds.linking(consentRequestId)}' AND ConsentId = '${consentId}'` });
  const listed = [];
  for await (const execution of found) listed.push(execution.workflowId);
  t.deepEqual(listed, [workflowIds.linking(consentRequestId)]);
});

/** A PISP's third-party transaction request from a linked account to a payee at another DFSP. */
function transactionRequest(pisp: string, dfsp: string, payee: string, expiresInMs: number) {
  return {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: payee } },
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: `${dfsp}.account`, fspId: dfsp },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: new Date(Date.now() + expiresInMs).toISOString(),
  };
}

test('a third-party transaction is followed through RECEIVED, its quote, authorization and verification, to COMPLETED', async (t) => {
  const { fspiop } = fixture.hub;
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const payee = fixture.payee;
  const send = async (method: string, path: string, from: string, to: string, body?: object) =>
    accepted(await fspiop(method, path, { source: from, destination: to, body }));
  const request = transactionRequest(pisp.name, dfsp.name, payee, 60_000);
  const id = request.transactionRequestId;

  await send('POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
  await send('PUT', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, {
    transactionId: crypto.randomUUID(),
    transactionRequestState: 'RECEIVED',
  });
  await send('POST', '/quotes', dfsp.name, payee, { ...quoteBody(dfsp.name, payee, '10'), transactionRequestId: id });
  const authorizationRequestId = crypto.randomUUID();
  const challenge = crypto.randomBytes(32).toString('base64');
  const money = { amount: '10', currency: 'USD' };
  await send('POST', '/thirdpartyRequests/authorizations', dfsp.name, pisp.name, {
    authorizationRequestId,
    transactionRequestId: id,
    challenge,
    transferAmount: money,
    payeeReceiveAmount: money,
    fees: { amount: '0', currency: 'USD' },
    payer: request.payer,
    payee: request.payee,
    transactionType: request.transactionType,
    expiration: request.expiration,
  });
  const signer = new GenericSigner();
  await send('PUT', `/thirdpartyRequests/authorizations/${authorizationRequestId}`, pisp.name, dfsp.name, {
    responseType: 'ACCEPTED',
    signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) },
  });
  t.is((await followed(workflowIds.thirdpartyTransaction(id), 'AUTHORIZED')).state, 'AUTHORIZED');
  // The DFSP has the hub's Auth service verify the signed challenge with the consent's credential.
  const consentId = crypto.randomUUID();
  const scopes: thirdparty.Schemas.Scope[] = [{ address: `${dfsp.name}.account`, actions: ['ACCOUNTS_TRANSFER'] }];
  const credential = { credentialType: 'GENERIC', status: 'PENDING', genericPayload: signer.register(consentChallenge({ consentId, scopes })) };
  await send('POST', '/consents', dfsp.name, AUTH, { consentId, scopes, credential, status: 'ISSUED' });
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}`);
  const verificationRequestId = crypto.randomUUID();
  await send('POST', '/thirdpartyRequests/verifications', dfsp.name, AUTH, {
    verificationRequestId,
    challenge,
    consentId,
    signedPayloadType: 'GENERIC',
    genericSignedPayload: signer.sign(challenge),
  });
  t.is((await followed(workflowIds.thirdpartyTransaction(id), 'VERIFIED')).state, 'VERIFIED');
  await send('PATCH', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });

  const view = await followed(workflowIds.thirdpartyTransaction(id), 'COMPLETED');
  t.is(view.state, 'COMPLETED');
  t.deepEqual(
    view.messages.map((m) => `${m.resource} ${m.message}`),
    [
      'thirdpartyRequests/transactions request',
      'thirdpartyRequests/transactions answer',
      'quotes request',
      'thirdpartyRequests/authorizations request',
      'thirdpartyRequests/authorizations answer',
      'thirdpartyRequests/verifications request',
      'thirdpartyRequests/verifications answer',
      'thirdpartyRequests/transactions patch',
    ],
  );
});

test("a third-party transaction not over by its request's expiration is marked EXPIRED", async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const request = transactionRequest(pisp.name, dfsp.name, fixture.payee, 1_500);
  accepted(await fixture.hub.fspiop('POST', '/thirdpartyRequests/transactions', { source: pisp.name, destination: dfsp.name, body: request }));
  const view = await followed(workflowIds.thirdpartyTransaction(request.transactionRequestId), 'EXPIRED');
  t.is(view.state, 'EXPIRED');
  // The request itself was routed all the same: the follower never holds up the routing.
  t.truthy(await dfsp.waitFor((r) => r.method === 'POST' && r.body?.transactionRequestId === request.transactionRequestId));
});
