import crypto from 'node:crypto';
import type { OutgoingMessage, PeerMessage } from '../../../activities/shared/contracts/peers';
import type { dfspAccounts } from '../../../workflows/dfsp/dfspAccounts';
import { thirdpartyWorkflowIds } from '../../../workflows/dfsp/thirdpartyContracts';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspAccounts workflow (Document 1, "Linking": GET /accounts/{ID}, discovery) on the
// time-skipping server, fed the PISP's GET as its inbound gateway feeds it (the signal that starts it), with a stub
// bank and a stub sendToSwitch. Serial: each test moves the one server clock the file shares.
const PISP = 'pisp';
const ACCOUNTS = [
  { accountNickname: 'Savings', address: 'dfspa.alice.savings', currency: 'USD' },
  { accountNickname: 'Current', address: 'dfspa.alice.current', currency: 'USD' },
];

const stubs = new StubActivities({
  linkableAccounts: async (userId: string) => (userId === 'alice' ? ACCOUNTS : undefined),
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

/** The PISP's GET /accounts/{userId}, handed over as the inbound gateway hands it: each GET its own run. */
async function asked(t: { context: StubbedWorkflows }, userId: string) {
  const get: PeerMessage = {
    resource: 'accounts',
    name: 'get',
    id: userId,
    source: PISP,
    fromSwitch: false,
    headers: { 'fspiop-source': PISP },
    body: undefined,
  };
  return t.context.client.workflow.signalWithStart<typeof dfspAccounts, [PeerMessage]>('dfspAccounts', {
    workflowId: thirdpartyWorkflowIds.accounts(userId, crypto.randomUUID()),
    taskQueue: t.context.taskQueue,
    args: [],
    signal: peerMessageSignal,
    signalArgs: [get],
  });
}

const sent = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];

test.serial("a user's accounts: PUT /accounts/{ID} to the PISP that asked, listing the accounts the bank lets the user link", async (t) => {
  const handle = await asked(t, 'alice');
  t.is(await handle.result(), 'answered');
  t.deepEqual(stubs.inputs('linkableAccounts'), ['alice']);
  t.deepEqual(sent(), [{ to: PISP, resource: 'accounts', name: 'answer', id: 'alice', body: { accounts: ACCOUNTS } }]);
});

test.serial('no such user: PUT /accounts/{ID}/error 6205', async (t) => {
  const handle = await asked(t, 'nobody');
  t.is(await handle.result(), 'unknownUser');
  t.like(sent(), [{ to: PISP, resource: 'accounts', name: 'error', id: 'nobody', body: { errorInformation: { errorCode: '6205' } } }]);
  t.is(sent().length, 1);
});

test.serial('a user with no account to link is answered as no such user, 6205, not with an empty list', async (t) => {
  stubs.script({ linkableAccounts: async () => [] });
  const handle = await asked(t, 'bob');
  t.is(await handle.result(), 'unknownUser');
  t.like(sent(), [{ name: 'error', body: { errorInformation: { errorCode: '6205' } } }]);
});

test.serial('a lookup started without its GET ends notAsked after a minute, having asked the bank nothing and sent nothing', async (t) => {
  const handle = await t.context.start<typeof dfspAccounts>('dfspAccounts', thirdpartyWorkflowIds.accounts('alice', crypto.randomUUID()));
  await t.context.environment.sleep(MINUTE - 1000);
  t.is((await handle.describe()).status.name, 'RUNNING');
  t.is(await handle.result(), 'notAsked');
  t.deepEqual(stubs.calls, []);
});
