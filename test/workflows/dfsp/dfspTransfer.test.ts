import crypto from 'node:crypto';
import type { QuotesIDPutResponse, QuotesPostRequest, TransfersPostRequest } from '../../../activities/shared/contracts/bodies';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { participantWorkflowIds, type OutgoingMessage, type PeerMessage } from '../../../activities/shared/contracts/peers';
import { transferStateQuery, type dfspTransfer, type OutboundTransferRequest } from '../../../workflows/dfsp/dfspTransfer';
import { MAX_ASK_EVERY_MS } from '../../../workflows/dfsp/payer';
import { peerMessageSignal } from '../../../workflows/participant/inbox';
import { ilpPair } from '../../helpers/fspiopBodies';
import { pollUntil } from '../../helpers/polling';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows, MINUTE, HOUR } from '../../helpers/stubbedWorkflows';

// The DFSP connector's dfspTransfer workflow (the payer FSP's side of Document 2: GET /parties, POST /quotes,
// POST /transfers, as the sdk-scheme-adapter's outbound POST /transfers runs them) on the time-skipping server,
// started as the outbound API starts it, with a stub sendToSwitch that plays the switch and the payee FSP: each
// request it sends is answered (or not) as the test scripts, by a signal to the exchange waiting for the answer, as
// the inbound gateway hands answers over. REQUEST_TIMEOUT_MS is a minute. Serial: each test moves the one server clock.
const ME = 'payerfsp';
const PAYEE_FSP = 'payeefsp';
const HUB = 'Hub';
const BOB = '27713803912';

/** How the switch or the payee FSP answers one request, or undefined to leave it unanswered. */
type Reply = { name: 'answer' | 'error'; body: unknown; source: string; fromSwitch?: boolean } | undefined;
type Peer = (request: OutgoingMessage) => Reply;

/** The fulfilment of each condition the payee quoted, for its PUT /transfers. */
const fulfilments = new Map<string, string>();
function quoteOf(request: QuotesPostRequest): QuotesIDPutResponse {
  const { fulfilment, condition } = ilpPair();
  fulfilments.set(condition, fulfilment);
  return {
    transferAmount: request.amount,
    payeeReceiveAmount: request.amount,
    expiration: request.expiration!,
    ilpPacket: Buffer.from(`ilp packet of quote ${request.quoteId}`).toString('base64url'),
    condition,
  };
}

const committedBy = (source: string, fromSwitch: boolean) => (request: OutgoingMessage) => {
  const { condition } = request.body as TransfersPostRequest;
  return {
    name: 'answer' as const,
    body: { fulfilment: fulfilments.get(condition), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
    source,
    fromSwitch,
  };
};
const switchSays =
  (transferState: string): Peer =>
  () => ({
    name: 'answer',
    body: { completedTimestamp: new Date().toISOString(), transferState },
    source: HUB,
    fromSwitch: true,
  });

/** The switch and the payee FSP as they answer a transfer that completes; each test changes what it needs. */
function completingPeers(): Record<string, Peer> {
  return {
    'parties:get': (request) => ({
      name: 'answer',
      body: {
        party: {
          partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: request.id!.split('/')[1], fspId: PAYEE_FSP },
          name: 'Bob Payee',
          personalInfo: { complexName: { firstName: 'Bob', lastName: 'Payee' } },
        },
      },
      source: PAYEE_FSP,
    }),
    quotes: (request) => ({ name: 'answer', body: quoteOf(request.body as QuotesPostRequest), source: PAYEE_FSP }),
    transfers: committedBy(PAYEE_FSP, false),
  };
}
let peers = completingPeers();

/** The ID each request's answer comes back on, which names the exchange waiting for it. */
function answerIdOf(request: OutgoingMessage): string {
  if (request.name === 'get') return request.id!;
  const body = request.body as Record<string, string>;
  return request.resource === 'quotes' ? body.quoteId : body.transferId;
}

let client: StubbedWorkflows['client'] | undefined;
const stubs = new StubActivities({
  fulfilsCondition: async (fulfilment: string, condition: string) =>
    crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url') === condition,
  sendToSwitch: async (request: OutgoingMessage) => {
    const reply = peers[request.name === 'get' ? `${request.resource}:get` : request.resource]?.(request);
    if (!reply) return;
    const { fromSwitch = false, ...said } = reply;
    const id = answerIdOf(request);
    const message: PeerMessage = { resource: request.resource, id, headers: { 'fspiop-source': said.source }, fromSwitch, ...said };
    await client!.workflow.getHandle(participantWorkflowIds.exchange(request.resource, id)).signal(peerMessageSignal, message);
  },
});
const test = stubbedWorkflowTest('dfsp', stubs);

