import crypto from 'node:crypto';
import type { PartiesTypeIDPutResponse } from '../../../activities/shared/contracts/bodies';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import type { payeeParty } from '../../../workflows/dfsp/payeeParty';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The DFSP connector's payeeParty workflow (Document 2, /parties, the FSP that holds the party) on the time-skipping
// server, fed the switch's GET /parties/{Type}/{ID} as the inbound gateway feeds it (a signal with the start), with a
// stub bank lookup (partyLookup) and a stub sendToSwitch that records the answer. Serial: the file shares one clock.
const PAYER_FSP = 'payerfsp';
const ME = 'payeefsp';

const bob = (partyId: string): PartiesTypeIDPutResponse => ({
  party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: partyId.split('/')[1], fspId: ME }, name: 'Bob Payee' },
});

const stubs = new StubActivities({
  partyLookup: async (partyId: string) => ({ ok: true, body: bob(partyId) }),
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

/** The payer FSP's GET /parties/MSISDN/{ID}, relayed by the switch, as the inbound gateway hands it over. */
async function lookedUp(t: { context: StubbedWorkflows }, partyId = `MSISDN/2557${crypto.randomInt(10 ** 7, 10 ** 8)}`) {
  const get: PeerMessage = {
    resource: 'parties',
    name: 'get',
    id: partyId,
    source: PAYER_FSP,
    fromSwitch: false,
    headers: { 'fspiop-source': PAYER_FSP },
    body: undefined,
  };
  const handle = await t.context.client.workflow.signalWithStart<typeof payeeParty, [PeerMessage]>('payeeParty', {
    workflowId: participantWorkflowIds.payeeParty(partyId, crypto.randomUUID()),
    taskQueue: t.context.taskQueue,
    args: [],
    signal: peerMessageSignal,
    signalArgs: [get],
  });
  return { partyId, handle };
}

const answers = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];

test.serial('a party the bank holds: the bank is asked for the party in the path, and the requester gets PUT /parties/{Type}/{ID} with it', async (t) => {
  const { partyId, handle } = await lookedUp(t);
  await handle.result();
  t.deepEqual(stubs.inputs('partyLookup'), [partyId]);
  t.deepEqual(answers(), [{ to: PAYER_FSP, resource: 'parties', name: 'answer', id: partyId, body: bob(partyId) }]);
});

test.serial('a party with a sub-ID is looked up and answered on its {Type}/{ID}/{SubId}', async (t) => {
  const { partyId, handle } = await lookedUp(t, 'PERSONAL_ID/A1234567/PASSPORT');
  await handle.result();
  t.deepEqual(stubs.inputs('partyLookup'), [partyId]);
  t.like(answers(), [{ name: 'answer', id: 'PERSONAL_ID/A1234567/PASSPORT' }]);
});

test.serial('a party the bank does not hold is answered PUT /parties/{Type}/{ID}/error 3204', async (t) => {
  stubs.script({ partyLookup: async () => ({ ok: false, errorInformation: errorInformation('partyNotFound') }) });
  const { partyId, handle } = await lookedUp(t);
  await handle.result();
  t.like(answers(), [{ to: PAYER_FSP, resource: 'parties', name: 'error', id: partyId, body: { errorInformation: { errorCode: '3204' } } }]);
  t.is(answers().length, 1);
});

test.serial('a bank that cannot be reached, after its retries, is answered 2001', async (t) => {
  stubs.script({
    partyLookup: async () => {
      throw new Error('connect ECONNREFUSED');
    },
  });
  const { partyId, handle } = await lookedUp(t);
  await handle.result();
  t.true(stubs.inputs('partyLookup').length > 1, 'the bank was asked again before giving up');
  t.like(answers(), [{ name: 'error', id: partyId, body: { errorInformation: { errorCode: '2001' } } }]);
});

test.serial('a lookup conversation started without its GET ends after two seconds, having asked and sent nothing', async (t) => {
  const handle = await t.context.start<typeof payeeParty>('payeeParty', participantWorkflowIds.payeeParty('MSISDN/255700000000', crypto.randomUUID()));
  await handle.result();
  const { startTime, closeTime } = await handle.describe();
  t.true(closeTime!.getTime() - startTime.getTime() >= 2_000);
  t.deepEqual(stubs.calls, []);
});
