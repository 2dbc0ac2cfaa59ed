import crypto from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { ConsentsPostRequestAUTH, ThirdpartyRequestsVerificationsPostRequest } from '../../../activities/shared/contracts/bodies';
import type { ConsentRegistration, ConsentRequest } from '../../../activities/shared/contracts/consentRegistration';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { requestHash } from '../../../activities/shared/contracts/requestHash';
import { State } from '../../../activities/shared/contracts/searchAttributes';
import { consentQuery, consentRequestSignal, type consent, type ConsentView } from '../../../workflows/hub/consent';
import type { linking } from '../../../workflows/hub/linking';
import type { thirdpartyTransaction } from '../../../workflows/hub/thirdpartyTransaction';
import { observedConversationQuery } from '../../../workflows/kit/observer';
import { yubikeyConsent, yubikeyVerification } from '../../helpers/mojaloopVectors';
import { observedAs } from '../../helpers/observedMessages';
import { pollUntil } from '../../helpers/polling';
import { gate, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// A consent held by the hub's Auth service (Document 1, "Linking" and "Payment flow": the Auth service registers the
// consent's credential, verifies signed challenges with it, and revokes it) with stub Auth service steps: each request
// is answered in the order it came, its outcome moves the consent, and the linking's or the transaction's observer
// learns the Auth service's answer. Serial: each test moves the one server clock the file shares.
const AUTH_SERVICE = 'centralauth';
const DFSP = 'dfspa';
const PISP = 'pispa';

const stubs = new StubActivities({
  answerConsentRegistration: async ({ body }: ConsentRegistration) => ({ verified: true, consentRequestId: body.consentRequestId }),
  answerVerification: async () => ({ verified: true }),
  answerConsentRevocation: async () => true,
});
const test = stubbedWorkflowTest('hub', stubs);

/** The DFSP's POST /consents to the Auth service, with the credential, for a consent of its own. */
function registrationOf(consentRequestId = crypto.randomUUID()): ConsentRegistration {
  const body: ConsentsPostRequestAUTH = { ...yubikeyConsent, consentId: crypto.randomUUID(), consentRequestId, status: 'ISSUED' };
  return { body, dfsp: DFSP, requestHash: requestHash(body) };
}

/** The consent's workflow, started as the gateway starts it on the DFSP's POST /consents. */
async function registering(t: ExecutionContext<StubbedWorkflows>, registration = registrationOf()) {
  const { consentId } = registration.body;
  const handle = await t.context.start<typeof consent>('consent', workflowIds.consent(consentId), { consentId, authService: AUTH_SERVICE, registration });
  return { consentId, registration, handle };
}

/** The DFSP's POST /thirdpartyRequests/verifications of a signed challenge, as the gateway signals it. */
const verification = (consentId: string, challenge = yubikeyVerification.challenge): ConsentRequest & { kind: 'verification' } => ({
  kind: 'verification',
  request: { ...yubikeyVerification, verificationRequestId: crypto.randomUUID(), consentId, challenge } as ThirdpartyRequestsVerificationsPostRequest,
  requester: DFSP,
});
const revocation = (requester = DFSP): ConsentRequest => ({ kind: 'revocation', requester });

/** The consent as its query answers, once it reads `done` (or as it reads after the wait). */
const viewOf = (handle: { query: (q: typeof consentQuery) => Promise<ConsentView> }, done: (view: ConsentView) => boolean) =>
  pollUntil(() => handle.query(consentQuery), done);

/** An observer of the test's own, as the gateway starts it on the conversation's first request. */
const observing = (t: ExecutionContext<StubbedWorkflows>, workflowType: 'linking' | 'thirdpartyTransaction', workflowId: string) =>
  t.context.start<typeof linking | typeof thirdpartyTransaction>(workflowType, workflowId);

test.serial(
  "a registration the Auth service verifies makes the consent VERIFIED and the linking's observer learns it; the DFSP's DELETE revokes it, and the consent ends REVOKED",
  async (t) => {
    const registration = registrationOf();
    const linkingId = workflowIds.linking(registration.body.consentRequestId!);
    await observing(t, 'linking', linkingId);
    const { consentId, handle } = await registering(t, registration);

    t.is((await viewOf(handle, (view) => view.state === 'VERIFIED')).state, 'VERIFIED');
    t.deepEqual(stubs.inputs('answerConsentRegistration'), [registration]);
    const linked = await observedAs(t.context.client, linkingId, 'CREDENTIAL_VERIFIED');
    t.is(linked.state, 'CREDENTIAL_VERIFIED');
    t.like(linked.messages, [
      { resource: 'consents', message: 'answer', id: consentId, from: AUTH_SERVICE, to: DFSP, facts: { consentId, state: 'VERIFIED' } },
    ]);
    t.is((await handle.describe()).typedSearchAttributes.get(State), 'VERIFIED', 'an operator finds it by its state');
    await t.context.client.workflow.getHandle(linkingId).terminate('the test is over');

    await handle.signal(consentRequestSignal, revocation());
    t.is(await handle.result(), 'REVOKED');
    t.deepEqual(stubs.inputs('answerConsentRevocation'), [{ consentId, requester: DFSP }]);
  },
);

test.serial("a registration the Auth service refuses ends the consent REJECTED, and the linking's observer learns it failed", async (t) => {
  stubs.script({ answerConsentRegistration: async ({ body }: ConsentRegistration) => ({ verified: false, consentRequestId: body.consentRequestId }) });
  const registration = registrationOf();
  const linkingId = workflowIds.linking(registration.body.consentRequestId!);
  const observer = await observing(t, 'linking', linkingId);
  const { consentId, handle } = await registering(t, registration);

  t.is(await handle.result(), 'REJECTED');
  t.deepEqual(await observer.result(), { state: 'FAILED', messages: 1 }, 'the error ends the linking');
  t.like((await observer.query(observedConversationQuery)).messages, [{ resource: 'consents', message: 'error', id: consentId, from: AUTH_SERVICE, to: DFSP }]);
  t.deepEqual(stubs.inputs('answerVerification'), []);
});

test.serial('a registration repeated once the consent is VERIFIED is answered again and changes nothing, the linking told once', async (t) => {
  const registration = registrationOf();
  const linkingId = workflowIds.linking(registration.body.consentRequestId!);
  await observing(t, 'linking', linkingId);
  const { handle } = await registering(t, registration);
  await viewOf(handle, (view) => view.state === 'VERIFIED');

  // A different body under the same consentId: the Auth service answers 3106, which refuses nothing it had verified.
  stubs.script({ answerConsentRegistration: async ({ body }: ConsentRegistration) => ({ verified: false, consentRequestId: body.consentRequestId }) });
  await handle.signal(consentRequestSignal, { kind: 'registration', registration: { ...registration, requestHash: 'another' } });
  // Requests are served in order: once a verification sent after it is served, the repeat has been.
  await handle.signal(consentRequestSignal, verification(registration.body.consentId));
  const view = await viewOf(handle, ({ served }) => served === 1);
  t.is(view.state, 'VERIFIED');
  t.is(stubs.inputs('answerConsentRegistration').length, 2, 'the repeat was answered');
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.is((await t.context.client.workflow.getHandle(linkingId).query(observedConversationQuery)).messages.length, 1);
  await t.context.client.workflow.getHandle(linkingId).terminate('the test is over');
  await handle.terminate('the test is over');
});

test.serial("verifications are served one at a time in the order they came, each transaction's observer told VERIFIED or VERIFICATION_FAILED", async (t) => {
  const [verifiedTransaction, failedTransaction] = [crypto.randomUUID(), crypto.randomUUID()];
  const answering = gate();
  const steps: string[] = [];
  stubs.script({
    answerVerification: async ({ request }: { request: ThirdpartyRequestsVerificationsPostRequest }) => {
      const verified = request.challenge === yubikeyVerification.challenge;
      steps.push(`${verified ? 'first' : 'second'} begun`);
      if (verified) await answering.held;
      steps.push(`${verified ? 'first' : 'second'} answered`);
      return { verified, transactionRequestId: verified ? verifiedTransaction : failedTransaction };
    },
  });
  for (const id of [verifiedTransaction, failedTransaction]) await observing(t, 'thirdpartyTransaction', workflowIds.thirdpartyTransaction(id));
  const { consentId, handle } = await registering(t);
  await viewOf(handle, (view) => view.state === 'VERIFIED');

  const first = verification(consentId);
  const second = verification(consentId, 'a challenge the key did not sign');
  await handle.signal(consentRequestSignal, first);
  await stubs.next('answerVerification');
  await handle.signal(consentRequestSignal, second);
  // Real time for the second to begin, were the consent to let it begin out of turn.
  await new Promise((resolve) => setTimeout(resolve, 500));
  answering.release();

  const view = await viewOf(handle, ({ served }) => served === 2);
  t.deepEqual(steps, ['first begun', 'first answered', 'second begun', 'second answered'], 'the second waited while the first was answered');
  t.deepEqual(view.verifications, [
    { verificationRequestId: first.request.verificationRequestId, requester: DFSP, verified: true },
    { verificationRequestId: second.request.verificationRequestId, requester: DFSP, verified: false },
  ]);
  t.deepEqual(stubs.inputs('answerVerification'), [
    { request: first.request, requester: DFSP },
    { request: second.request, requester: DFSP },
  ]);
  const told = await observedAs(t.context.client, workflowIds.thirdpartyTransaction(verifiedTransaction), 'VERIFIED');
  t.like(told.messages, [
    { resource: 'thirdpartyRequests/verifications', message: 'answer', id: first.request.verificationRequestId, from: AUTH_SERVICE, to: DFSP },
  ]);
  const refused = await observedAs(t.context.client, workflowIds.thirdpartyTransaction(failedTransaction), 'VERIFICATION_FAILED');
  t.like(refused.messages, [{ resource: 'thirdpartyRequests/verifications', message: 'error', id: second.request.verificationRequestId }]);
  for (const id of [verifiedTransaction, failedTransaction])
    await t.context.client.workflow.getHandle(workflowIds.thirdpartyTransaction(id)).terminate('the test is over');
  await handle.terminate('the test is over');
});

test.serial(
  'a revocation and a verification that come while the registration is answered are served after it, in order: the late verification is still answered, then the consent ends REVOKED',
  async (t) => {
    const answering = gate();
    const steps: string[] = [];
    stubs.script({
      answerConsentRegistration: async () => {
        await answering.held;
        steps.push('registration answered');
        return { verified: true };
      },
      answerConsentRevocation: async () => {
        steps.push('revocation begun');
        return true;
      },
      answerVerification: async () => {
        steps.push('verification begun');
        return { verified: false };
      },
    });
    const { consentId, handle } = await registering(t);
    await stubs.next('answerConsentRegistration');
    const late = verification(consentId);
    await handle.signal(consentRequestSignal, revocation(PISP));
    await handle.signal(consentRequestSignal, late);
    // Real time for the others to begin, were the consent to let them begin out of turn.
    await new Promise((resolve) => setTimeout(resolve, 500));
    answering.release();

    t.is(await handle.result(), 'REVOKED');
    t.deepEqual(steps, ['registration answered', 'revocation begun', 'verification begun']);
    t.deepEqual(stubs.inputs('answerConsentRevocation'), [{ consentId, requester: PISP }]);
    t.deepEqual(stubs.inputs('answerVerification'), [{ request: late.request, requester: DFSP }], 'the Auth service refuses it as revoked');
  },
);

test.serial('a revocation the Auth service refuses (not from the consent’s DFSP or PISP) leaves the consent VERIFIED and serving', async (t) => {
  stubs.script({ answerConsentRevocation: async ({ requester }: { requester: string }) => requester !== 'mallory' });
  const { consentId, handle } = await registering(t);
  await viewOf(handle, (view) => view.state === 'VERIFIED');
  await handle.signal(consentRequestSignal, revocation('mallory'));
  await stubs.next('answerConsentRevocation');
  await handle.signal(consentRequestSignal, verification(consentId));
  t.like(await viewOf(handle, ({ served }) => served === 1), { state: 'VERIFIED', served: 1 });

  await handle.signal(consentRequestSignal, revocation());
  t.is(await handle.result(), 'REVOKED');
  t.deepEqual(
    stubs.inputs('answerConsentRevocation').map(({ requester }) => requester),
    ['mallory', DFSP],
  );
});

test.serial('a verification the Auth service cannot answer after every retry goes unanswered; the consent serves the requests after it', async (t) => {
  stubs.script({
    answerVerification: async () => {
      throw new Error('connect ECONNREFUSED');
    },
  });
  const { consentId, handle } = await registering(t);
  await viewOf(handle, (view) => view.state === 'VERIFIED');
  await handle.signal(consentRequestSignal, verification(consentId));
  await handle.signal(consentRequestSignal, revocation());
  // Awaiting the result lets the server skip the retries' backoff.
  t.is(await handle.result(), 'REVOKED');
  t.is(stubs.inputs('answerVerification').length, 9, 'a first attempt in the worker, then eight with backoff');
  t.like(await handle.query(consentQuery), { state: 'REVOKED', verifications: [], served: 0 });
});

test.serial('after 500 verifications a run continues as new, VERIFIED and keeping its count, and the next run serves on', async (t) => {
  const { consentId, handle } = await registering(t);
  await viewOf(handle, (view) => view.state === 'VERIFIED');
  const { runId: firstRun } = await handle.describe();
  for (let sent = 0; sent < 500; sent += 50) {
    await Promise.all(Array.from({ length: 50 }, () => handle.signal(consentRequestSignal, verification(consentId))));
  }
  const latest = t.context.client.workflow.getHandle(handle.workflowId);
  const continued = await pollUntil(
    () => latest.describe(),
    (described) => described.runId !== firstRun,
    30_000,
  );
  t.not(continued.runId, firstRun, 'a new run');
  t.like(await latest.query(consentQuery), { state: 'VERIFIED', served: 500, verifications: [] });
  t.is(stubs.inputs('answerConsentRegistration').length, 1, 'the consent is not registered again');

  await latest.signal(consentRequestSignal, verification(consentId));
  t.like(await viewOf(latest, ({ served }) => served === 501), { served: 501 });
  await latest.signal(consentRequestSignal, revocation());
  t.is(await latest.result(), 'REVOKED');
});
