import test from 'ava';
import crypto from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/common';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import type { ObservedConversation } from '../../activities/shared/contracts/observedConversations';
import { observedConversationQuery, MAX_OBSERVING_MS } from '../../workflows/kit/observer';
import { GenericSigner } from '../helpers/softAuthenticator';
import { pollUntil } from '../helpers/polling';
import { fspiopAt, sendAccepted, serveGateway, withSwitch } from '../helpers/switchHarness';
import { openTestHub } from '../helpers/worker';
import {
  AUTH_SERVICE,
  authorizationRequest,
  finishLinking,
  observerReaching,
  genericCredential,
  linkThroughSwitch,
  payFromLinkedAccount,
  thirdpartyTransactionRequest,
} from '../helpers/thirdpartyFlows';

const fixture = withSwitch(test);

const observed = (workflowId: string, state: string) => observerReaching(fixture.hub.worker.client, workflowId, state);

test('a linking is observed from the consent request to LINKED, its consent found by ConsentId', async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const signer = new GenericSigner();
  const { consentRequestId, consentId } = await linkThroughSwitch(fixture.hub, dfsp, pisp, (id, scopes) => genericCredential(signer, id, scopes));
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}` && r.headers['fspiop-source'] === AUTH_SERVICE);
  // The Auth service's answer is a step of the linking too: its observer learns it from the consent's workflow.
  t.is((await observed(workflowIds.linking(consentRequestId), 'CREDENTIAL_VERIFIED')).state, 'CREDENTIAL_VERIFIED');
  await finishLinking(fixture.hub, dfsp, pisp, consentId);

  const view = await observed(workflowIds.linking(consentRequestId), 'LINKED');
  t.is(view.state, 'LINKED');
  // Every message routed, and the Auth service's answer, in the linking's one history.
  t.is(view.messages.length, 8);
  t.true(view.messages.some((m) => m.from === AUTH_SERVICE && m.facts.state === 'VERIFIED'));
  const found = fixture.hub.worker.client.workflow.list({ query: `WorkflowId = '${workflowIds.linking(consentRequestId)}' AND ConsentId = '${consentId}'` });
  const listed = [];
  for await (const execution of found) listed.push(execution.workflowId);
  t.deepEqual(listed, [workflowIds.linking(consentRequestId)]);
});

test('a third-party transaction is observed through RECEIVED, its quote, authorization and verification, to COMPLETED', async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  // Each answer the observer learns from elsewhere (the Auth service) is awaited before the next message is sent.
  const id = await payFromLinkedAccount(fixture.hub, { pisp, dfsp, payee: fixture.payee }, async (transactionRequestId, state) => {
    t.is((await observed(workflowIds.thirdpartyTransaction(transactionRequestId), state)).state, state);
  });
  const view = await observed(workflowIds.thirdpartyTransaction(id), 'COMPLETED');
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
  const request = thirdpartyTransactionRequest(dfsp.name, fixture.payee, 1_500);
  await sendAccepted(fixture.hub, 'POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
  const view = await observed(workflowIds.thirdpartyTransaction(request.transactionRequestId), 'EXPIRED');
  t.is(view.state, 'EXPIRED');
  // The request itself was routed all the same: the observer never holds up the routing.
  t.truthy(await dfsp.waitFor((r) => r.method === 'POST' && r.body?.transactionRequestId === request.transactionRequestId));
});

test('an observer that cannot be found (its database out of reach) is only logged: the message is acknowledged and routed', async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  // A gateway whose observer lookups fail: its services' database is closed. The participants' directory, their
  // signature settings and the worker that routes keep the hub's own.
  const down = await openTestHub(fixture.hub.services.participants.hubName);
  await down.close();
  const gateway = await serveGateway({
    ...fixture.hub.hub,
    services: { ...down.services, signatures: fixture.hub.services.signatures },
    config: { taskQueue: fixture.hub.worker.taskQueue },
    temporal: fixture.hub.worker.client,
  });
  t.teardown(() => gateway.close());

  // The POST writes the correlations of the transaction's messages, the PUT reads them: both fail here.
  const authorization = authorizationRequest(thirdpartyTransactionRequest(dfsp.name, fixture.payee, 60_000), crypto.randomBytes(32).toString('base64'));
  const posted = await fspiopAt(gateway.url, 'POST', '/thirdpartyRequests/authorizations', { source: dfsp.name, destination: pisp.name, body: authorization });
  t.is(posted.status, 202, JSON.stringify(posted.body));
  const path = `/thirdpartyRequests/authorizations/${authorization.authorizationRequestId}`;
  const answered = await fspiopAt(gateway.url, 'PUT', path, { source: pisp.name, destination: dfsp.name, body: { responseType: 'REJECTED' } });
  t.is(answered.status, 200, JSON.stringify(answered.body));

  t.truthy(await pisp.waitFor((r) => r.method === 'POST' && r.body?.authorizationRequestId === authorization.authorizationRequestId));
  t.truthy(await dfsp.waitFor((r) => r.method === 'PUT' && r.path === path));
});

test("only a conversation's first request starts its observer: other messages naming an unknown one start none", async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const [consentRequestId, granted, transactionRequestId, authorized] = [1, 2, 3, 4].map(() => crypto.randomUUID());
  const scopes = [{ address: `${dfsp.name}.account`, actions: ['ACCOUNTS_TRANSFER'] }];
  await sendAccepted(fixture.hub, 'PUT', `/consentRequests/${consentRequestId}`, dfsp.name, pisp.name, { scopes, authChannels: ['OTP'] });
  await sendAccepted(fixture.hub, 'PATCH', `/consentRequests/${consentRequestId}`, pisp.name, dfsp.name, { authToken: '123456' });
  // A grant names its consent request, an authorization its transaction request: neither opens the conversation.
  const consentId = crypto.randomUUID();
  await sendAccepted(fixture.hub, 'POST', '/consents', dfsp.name, pisp.name, { consentId, consentRequestId: granted, scopes, status: 'ISSUED' });
  await sendAccepted(fixture.hub, 'GET', `/thirdpartyRequests/transactions/${transactionRequestId}`, pisp.name, dfsp.name);
  await sendAccepted(fixture.hub, 'PUT', `/thirdpartyRequests/transactions/${transactionRequestId}`, dfsp.name, pisp.name, {
    transactionId: crypto.randomUUID(),
    transactionRequestState: 'RECEIVED',
  });
  const request = { ...thirdpartyTransactionRequest(dfsp.name, fixture.payee, 60_000), transactionRequestId: authorized };
  await sendAccepted(fixture.hub, 'POST', '/thirdpartyRequests/authorizations', dfsp.name, pisp.name, authorizationRequest(request, 'challenge'));

  // The acknowledgement waits for the observer to be told: had any been started, it would exist by now.
  const workflowIdsNotStarted = [
    workflowIds.linking(consentRequestId),
    workflowIds.linking(granted),
    workflowIds.thirdpartyTransaction(transactionRequestId),
    workflowIds.thirdpartyTransaction(authorized),
  ];
  for (const workflowId of workflowIdsNotStarted) {
    await t.throwsAsync(fixture.hub.worker.client.workflow.getHandle(workflowId).describe(), { instanceOf: WorkflowNotFoundError }, workflowId);
  }
  // All were routed all the same.
  t.truthy(await pisp.waitFor((r) => r.method === 'POST' && r.body?.authorizationRequestId !== undefined && r.body.transactionRequestId === authorized));
});

test("a transaction request's observer keeps to a day whatever expiration the PISP names, and keeps only the first of its GETs", async (t) => {
  const dfsp = await fixture.hub.provision();
  const pisp = await fixture.hub.provision();
  const request = { ...thirdpartyTransactionRequest(dfsp.name, fixture.payee, 60_000), expiration: '9999-12-31T23:59:59.999Z' };
  const sentAt = Date.now();
  await sendAccepted(fixture.hub, 'POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
  for (let poll = 0; poll < 5; poll++) {
    await sendAccepted(fixture.hub, 'GET', `/thirdpartyRequests/transactions/${request.transactionRequestId}`, pisp.name, dfsp.name);
  }
  const view = await viewOnce(workflowIds.thirdpartyTransaction(request.transactionRequestId), (v) => v.repeatedGets === 4);
  const deadline = Date.parse(view.deadline);
  t.true(deadline <= Date.now() + MAX_OBSERVING_MS, `deadline ${view.deadline}`);
  t.true(deadline >= sentAt + MAX_OBSERVING_MS - 60_000, `deadline ${view.deadline}`);
  t.deepEqual(
    view.messages.map((m) => m.message),
    ['request', 'get'],
  );
  t.is(view.repeatedGets, 4);
});

/** The observer's view once `ready` holds (signals are taken in their own workflow tasks), or after five seconds. */
function viewOnce(workflowId: string, ready: (view: ObservedConversation) => boolean): Promise<ObservedConversation> {
  const handle = fixture.hub.worker.client.workflow.getHandle(workflowId);
  return pollUntil(() => handle.query(observedConversationQuery), ready, 5_000);
}
