import crypto from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { ConsentId, State } from '../../../activities/shared/contracts/searchAttributes';
import type { linking } from '../../../workflows/hub/linking';
import { observedConversationQuery, observedMessageSignal } from '../../../workflows/kit/observer';
import { observedAs, observedMessage, startObserving } from '../../helpers/observedMessages';
import { pollUntil } from '../../helpers/polling';
import { DAY, HOUR, MINUTE, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The observer of a linking (Document 1, "Linking") on the time-skipping server: the messages the switch passes reach
// it as the gateway signals them, and move it phase by phase to LINKED, FAILED or REVOKED; a linking the PISP has not
// completed within a day is marked EXPIRED. It calls no activity. Serial: each test moves the one server clock the
// file shares.
const PISP = 'pispa';
const DFSP = 'dfspa';
const AUTH_SERVICE = 'centralauth';

const test = stubbedWorkflowTest('hub', new StubActivities({}));

/** The PISP's POST /consentRequests, which starts the linking's observer. */
async function requested(t: ExecutionContext<StubbedWorkflows>) {
  const consentRequestId = crypto.randomUUID();
  const workflowId = workflowIds.linking(consentRequestId);
  await startObserving(t.context, 'linking', workflowId, observedMessage('consentRequests', 'request', consentRequestId, PISP, DFSP));
  return { consentRequestId, workflowId, handle: t.context.client.workflow.getHandle<typeof linking>(workflowId) };
}

/** The linking's messages after the consent request, in the document's order, each with the phase it leads to. */
function phases(consentRequestId: string, consentId: string) {
  return [
    { phase: 'AUTHENTICATING', message: observedMessage('consentRequests', 'answer', consentRequestId, DFSP, PISP) },
    { phase: 'AUTHENTICATED', message: observedMessage('consentRequests', 'patch', consentRequestId, PISP, DFSP) },
    { phase: 'CONSENT_GRANTED', message: observedMessage('consents', 'request', consentId, DFSP, PISP, { consentId }) },
    { phase: 'CREDENTIAL_SIGNED', message: observedMessage('consents', 'answer', consentId, PISP, DFSP, { state: 'PENDING' }) },
    { phase: 'CREDENTIAL_REGISTERING', message: observedMessage('consents', 'request', consentId, DFSP, AUTH_SERVICE, { consentId, state: 'PENDING' }) },
    { phase: 'CREDENTIAL_VERIFIED', message: observedMessage('consents', 'answer', consentId, AUTH_SERVICE, DFSP, { consentId, state: 'VERIFIED' }) },
  ];
}

test.serial("the linking's messages move it phase by phase to the DFSP's PATCH, which ends it LINKED; an operator finds it by its consent", async (t) => {
  const { consentRequestId, workflowId, handle } = await requested(t);
  t.is((await observedAs(t.context.client, workflowId, 'CONSENT_REQUESTED')).state, 'CONSENT_REQUESTED');
  const consentId = crypto.randomUUID();
  for (const { phase, message } of phases(consentRequestId, consentId)) {
    await handle.signal(observedMessageSignal, message);
    t.is((await observedAs(t.context.client, workflowId, phase)).state, phase, `${message.resource} ${message.message} from ${message.from}`);
  }
  await handle.signal(observedMessageSignal, observedMessage('consents', 'patch', consentId, DFSP, PISP, { state: 'VERIFIED' }));
  t.deepEqual(await handle.result(), { state: 'LINKED', messages: 8 });
  const attributes = (await handle.describe()).typedSearchAttributes;
  t.deepEqual([attributes.get(ConsentId), attributes.get(State)], [consentId, 'LINKED']);
});

test.serial("the DFSP's error on the consent request ends the linking FAILED", async (t) => {
  const { consentRequestId, handle } = await requested(t);
  await handle.signal(observedMessageSignal, observedMessage('consentRequests', 'error', consentRequestId, DFSP, PISP, { errorCode: '7200' }));
  t.deepEqual(await handle.result(), { state: 'FAILED', messages: 2 });
});

test.serial('a consent revoked before the linking completes ends it REVOKED', async (t) => {
  const { consentRequestId, handle } = await requested(t);
  const consentId = crypto.randomUUID();
  for (const { message } of phases(consentRequestId, consentId).slice(0, 3)) await handle.signal(observedMessageSignal, message);
  await handle.signal(observedMessageSignal, observedMessage('consents', 'patch', consentId, AUTH_SERVICE, PISP, { state: 'REVOKED' }));
  t.deepEqual(await handle.result(), { state: 'REVOKED', messages: 5 });
});

test.serial("the Auth service's answer reaching the observer before the registration it answers leaves the linking CREDENTIAL_VERIFIED", async (t) => {
  const { consentRequestId, handle } = await requested(t);
  const all = phases(consentRequestId, crypto.randomUUID());
  const [registering, verified] = all.slice(4);
  for (const { message } of [...all.slice(0, 4), verified, registering]) await handle.signal(observedMessageSignal, message);
  const seen = await pollUntil(
    () => handle.query(observedConversationQuery),
    ({ messages }) => messages.length === 7,
  );
  t.is(seen.messages.length, 7, 'every message was seen');
  t.is(seen.state, 'CREDENTIAL_VERIFIED', 'the registration seen after its answer moves nothing back');
  await handle.terminate('the test is over');
});

test.serial('a linking the PISP has not completed within a day is marked EXPIRED then, a day from its start', async (t) => {
  const { consentRequestId, workflowId, handle } = await requested(t);
  for (const { message } of phases(consentRequestId, crypto.randomUUID()).slice(0, 2)) await handle.signal(observedMessageSignal, message);
  await observedAs(t.context.client, workflowId, 'AUTHENTICATED');
  await t.context.environment.sleep(DAY - HOUR);
  t.is((await handle.describe()).status.name, 'RUNNING', 'an hour before the day is out it still waits');
  await t.context.environment.sleep(HOUR - MINUTE);
  t.is((await handle.describe()).status.name, 'RUNNING', 'and a minute before');
  t.deepEqual(await handle.result(), { state: 'EXPIRED', messages: 3 });
  t.is((await handle.describe()).typedSearchAttributes.get(State), 'EXPIRED');
});