test.serial.before((t) => {
  client = t.context.client;
});
test.serial.beforeEach(() => {
  peers = completingPeers();
});

/** The bank's outbound POST /transfers of 10 USD from Alice to Bob's MSISDN, as the outbound API starts it. */
async function requested(t: { context: StubbedWorkflows }, changes: Partial<OutboundTransferRequest> = {}) {
  const transferId = crypto.randomUUID();
  const request: OutboundTransferRequest = {
    homeTransactionId: crypto.randomUUID(),
    from: { idType: 'MSISDN', idValue: '27713803911', displayName: 'Alice Payer' },
    to: { idType: 'MSISDN', idValue: BOB },
    amountType: 'SEND',
    currency: 'USD',
    amount: '10',
    transactionType: 'TRANSFER',
    note: 'lunch',
    ...changes,
  } as OutboundTransferRequest;
  const handle = await t.context.start<typeof dfspTransfer>('dfspTransfer', participantWorkflowIds.dfspTransfer(transferId), {
    transferId,
    payerFsp: ME,
    request,
    waitMs: MINUTE,
  });
  return { transferId, request, handle };
}

const sentOn = (resource: string) => (stubs.inputs('sendToSwitch') as OutgoingMessage[]).filter((m) => m.resource === resource);
/** How long the workflow ran, on the server's clock. */
async function ranFor(handle: { describe(): Promise<{ startTime: Date; closeTime?: Date }> }): Promise<number> {
  const { startTime, closeTime } = await handle.describe();
  return closeTime!.getTime() - startTime.getTime();
}

test.serial(
  "a transfer that completes: the payee looked up through the switch, quoted by its FSP, and paid on the quote's terms; the fulfilment is checked and the transfer ends COMPLETED",
  async (t) => {
    const { transferId, request, handle } = await requested(t);
    const result = await handle.result();
    t.like(result, { transferId, currentState: 'COMPLETED', to: { fspId: PAYEE_FSP, firstName: 'Bob', lastName: 'Payee', displayName: 'Bob Payee' } });

    t.deepEqual(sentOn('parties'), [{ resource: 'parties', name: 'get', id: `MSISDN/${BOB}` }], 'GET /parties names no destination: the switch finds it');
    const [quote] = sentOn('quotes');
    t.like(quote, {
      to: PAYEE_FSP,
      name: 'request',
      body: {
        transactionId: transferId,
        amountType: 'SEND',
        amount: { amount: '10', currency: 'USD' },
        payer: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: request.from.idValue, fspId: ME }, name: 'Alice Payer' },
        payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: BOB, fspId: PAYEE_FSP } },
        transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
        note: 'lunch',
      },
    });
    const quoteBody = quote.body as QuotesPostRequest;
    t.is(result.quoteId, quoteBody.quoteId);
    const quoted = result.quoteResponse!.body as QuotesIDPutResponse;

    const [transfer] = sentOn('transfers');
    t.like(transfer, {
      to: PAYEE_FSP,
      name: 'request',
      body: { transferId, payerFsp: ME, payeeFsp: PAYEE_FSP, amount: quoted.transferAmount, ilpPacket: quoted.ilpPacket, condition: quoted.condition },
    });
    const { expiration } = transfer.body as TransfersPostRequest;
    const standing = Date.parse(expiration) - Date.parse(result.initiatedTimestamp!);
    t.true(standing >= MINUTE && standing < MINUTE + 10_000, `the transfer expires the SDK's 60 s after it is made, not ${standing} ms`);
    t.deepEqual(
      stubs.calls.filter((c) => c.activity === 'fulfilsCondition').map((c) => c.args),
      [[fulfilments.get(quoted.condition), quoted.condition]],
    );
    t.like(result.fulfil, { body: { fulfilment: fulfilments.get(quoted.condition), transferState: 'COMMITTED' } });
    t.like(await handle.query(transferStateQuery), { currentState: 'COMPLETED' });
  },
);

test.serial('a request that names the payee FSP and skips the lookup is quoted straight away', async (t) => {
  const { handle } = await requested(t, {
    to: { idType: 'MSISDN', idValue: BOB, fspId: PAYEE_FSP },
    skipPartyLookup: true,
  } as Partial<OutboundTransferRequest>);
  t.like(await handle.result(), { currentState: 'COMPLETED' });
  t.deepEqual(sentOn('parties'), []);
  t.like(sentOn('quotes'), [{ to: PAYEE_FSP }]);
});

