import crypto from 'node:crypto';
import type { TransfersPostRequest } from '../../../activities/shared/contracts/bodies';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { MAX_ASKS_ON_PEER_WORD, type payeeTransfer } from '../../../workflows/dfsp/payeeTransfer';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { ilpPair, transferBody } from '../../helpers/fspiopBodies';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE } from '../../helpers/stubbedWorkflows';

// The DFSP connector's payeeTransfer workflow (Document 2, "Transfers", the payee FSP's side) on the time-skipping
// server, fed the switch's POST /transfers as the inbound gateway feeds it (a signal with the start), with stub bank
// activities (the fulfilment check, the credit, the final notification) and a stub sendToSwitch that records what
// the payee answers and, where a test scripts it, plays the switch answering GET /transfers/{ID}. Transfers expire a
// minute ahead, as a scheme's payee side of the switch sees them (rule 3). Serial: each test moves the one server clock.
const PAYER_FSP = 'payerfsp';
const ME = 'payeefsp';
const HUB = 'Hub';
/** How long past the transfer's expiration the payee still listens for the switch's word (AFTER_EXPIRY_MS). */
const AFTER_EXPIRY = 30_000;

/** The fulfilment the stub bank derives for each condition it issued. */
const fulfilments = new Map<string, string>();
let switchAnswersGet: ((transferId: string) => Omit<PeerMessage, 'resource' | 'id' | 'headers'> | undefined) | undefined;
let client: StubbedWorkflows['client'] | undefined;

