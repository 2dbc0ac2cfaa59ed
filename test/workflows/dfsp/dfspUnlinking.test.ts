import crypto from 'node:crypto';
import type { OutgoingMessage, PeerMessage } from '../../../activities/shared/contracts/peers';
import type { dfspUnlinking } from '../../../workflows/dfsp/dfspUnlinking';
import { thirdpartyWorkflowIds } from '../../../workflows/dfsp/thirdpartyContracts';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { meanwhile, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspUnlinking workflow (Document 1, linking rules 5 and 6) on the time-skipping server, fed
// the PISP's DELETE /consents/{ID} or the Auth service's PATCH /consents/{ID} as its inbound gateway feeds them (a
// signal that starts it, or reaches it while it runs), with stub bank activities and a stub sendToSwitch. Serial: each
// test moves the one server clock the file shares.
const ME = 'dfspa';
const PISP = 'pisp';
const AUTH_SERVICE = 'centralauth';
const REVOKED_AT = '2026-11-28T12:00:00.000Z';

const stubs = new StubActivities({
  thirdpartyIdentity: async () => ({ dfspId: ME, authServiceId: AUTH_SERVICE, requestTimeoutMs: MINUTE }),
  // The bank holds every consent as the PISP's, and keeps the first revokedAt of one revoked again.
  unlinkConsent: async ({ requester }: { requester: string }) =>
    requester === PISP
      ? { ok: true, revokedAt: REVOKED_AT }
      : { ok: false, errorInformation: { errorCode: '7213', errorDescription: `Consent is invalid - not a consent of ${requester}` } },
  consentRevoked: async () => true,
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

const message = (name: PeerMessage['name'], source: string, consentId: string, body?: unknown): PeerMessage => ({
  resource: 'consents',
  name,
  id: consentId,
  source,
  fromSwitch: false,
  headers: { 'fspiop-source': source },
  body,
});

/** A message on a consent handed over as the inbound gateway hands it: the unlinking started with it, or given it. */
async function delivered(t: { context: StubbedWorkflows }, first: (consentId: string) => PeerMessage, consentId = crypto.randomUUID()) {
  const handle = await t.context.client.workflow.signalWithStart<typeof dfspUnlinking, [PeerMessage]>('dfspUnlinking', {
    workflowId: thirdpartyWorkflowIds.unlinking(consentId),
    taskQueue: t.context.taskQueue,
    args: [{ consentId }],
    signal: peerMessageSignal,
    signalArgs: [first(consentId)],
  });
  return { consentId, handle };
}

const sent = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];

test.serial("the PISP's DELETE (linking rule 5): the bank revokes the consent, and the PISP is told PATCH /consents/{ID} REVOKED", async (t) => {
  const { consentId, handle } = await delivered(t, (id) => message('delete', PISP, id));
  t.is(await handle.result(), 1);
  t.like(stubs.inputs('unlinkConsent'), [{ consentId, requester: PISP }]);
  t.deepEqual(sent(), [{ to: PISP, resource: 'consents', name: 'patch', id: consentId, body: { status: 'REVOKED', revokedAt: REVOKED_AT } }]);
});

test.serial("a DELETE from a PISP the consent is not of is answered PUT /consents/{ID}/error with the bank's reason", async (t) => {
  const { consentId, handle } = await delivered(t, (id) => message('delete', 'otherpisp', id));
  t.is(await handle.result(), 1);
  t.deepEqual(sent(), [
    {
      to: 'otherpisp',
      resource: 'consents',
      name: 'error',
      id: consentId,
      body: { errorInformation: { errorCode: '7213', errorDescription: 'Consent is invalid - not a consent of otherpisp' } },
    },
  ]);
});

test.serial(
  "the Auth service's PATCH REVOKED (linking rule 6): the bank revokes the consent at the Auth service's revokedAt, and nothing is sent",
  async (t) => {
    const { consentId, handle } = await delivered(t, (id) => message('patch', AUTH_SERVICE, id, { status: 'REVOKED', revokedAt: REVOKED_AT }));
    t.is(await handle.result(), 1);
    t.deepEqual(stubs.inputs('consentRevoked'), [{ consentId, revokedAt: REVOKED_AT }]);
    t.deepEqual(sent(), []);
  },
);

test.serial('a PATCH REVOKED from anyone but the Auth service revokes nothing', async (t) => {
  const { handle } = await delivered(t, (id) => message('patch', PISP, id, { status: 'REVOKED', revokedAt: REVOKED_AT }));
  t.is(await handle.result(), 1);
  t.deepEqual(stubs.inputs('consentRevoked'), []);
  t.deepEqual(stubs.inputs('unlinkConsent'), []);
  t.deepEqual(sent(), []);
});

test.serial('a second message on the consent while the first is handled is taken in turn, and each DELETE is answered', async (t) => {
  const consentId = crypto.randomUUID();
  stubs.script({
    unlinkConsent: meanwhile(
      () => t.context.client.workflow.getHandle(thirdpartyWorkflowIds.unlinking(consentId)).signal(peerMessageSignal, message('delete', PISP, consentId)),
      async () => ({ ok: true, revokedAt: REVOKED_AT }),
    ),
  });
  const { handle } = await delivered(t, (id) => message('delete', PISP, id), consentId);
  t.is(await handle.result(), 2);
  t.deepEqual(
    sent().map((m) => [m.to, m.name, (m.body as { status: string }).status]),
    [
      [PISP, 'patch', 'REVOKED'],
      [PISP, 'patch', 'REVOKED'],
    ],
  );
});

test.serial('an unlinking started without a message ends after a minute, having revoked and sent nothing', async (t) => {
  const handle = await t.context.start<typeof dfspUnlinking>('dfspUnlinking', thirdpartyWorkflowIds.unlinking(crypto.randomUUID()), {
    consentId: crypto.randomUUID(),
  });
  await t.context.environment.sleep(MINUTE - 1000);
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.is(await handle.result(), 0);
  t.deepEqual(
    stubs.calls.map((call) => call.activity),
    ['thirdpartyIdentity'],
  );
});
