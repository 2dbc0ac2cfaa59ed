import crypto from 'node:crypto';
import type { OutgoingMessage } from '../../../activities/shared/contracts/peers';
import type { ConsentRequestRepeatInput, dfspConsentRequestRepeat } from '../../../workflows/dfsp/dfspConsentRequestRepeat';
import { thirdpartyWorkflowIds } from '../../../workflows/dfsp/thirdpartyContracts';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspConsentRequestRepeat workflow on the time-skipping server: a POST /consentRequests whose
// consentRequestId names a linking that has ended (Document 1, "Linking"; identifiers are the requester's UUIDs), started
// as its inbound gateway starts it with the linking's state, and a stub sendToSwitch. It has no timer: it answers at
// once. The linking is never run again; the requester is told how it ended, or that the ID is used.
const PISP = 'pisp';

const stubs = new StubActivities({
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

/** The repeated POST from `requester`, of a linking in `view`, answered. */
async function repeated(t: { context: StubbedWorkflows }, input: Omit<ConsentRequestRepeatInput, 'consentRequestId'>) {
  const consentRequestId = crypto.randomUUID();
  const handle = await t.context.start<typeof dfspConsentRequestRepeat>(
    'dfspConsentRequestRepeat',
    thirdpartyWorkflowIds.consentRequestRepeat(consentRequestId, crypto.randomUUID()),
    { consentRequestId, ...input },
  );
  return { consentRequestId, outcome: await handle.result(), sent: stubs.inputs('sendToSwitch') as OutgoingMessage[] };
}

const failure = { errorCode: '7213', errorDescription: 'Consent is invalid' };

test.serial("the linking's own PISP repeating it after it LINKED is told PATCH /consents/{ID} VERIFIED again, and no second consent is made", async (t) => {
  const consentId = crypto.randomUUID();
  const { outcome, sent } = await repeated(t, { requester: PISP, view: { state: 'LINKED', pisp: PISP, consentId } });
  t.is(outcome, 'LINKED');
  t.deepEqual(sent, [{ to: PISP, resource: 'consents', name: 'patch', id: consentId, body: { credential: { status: 'VERIFIED' } } }]);
});

test.serial('a linking that FAILED after the consent was granted is told its error again on PUT /consents/{ID}/error', async (t) => {
  const consentId = crypto.randomUUID();
  const { outcome, sent } = await repeated(t, { requester: PISP, view: { state: 'FAILED', pisp: PISP, consentId, errorInformation: failure } });
  t.is(outcome, 'FAILED');
  t.deepEqual(sent, [{ to: PISP, resource: 'consents', name: 'error', id: consentId, body: { errorInformation: failure } }]);
});

test.serial('a linking that FAILED before a consent existed is told its error again on PUT /consentRequests/{ID}/error', async (t) => {
  const otp = { errorCode: '7205', errorDescription: 'OTP failed validation' };
  const { consentRequestId, outcome, sent } = await repeated(t, { requester: PISP, view: { state: 'FAILED', pisp: PISP, errorInformation: otp } });
  t.is(outcome, 'FAILED');
  t.deepEqual(sent, [{ to: PISP, resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: otp } }]);
});

test.serial('another PISP reusing the ID learns nothing of the linking: PUT /consentRequests/{ID}/error 3106', async (t) => {
  const { consentRequestId, outcome, sent } = await repeated(t, {
    requester: 'otherpisp',
    view: { state: 'LINKED', pisp: PISP, consentId: crypto.randomUUID() },
  });
  t.is(outcome, 'used');
  t.like(sent, [{ to: 'otherpisp', resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: { errorCode: '3106' } } }]);
  t.is(sent.length, 1);
});

test.serial('a linking whose state cannot be read is answered 3106: the ID is used', async (t) => {
  const { consentRequestId, outcome, sent } = await repeated(t, { requester: PISP });
  t.is(outcome, 'used');
  t.like(sent, [{ to: PISP, resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: { errorCode: '3106' } } }]);
});
