import crypto from 'node:crypto';
import { participantWorkflowIds, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import type { pispUnlinking, PispUnlinkingInput } from '../../../workflows/pisp/pispUnlinking';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The PISP connector's pispUnlinking workflow (Document 1, linking rules 5 and 6, and PATCH /consents/{ID} "a
// DFSP-initiated change such as unlinking") on the time-skipping server, started as its outbound gateway starts it for
// the app's DELETE /linking/consents/{consentId} (or its inbound gateway for a revocation nobody asked for), with a stub
// sendToSwitch; the answer to the DELETE reaches the exchange named after the consent as a signal. REQUEST_TIMEOUT_MS
// is a minute. Serial: each test moves the one server clock the file shares.
const DFSP = 'dfspa';
const AUTH_SERVICE = 'centralauth';
const REVOKED_AT = '2026-11-28T12:00:00.000Z';

const stubs = new StubActivities({
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('pisp', stubs);

const message = (name: PeerMessage['name'], body: unknown, source: string, consentId: string): PeerMessage => ({
  resource: 'consents',
  name,
  id: consentId,
  source,
  fromSwitch: false,
  headers: { 'fspiop-source': source, 'fspiop-destination': 'pisp' },
  body,
});

/** The app's unlinking of a consent dfspa granted, started as the outbound gateway starts it. */
async function unlinking(t: { context: StubbedWorkflows }, input: Partial<PispUnlinkingInput> = {}) {
  const consentId = crypto.randomUUID();
  const handle = await t.context.start<typeof pispUnlinking>('pispUnlinking', participantWorkflowIds.pispUnlinking(consentId), {
    consentId,
    dfsp: DFSP,
    authService: AUTH_SERVICE,
    requestTimeoutMs: MINUTE,
    ...input,
  });
  /** The answer to the DELETE, as the inbound gateway hands it to the exchange named after the consent, once the DELETE has gone. */
  const answer = async (name: PeerMessage['name'], body: unknown, source = DFSP) => {
    await stubs.next('sendToSwitch', (m) => m.name === 'delete');
    await t.context.client.workflow
      .getHandle(participantWorkflowIds.exchange('consents', consentId))
      .signal(peerMessageSignal, message(name, body, source, consentId));
  };
  return { consentId, handle, answer };
}

test.serial("the user unlinks: DELETE /consents/{ID} goes to the consent's DFSP, and its PATCH REVOKED answers the app consentRevoked", async (t) => {
  const { consentId, handle, answer } = await unlinking(t);
  await answer('patch', { status: 'REVOKED', revokedAt: REVOKED_AT });
  t.deepEqual(await handle.result(), { consent: { consentId, status: 'REVOKED', revokedAt: REVOKED_AT }, currentState: 'consentRevoked' });
  t.deepEqual(stubs.inputs('sendToSwitch'), [{ to: DFSP, resource: 'consents', name: 'delete', id: consentId }]);
});

test.serial(
  "with the Auth service at the switch holding the consent (linking rule 6), the DELETE still goes to the DFSP, and the Auth service's PATCH REVOKED answers it",
  async (t) => {
    const { consentId, handle, answer } = await unlinking(t);
    await answer('patch', { status: 'REVOKED', revokedAt: REVOKED_AT }, AUTH_SERVICE);
    t.like(await handle.result(), { consent: { consentId, status: 'REVOKED', revokedAt: REVOKED_AT }, currentState: 'consentRevoked' });
    t.like(stubs.inputs('sendToSwitch'), [{ to: DFSP }]);
  },
);

test.serial(
  'a PATCH REVOKED from anyone but the DFSP or the Auth service is not taken: with none from them within REQUEST_TIMEOUT_MS the app is answered errored 2004',
  async (t) => {
    const { handle, answer } = await unlinking(t);
    await answer('patch', { status: 'REVOKED', revokedAt: REVOKED_AT }, 'mallory');
    t.like(await handle.result(), { currentState: 'errored', errorInformation: { errorCode: '2004' } });
  },
);

test.serial("the DFSP's PUT /consents/{ID}/error answers the app errored with the DFSP's ErrorInformation", async (t) => {
  const { handle, answer } = await unlinking(t);
  const refusal = { errorCode: '7213', errorDescription: 'Consent is invalid' };
  await answer('error', { errorInformation: refusal });
  t.deepEqual(await handle.result(), { currentState: 'errored', errorInformation: refusal });
});

test.serial('a PATCH that does not say REVOKED does not unlink: the app is answered errored 7200', async (t) => {
  const { handle, answer } = await unlinking(t);
  await answer('patch', { credential: { status: 'VERIFIED' } });
  t.like(await handle.result(), { currentState: 'errored', errorInformation: { errorCode: '7200' } });
});

test.serial("the switch's refusal of the DELETE answers the app errored with the switch's ErrorInformation, not retried", async (t) => {
  stubs.script({
    sendToSwitch: async () => {
      throw rejection('destinationFspError', 'dfspa cannot be reached for consents');
    },
  });
  const { handle } = await unlinking(t);
  t.like(await handle.result(), { currentState: 'errored', errorInformation: { errorCode: '3201' } });
  t.is(stubs.inputs('sendToSwitch').length, 1, 'a refusal is not retried');
});

test.serial('a revocation the DFSP made on its own is recorded consentRevoked at its revokedAt, and nothing is sent', async (t) => {
  const { consentId, handle } = await unlinking(t, { requestTimeoutMs: 0, revokedAt: REVOKED_AT });
  t.deepEqual(await handle.result(), { consent: { consentId, status: 'REVOKED', revokedAt: REVOKED_AT }, currentState: 'consentRevoked' });
  t.deepEqual(stubs.calls, []);
});