test.serial('a lookup nobody answers ends the transfer ERROR_OCCURRED with 504 after REQUEST_TIMEOUT_MS, and nothing is quoted', async (t) => {
  peers['parties:get'] = () => undefined;
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { httpStatusCode: 504, message: 'Timeout resolving payee' } });
  t.true((await ranFor(handle)) >= MINUTE);
  t.deepEqual(sentOn('quotes'), []);
});

test.serial("the payee FSP's PUT /parties/…/error 3204 ends the transfer ERROR_OCCURRED with that error, and nothing is quoted", async (t) => {
  peers['parties:get'] = () => ({ name: 'error', body: { errorInformation: errorInformation('partyNotFound') }, source: PAYEE_FSP });
  const { handle } = await requested(t);
  t.like(await handle.result(), {
    currentState: 'ERROR_OCCURRED',
    lastError: { httpStatusCode: 500, mojaloopError: { errorInformation: { errorCode: '3204' } } },
  });
  t.deepEqual(sentOn('quotes'), []);
});

test.serial('a lookup answered about another party than the one asked for is not taken: nothing is quoted', async (t) => {
  const answered = completingPeers()['parties:get'];
  peers['parties:get'] = (request) => answered({ ...request, id: 'MSISDN/27700000000' });
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { httpStatusCode: 500 } });
  t.deepEqual(sentOn('quotes'), []);
});

test.serial('a quote nobody answers within REQUEST_TIMEOUT_MS ends the transfer with 3302, and nothing is transferred', async (t) => {
  peers.quotes = () => undefined;
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { mojaloopError: { errorInformation: { errorCode: '3302' } } } });
  t.true((await ranFor(handle)) >= MINUTE);
  t.deepEqual(sentOn('transfers'), []);
});

test.serial("the payee FSP's refusal of the quote (PUT /quotes/{ID}/error) ends the transfer with its code, and nothing is transferred", async (t) => {
  peers.quotes = () => ({ name: 'error', body: { errorInformation: errorInformation('payeeRejectedQuote') }, source: PAYEE_FSP });
  const { handle } = await requested(t);
  t.like(await handle.result(), {
    currentState: 'ERROR_OCCURRED',
    lastError: { message: 'Got an error response requesting quote', mojaloopError: { errorInformation: { errorCode: '5101' } } },
  });
  t.deepEqual(sentOn('transfers'), []);
});

test.serial("the switch's PUT /transfers/{ID}/error (it aborted the transfer at its expiration) ends it ERROR_OCCURRED with 3303", async (t) => {
  peers.transfers = () => ({ name: 'error', body: { errorInformation: errorInformation('transferExpired') }, source: HUB, fromSwitch: true });
  const { handle } = await requested(t);
  t.like(await handle.result(), {
    currentState: 'ERROR_OCCURRED',
    lastError: { message: 'Got an error response preparing transfer', mojaloopError: { errorInformation: { errorCode: '3303' } } },
  });
  t.false(sentOn('transfers').some((m) => m.name === 'get'));
});

test.serial(
  "a transfer nobody answers is not given up at its expiration: the payer asks the switch (GET /transfers/{ID}), and the switch's COMMITTED completes it",
  async (t) => {
    peers.transfers = () => undefined;
    peers['transfers:get'] = switchSays('COMMITTED');
    const { transferId, handle } = await requested(t);
    t.like(await handle.result(), { currentState: 'COMPLETED', fulfil: { body: { transferState: 'COMMITTED' } } });
    t.like(sentOn('transfers')[1], { name: 'get', id: transferId });
    t.is(sentOn('transfers')[1].to, undefined, 'only the switch answers a GET /transfers');
  },
);

test.serial("a transfer the switch answers ABORTED to the payer's GET ends ERROR_OCCURRED", async (t) => {
  peers.transfers = () => undefined;
  peers['transfers:get'] = switchSays('ABORTED');
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { httpStatusCode: 500, message: 'the switch reports the transfer ABORTED' } });
});

test.serial(
  'a transfer the switch keeps undecided is never reported failed: the payer goes on asking, less and less often, until the switch says COMMITTED',
  async (t) => {
    peers.transfers = () => undefined;
    peers['transfers:get'] = switchSays('RESERVED');
    const { handle } = await requested(t);
    await stubs.next('sendToSwitch', (m) => m.name === 'get');
    await t.context.environment.sleep(HOUR);
    t.is((await handle.describe()).status.name, 'RUNNING');
    t.like(await handle.query(transferStateQuery), { currentState: 'WAITING_FOR_QUOTE_ACCEPTANCE' });
    const asked = sentOn('transfers').filter((m) => m.name === 'get').length;
    t.true(asked >= 2, 'it asked again');
    t.true(asked <= HOUR / MINUTE / 4, `it backed off (up to one GET every ${MAX_ASK_EVERY_MS / MINUTE} minutes), asking ${asked} times in an hour`);

    peers['transfers:get'] = switchSays('COMMITTED');
    t.like(await handle.result(), { currentState: 'COMPLETED' });
  },
);