const stubs = new StubActivities({
  fulfilmentFor: async (transfer: TransfersPostRequest) => ({
    ok: true,
    body: { fulfilment: fulfilments.get(transfer.condition), transaction: { transactionId: transfer.transferId } },
  }),
  creditPayee: async () => ({ ok: true, body: { homeTransactionId: 'home-1', completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' } }),
  notifyFinalState: async () => undefined,
  sendToSwitch: async (request: OutgoingMessage) => {
    if (request.name !== 'get' || !switchAnswersGet) return;
    const reply = switchAnswersGet(request.id!);
    if (!reply) return;
    const message: PeerMessage = { resource: 'transfers', id: request.id, headers: { 'fspiop-source': reply.source }, ...reply };
    await client!.workflow.getHandle(participantWorkflowIds.exchange('transfers', request.id!)).signal(peerMessageSignal, message);
  },
});
const test = stubbedWorkflowTest('dfsp', stubs);

test.serial.before((t) => {
  client = t.context.client;
});
test.serial.beforeEach(() => {
  switchAnswersGet = undefined;
});

const fromSwitch = (name: PeerMessage['name'], id: string, body: unknown): PeerMessage => ({
  resource: 'transfers',
  name,
  id,
  source: HUB,
  fromSwitch: true,
  headers: { 'fspiop-source': HUB },
  body,
});

/** The bank's answer to the credit: it holds the funds (RESERVED) until the transfer's end is known. */
const bankReserves = async () => ({
  ok: true,
  body: { homeTransactionId: 'home-1', completedTimestamp: new Date().toISOString(), transferState: 'RESERVED' },
});

/** The switch's answer to a GET /transfers/{ID}: the transfer is COMMITTED. */
const switchSaysCommitted = () => ({
  name: 'answer' as const,
  source: HUB,
  fromSwitch: true,
  body: { completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
});

/** The switch's POST /transfers of 10 USD from the payer FSP, expiring a minute past the server's clock, as the inbound gateway hands it over. */
async function received(t: { context: StubbedWorkflows }) {
  const { fulfilment, condition } = ilpPair();
  fulfilments.set(condition, fulfilment);
  const transfer: TransfersPostRequest = { ...transferBody(PAYER_FSP, ME, '10', { condition }), expiration: await t.context.expiration(MINUTE) };
  const post: PeerMessage = {
    resource: 'transfers',
    name: 'request',
    source: PAYER_FSP,
    fromSwitch: false,
    headers: { 'fspiop-source': PAYER_FSP },
    body: transfer,
  };
  const handle = await t.context.client.workflow.signalWithStart<typeof payeeTransfer, [PeerMessage]>('payeeTransfer', {
    workflowId: participantWorkflowIds.payeeTransfer(transfer.transferId),
    taskQueue: t.context.taskQueue,
    args: [],
    signal: peerMessageSignal,
    signalArgs: [post],
  });
  return { transfer, fulfilment, post, handle };
}

/** Skips the server's clock to `ms` (the clock moves on by itself while the test works, so not by a fixed amount). */
async function sleepUntil(t: { context: StubbedWorkflows }, ms: number) {
  await t.context.environment.sleep(ms - (await t.context.environment.currentTimeMs()));
}

const sent = () => stubs.inputs('sendToSwitch') as OutgoingMessage[];
const answers = () => sent().filter((m) => m.name === 'answer' || m.name === 'error');
/** What the bank was told of the transfer's final state (backend PUT /transfers/{transferId}), in order. */
const notifications = () => stubs.calls.filter((call) => call.activity === 'notifyFinalState').map((call) => call.args[1]);

test.serial(
  "a transfer the bank accepts: the bank credits the payee once, the payer FSP gets PUT /transfers/{ID} with the fulfilment and COMMITTED, and the conversation ends 30 s after the transfer's expiration",
  async (t) => {
    const { transfer, fulfilment, handle } = await received(t);
    const answer = await stubs.next('sendToSwitch');
    t.deepEqual(stubs.inputs('fulfilmentFor'), [transfer]);
    t.like(stubs.calls.find((call) => call.activity === 'creditPayee')?.args, [transfer, { transactionId: transfer.transferId }]);
    t.like(answer, { to: PAYER_FSP, resource: 'transfers', name: 'answer', id: transfer.transferId, body: { fulfilment, transferState: 'COMMITTED' } });

    await sleepUntil(t, Date.parse(transfer.expiration) + AFTER_EXPIRY - 3_000);
    t.is((await handle.describe()).status.name, 'RUNNING', 'it still takes the switch’s word a few seconds before it stops');
    await handle.result();
    t.is(stubs.inputs('creditPayee').length, 1);
    t.deepEqual(notifications(), [], 'a COMMITTED answer asks for no commit notification (rule 5)');
    t.is(answers().length, 1);
  },
);

test.serial(
  'a transfer whose condition is not that of the quoted packet is refused with PUT /transfers/{ID}/error 3100, and nothing is credited',
  async (t) => {
    stubs.script({ fulfilmentFor: async () => ({ ok: false, errorInformation: errorInformation('validationError', 'the condition does not match') }) });
    const { transfer, handle } = await received(t);
    await handle.result();
    t.like(answers(), [{ to: PAYER_FSP, name: 'error', id: transfer.transferId, body: { errorInformation: { errorCode: '3100' } } }]);
    t.is(answers().length, 1);
    t.deepEqual(stubs.inputs('creditPayee'), []);
    t.deepEqual(notifications(), [], 'the bank was never asked to credit, so it has nothing to take back');
  },
);

test.serial(
  "a credit the bank refuses goes to the payer FSP as PUT /transfers/{ID}/error with the bank's code, and the bank is told the transfer ABORTED",
  async (t) => {
    stubs.script({ creditPayee: async () => ({ ok: false, errorInformation: errorInformation('payeeLimitError') }) });
    const { transfer, handle } = await received(t);
    await handle.result();
    t.like(answers(), [{ to: PAYER_FSP, name: 'error', id: transfer.transferId, body: { errorInformation: { errorCode: '5200' } } }]);
    t.like(notifications(), [{ transferId: transfer.transferId, currentState: 'ABORTED', finalNotification: { transferState: 'ABORTED' } }]);
    t.is(notifications().length, 1);
  },
);

test.serial(
  'a bank that cannot be reached, after its retries, is answered 2001 to the payer FSP, and the bank is told ABORTED in case its credit went through',
  async (t) => {
    stubs.script({
      creditPayee: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    const { transfer, handle } = await received(t);
    await handle.result();
    t.true(stubs.inputs('creditPayee').length > 1, 'the bank was asked again before giving up');
    t.like(answers(), [{ name: 'error', id: transfer.transferId, body: { errorInformation: { errorCode: '2001' } } }]);
    t.like(notifications(), [{ currentState: 'ABORTED' }]);
  },
);

test.serial(
  'the switch repeating the POST (rule 3): the same transfer is answered again without a second credit, one with other terms is refused 3106',
  async (t) => {
    const { transfer, post, handle } = await received(t);
    const first = await stubs.next('sendToSwitch');
    await handle.signal(peerMessageSignal, post);
    await stubs.next('sendToSwitch', (m) => m !== first);
    await handle.signal(peerMessageSignal, { ...post, body: { ...transfer, amount: { amount: '11', currency: 'USD' } } });
    await stubs.next('sendToSwitch', (m) => m.name === 'error');
    t.deepEqual(
      answers().map((m) => [m.name, m.name === 'error' ? (m.body as any).errorInformation.errorCode : (m.body as any).transferState]),
      [
        ['answer', 'COMMITTED'],
        ['answer', 'COMMITTED'],
        ['error', '3106'],
      ],
    );
    t.deepEqual(answers()[1], answers()[0]);
    t.is(stubs.inputs('creditPayee').length, 1);
    await handle.result();
  },
);

test.serial(
  "a bank that answers RESERVED: the payer FSP gets RESERVED, and the switch's PATCH /transfers/{ID} COMMITTED reaches the bank as its final notification",
  async (t) => {
    stubs.script({
      creditPayee: bankReserves,
    });
    const { transfer, fulfilment, handle } = await received(t);
    t.like(await stubs.next('sendToSwitch'), { name: 'answer', body: { fulfilment, transferState: 'RESERVED' } });
    const completedTimestamp = new Date().toISOString();
    await handle.signal(peerMessageSignal, fromSwitch('patch', transfer.transferId, { completedTimestamp, transferState: 'COMMITTED' }));
    await handle.result();
    t.like(notifications(), [
      {
        transferId: transfer.transferId,
        direction: 'INBOUND',
        currentState: 'COMPLETED',
        finalNotification: { completedTimestamp, transferState: 'COMMITTED' },
        prepare: { body: transfer },
        fulfil: { body: { fulfilment, transferState: 'RESERVED' } },
      },
    ]);
    t.is(notifications().length, 1);
    t.false(
      sent().some((m) => m.name === 'get'),
      'the PATCH came: the payee need not ask',
    );
  },
);

test.serial(
  "a RESERVED transfer whose PATCH never comes: 30 s past the expiration the payee asks the switch (GET /transfers/{ID}), and the bank hears the switch's COMMITTED",
  async (t) => {
    stubs.script({
      creditPayee: bankReserves,
    });
    switchAnswersGet = switchSaysCommitted;
    const { transfer, handle } = await received(t);
    await stubs.next('sendToSwitch');
    await sleepUntil(t, Date.parse(transfer.expiration) + AFTER_EXPIRY - 3_000);
    t.false(
      sent().some((m) => m.name === 'get'),
      'not asked before the grace time is over',
    );
    await handle.result();
    t.deepEqual(
      sent().filter((m) => m.name === 'get'),
      [{ resource: 'transfers', name: 'get', id: transfer.transferId }],
    );
    t.like(notifications(), [{ currentState: 'COMPLETED', finalNotification: { transferState: 'COMMITTED' } }]);
  },
);

test.serial('a RESERVED transfer the switch never says anything about is left to the bank undecided: no notification guesses its end', async (t) => {
  stubs.script({
    creditPayee: bankReserves,
  });
  const { transfer, handle } = await received(t);
  await handle.result();
  t.deepEqual(
    sent().filter((m) => m.name === 'get'),
    [{ resource: 'transfers', name: 'get', id: transfer.transferId }],
  );
  t.deepEqual(notifications(), []);
});

test.serial(
  "the switch's PUT /transfers/{ID}/error after the payee's COMMITTED (it aborted: expiry, or a late fulfilment) takes the credit back: the bank is told ABORTED once",
  async (t) => {
    const { transfer, handle } = await received(t);
    await stubs.next('sendToSwitch');
    const expired = { errorInformation: errorInformation('transferExpired') };
    await handle.signal(peerMessageSignal, fromSwitch('error', transfer.transferId, expired));
    await handle.signal(peerMessageSignal, fromSwitch('error', transfer.transferId, expired));
    await handle.result();
    t.like(notifications(), [{ transferId: transfer.transferId, currentState: 'ABORTED', finalNotification: { transferState: 'ABORTED' } }]);
    t.is(notifications().length, 1);
  },
);

test.serial(
  "an error in the payer FSP's name is not the switch's word: the payee asks the switch, and a transfer the switch committed stays credited",
  async (t) => {
    switchAnswersGet = switchSaysCommitted;
    const { transfer, handle } = await received(t);
    await stubs.next('sendToSwitch');
    const peerError: PeerMessage = {
      ...fromSwitch('error', transfer.transferId, { errorInformation: errorInformation('transferExpired') }),
      source: PAYER_FSP,
      fromSwitch: false,
    };
    await handle.signal(peerMessageSignal, peerError);
    await handle.result();
    t.deepEqual(
      sent().filter((m) => m.name === 'get'),
      [{ resource: 'transfers', name: 'get', id: transfer.transferId }],
    );
    t.like(notifications(), [{ currentState: 'COMPLETED', finalNotification: { transferState: 'COMMITTED' } }]);
    t.is(notifications().length, 1);
  },
);

test.serial(`a participant repeating its error cannot make the payee ask the switch more than ${MAX_ASKS_ON_PEER_WORD} times`, async (t) => {
  const { transfer, handle } = await received(t);
  await stubs.next('sendToSwitch');
  const peerError: PeerMessage = {
    ...fromSwitch('error', transfer.transferId, { errorInformation: errorInformation('transferExpired') }),
    source: 'mallory',
    fromSwitch: false,
  };
  for (let i = 0; i < MAX_ASKS_ON_PEER_WORD + 3; i++) await handle.signal(peerMessageSignal, peerError);
  await handle.result();
  t.is(sent().filter((m) => m.name === 'get').length, MAX_ASKS_ON_PEER_WORD);
  t.deepEqual(notifications(), [], 'the switch never answered: the credit stands as the bank made it');
});

test.serial(
  "the switch's PATCH for a transfer whose conversation has ended reaches the bank on its own; a PATCH in a participant's name does not",
  async (t) => {
    const transferId = crypto.randomUUID();
    const patch = fromSwitch('patch', transferId, { completedTimestamp: new Date().toISOString(), transferState: 'ABORTED' });
    const start = (message: PeerMessage, workflowId: string) =>
      t.context.client.workflow.signalWithStart<typeof payeeTransfer, [PeerMessage]>('payeeTransfer', {
        workflowId,
        taskQueue: t.context.taskQueue,
        args: [],
        signal: peerMessageSignal,
        signalArgs: [message],
      });
    await (await start(patch, participantWorkflowIds.payeeTransfer(transferId))).result();
    t.deepEqual(notifications(), [
      {
        transferId,
        direction: 'INBOUND',
        currentState: 'ABORTED',
        finalNotification: { completedTimestamp: (patch.body as any).completedTimestamp, transferState: 'ABORTED' },
      },
    ]);

    stubs.reset();
    const forged = { ...patch, id: crypto.randomUUID(), source: PAYER_FSP, fromSwitch: false };
    await (await start(forged, participantWorkflowIds.payeeTransfer(forged.id))).result();
    t.deepEqual(stubs.calls, []);
  },
);
