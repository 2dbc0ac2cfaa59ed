import crypto from 'node:crypto';
import type { OutgoingMessage } from '../../../activities/shared/contracts/peers';
import type { dfspTransactionStatus, TransactionStatusInput } from '../../../workflows/dfsp/dfspTransactionStatus';
import { thirdpartyWorkflowIds } from '../../../workflows/dfsp/thirdpartyContracts';
import { StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspTransactionStatus workflow (Document 1, payment flow rule 8: GET
// /thirdpartyRequests/transactions/{ID}) on the time-skipping server, started as its inbound gateway starts it with the
// request's state, and a stub sendToSwitch. It has no timer: it answers at once.
const PISP = 'pisp';
const TRANSACTIONS = 'thirdpartyRequests/transactions';

const stubs = new StubActivities({
  sendToSwitch: async () => undefined,
});
const test = stubbedWorkflowTest('dfsp', stubs);

/** The GET from `requester` of a request in `view`, answered. */
async function asked(t: { context: StubbedWorkflows }, input: Omit<TransactionStatusInput, 'transactionRequestId'>) {
  const transactionRequestId = crypto.randomUUID();
  const handle = await t.context.start<typeof dfspTransactionStatus>(
    'dfspTransactionStatus',
    thirdpartyWorkflowIds.transactionStatus(transactionRequestId, crypto.randomUUID()),
    { transactionRequestId, ...input },
  );
  return { transactionRequestId, outcome: await handle.result(), sent: stubs.inputs('sendToSwitch') as OutgoingMessage[] };
}

test.serial(
  'the originator asking is sent PUT /thirdpartyRequests/transactions/{ID} with the transactionId and the current transactionRequestState',
  async (t) => {
    const transactionId = crypto.randomUUID();
    const { transactionRequestId, outcome, sent } = await asked(t, {
      requester: PISP,
      view: { originator: PISP, transactionId, transactionRequestState: 'ACCEPTED', transactionState: 'PENDING' },
    });
    t.is(outcome, 'ACCEPTED');
    t.deepEqual(sent, [
      { to: PISP, resource: TRANSACTIONS, name: 'answer', id: transactionRequestId, body: { transactionId, transactionRequestState: 'ACCEPTED' } },
    ]);
  },
);

test.serial('a request that failed is told its error again', async (t) => {
  const failure = { errorCode: '7105', errorDescription: 'Authorization failed' };
  const { transactionRequestId, outcome, sent } = await asked(t, {
    requester: PISP,
    view: { originator: PISP, transactionRequestState: 'RECEIVED', errorInformation: failure },
  });
  t.is(outcome, 'failed');
  t.deepEqual(sent, [{ to: PISP, resource: TRANSACTIONS, name: 'error', id: transactionRequestId, body: { errorInformation: failure } }]);
});

test.serial('a request the DFSP does not have is PUT …/error 3206', async (t) => {
  const { transactionRequestId, outcome, sent } = await asked(t, { requester: PISP });
  t.is(outcome, 'notFound');
  t.like(sent, [{ to: PISP, resource: TRANSACTIONS, name: 'error', id: transactionRequestId, body: { errorInformation: { errorCode: '3206' } } }]);
  t.is(sent.length, 1);
});

test.serial('another participant than the originator asking learns nothing of the request: the same 3206 as for none', async (t) => {
  const { outcome, sent } = await asked(t, {
    requester: 'otherpisp',
    view: { originator: PISP, transactionId: crypto.randomUUID(), transactionRequestState: 'ACCEPTED' },
  });
  t.is(outcome, 'notFound');
  t.like(sent, [{ to: 'otherpisp', name: 'error', body: { errorInformation: { errorCode: '3206' } } }]);
  t.false(JSON.stringify(sent).includes('ACCEPTED'));
});

test.serial('a request whose POST has not been taken yet has no state to tell: 3206', async (t) => {
  const { outcome, sent } = await asked(t, { requester: PISP, view: { originator: PISP } });
  t.is(outcome, 'notFound');
  t.like(sent, [{ name: 'error', body: { errorInformation: { errorCode: '3206' } } }]);
});