test.serial("an error in the payee FSP's own name is checked with the switch: a transfer the switch committed is reported COMPLETED, not failed", async (t) => {
  peers.transfers = () => ({ name: 'error', body: { errorInformation: errorInformation('payeeRejectedTransaction') }, source: PAYEE_FSP });
  peers['transfers:get'] = switchSays('COMMITTED');
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'COMPLETED' });
  t.is(sentOn('transfers').filter((m) => m.name === 'get').length, 1);
});

test.serial("the payee FSP's error stays the reason when the switch, asked, says it aborted the transfer", async (t) => {
  peers.transfers = () => ({ name: 'error', body: { errorInformation: errorInformation('payeeRejectedTransaction') }, source: PAYEE_FSP });
  peers['transfers:get'] = switchSays('ABORTED');
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { mojaloopError: { errorInformation: { errorCode: '5104' } } } });
});

test.serial('a COMMITTED whose fulfilment does not hash to the condition is not a commit: the payer asks the switch, which aborted it', async (t) => {
  peers.transfers = () => ({
    name: 'answer',
    body: { fulfilment: ilpPair().fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
    source: PAYEE_FSP,
  });
  peers['transfers:get'] = switchSays('ABORTED');
  const { handle } = await requested(t);
  t.like(await handle.result(), { currentState: 'ERROR_OCCURRED' });
  t.is(stubs.inputs('fulfilsCondition').length, 1);
  t.is(sentOn('transfers').filter((m) => m.name === 'get').length, 1);
});

test.serial(
  "the switch refusing the POST /transfers itself (a 4xx with its error) is the transfer never made: it ends with the switch's error, and nothing is asked after it",
  async (t) => {
    peers.transfers = () => {
      throw rejection('payerInsufficientLiquidity');
    };
    const { handle } = await requested(t);
    t.like(await handle.result(), { currentState: 'ERROR_OCCURRED', lastError: { mojaloopError: { errorInformation: { errorCode: '4001' } } } });
    t.deepEqual(
      sentOn('transfers').map((m) => m.name),
      ['request'],
    );
  },
);

test.serial(
  'a GET /transfers/{ID} the switch refuses says nothing of the transfer: the payer waits and asks again until the switch says COMMITTED',
  async (t) => {
    let gets = 0;
    peers.transfers = () => undefined;
    peers['transfers:get'] = (request) => {
      if (gets++ === 0) throw rejection('validationError', 'refused by the test');
      return switchSays('COMMITTED')(request);
    };
    const { handle } = await requested(t);
    t.like(await handle.result(), { currentState: 'COMPLETED' });
    t.is(sentOn('transfers').filter((m) => m.name === 'get').length, 2);
  },
);

test.serial(
  'two transfers to the same party at once each look the party up themselves: the second waits its turn rather than take the first’s answer',
  async (t) => {
    const answered = completingPeers()['parties:get'];
    peers['parties:get'] = () => undefined;
    const first = await requested(t);
    const lookup = await stubs.next('sendToSwitch', (m) => m.resource === 'parties');
    const second = await requested(t);
    // The second lookup's exchange bears the first's name while the first waits: its start is refused, and it waits.
    const waited = await pollUntil(
      async () => (await second.handle.fetchHistory()).events!.some((e) => e.startChildWorkflowExecutionFailedEventAttributes),
      (refused) => refused,
    );
    t.true(waited, 'the second lookup found the first one running');
    t.is(sentOn('parties').length, 1, 'and sent nothing while it waited');

    peers['parties:get'] = answered;
    const reply = answered(lookup)!;
    const message: PeerMessage = { resource: 'parties', id: lookup.id, headers: { 'fspiop-source': reply.source }, fromSwitch: false, ...reply };
    await t.context.client.workflow.getHandle(participantWorkflowIds.exchange('parties', lookup.id)).signal(peerMessageSignal, message);
    t.like(await first.handle.result(), { currentState: 'COMPLETED' });
    t.like(await second.handle.result(), { currentState: 'COMPLETED' });
    t.deepEqual(
      sentOn('parties').map((m) => m.id),
      [`MSISDN/${BOB}`, `MSISDN/${BOB}`],
    );
  },
);
