import test from 'ava';
import canonicalize from 'canonicalize';
import crypto from 'node:crypto';
import { startTestDfsp } from '../helpers/connectors';
import type { ReceivedRequest, SimulatedDfsp } from '../helpers/dfsp';
import { ilpPair } from '../helpers/fspiopBodies';
import { pollUntil } from '../helpers/polling';
import { answerOrError, FIDO_APP, fidoCredential, genericCredential, isTo, linkAccount, scopesOf, TestDfsp, userAt } from '../helpers/scriptedPisp';
import { GenericSigner, SoftAuthenticator } from '../helpers/softAuthenticator';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let dfsp: TestDfsp;
/** The PISP that linked alice's account, and the key its app signs with. */
let pisp: SimulatedDfsp;
const signer = new GenericSigner();

/** How the PISP's user answers the authorization request of a transaction request (by default: signs the challenge). */
type Decision = (authorization: { challenge: string }) => object | undefined;
const decisions = new Map<string, Decision>();
const accept: Decision = ({ challenge }) => ({
  responseType: 'ACCEPTED',
  signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) },
});

useSwitch(test, async (started) => {
  hub = started;
  dfsp = await startTestDfsp(hub);
  pisp = await hub.provision();
  pisp.react(async (request) => {
    if (!isTo('POST', '/thirdpartyRequests/authorizations')(request)) return;
    const answer = (decisions.get(request.body.transactionRequestId) ?? accept)(request.body);
    if (!answer) return;
    await hub.fspiop('PUT', `/thirdpartyRequests/authorizations/${request.body.authorizationRequestId}`, {
      source: pisp.name,
      destination: dfsp.name,
      body: answer,
    });
  });
  const linked = await linkAccount(hub, pisp, dfsp, genericCredential(signer));
  if (linked.finished.method !== 'PATCH') throw new Error(`linking failed: ${JSON.stringify(linked.finished.body)}`);
});

test.after.always(async () => {
  await dfsp?.connector.stop();
});

/**
 * A payee FSP that quotes what it is asked (generating condition and ILP packet) and commits each transfer with the
 * fulfilment; with a `fee`, the payer is quoted the amount and the fee, with `currency` it quotes in that currency.
 */
async function payeeFsp(
  terms: { fee?: string; currency?: string; refuses?: 'quotes' | 'transfers' } = {},
): Promise<{ payee: SimulatedDfsp; quotes: object[] }> {
  const payee = await hub.provision();
  const fulfilments = new Map<string, string>();
  const quotes: object[] = [];
  payee.react(async (request) => {
    const payer = request.headers['fspiop-source'] as string;
    const refused = terms.refuses && isTo('POST', `/${terms.refuses}`)(request);
    if (refused) {
      const id = terms.refuses === 'quotes' ? request.body.quoteId : request.body.transferId;
      const errorInformation = { errorCode: terms.refuses === 'quotes' ? '5101' : '5105', errorDescription: 'Payee FSP refuses' };
      await hub.fspiop('PUT', `/${terms.refuses}/${id}/error`, { source: payee.name, destination: payer, body: { errorInformation } });
      return;
    }
    if (isTo('POST', '/quotes')(request)) {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      const { amount, currency } = request.body.amount;
      const quote = {
        transferAmount: { amount: String(Number(amount) + Number(terms.fee ?? 0)), currency: terms.currency ?? currency },
        payeeReceiveAmount: { amount, currency: terms.currency ?? currency },
        expiration: new Date(Date.now() + 60_000).toISOString(),
        ilpPacket: Buffer.from(`ilp packet of quote ${request.body.quoteId}`).toString('base64url'),
        condition,
      };
      quotes.push(quote);
      await hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, { source: payee.name, destination: payer, body: quote });
    }
    if (isTo('POST', '/transfers')(request)) {
      const body = { fulfilment: fulfilments.get(request.body.condition), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' };
      await hub.fspiop('PUT', `/transfers/${request.body.transferId}`, { source: payee.name, destination: payer, body });
    }
  });
  return { payee, quotes };
}

/** A PISP's POST /thirdpartyRequests/transactions from the linked account at the DFSP to a payee at `payeeFsp`. */
function transactionRequest(payeeFsp: string | undefined, overrides: Record<string, unknown> = {}) {
  return {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', ...(payeeFsp ? { fspId: payeeFsp } : {}) } },
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: userAt(dfsp).address, fspId: dfsp.name },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: new Date(Date.now() + 60_000).toISOString(),
    ...overrides,
  };
}

const transactionPath = (id: string) => `/thirdpartyRequests/transactions/${id}`;

/** The PISP sends the request; returns the final outcome it is told (PATCH or PUT …/error). */
async function initiate(from: SimulatedDfsp, request: { transactionRequestId: string }): Promise<ReceivedRequest> {
  const path = transactionPath(request.transactionRequestId);
  const sent = await hub.fspiop('POST', '/thirdpartyRequests/transactions', { source: from.name, destination: dfsp.name, body: request });
  if (sent.status !== 202) throw new Error(`POST refused: ${sent.status} ${JSON.stringify(sent.body)}`);
  return from.waitFor((r) => isTo('PATCH', path)(r) || isTo('PUT', `${path}/error`)(r), 30_000, 'final outcome');
}

/** Every final outcome the PISP was sent for a request: Document 1 allows exactly one. */
const finalOutcomes = (from: SimulatedDfsp, id: string) =>
  from.received.filter((r) => isTo('PATCH', transactionPath(id))(r) || isTo('PUT', `${transactionPath(id)}/error`)(r));

const balanceOf = (address: string) => dfsp.bank.account(address)!.account.balance;

test('a payment from a linked account COMPLETES: RECEIVED, the challenge of the quote signed and verified, hub positions moved and the account debited once', async (t) => {
  const { payee, quotes } = await payeeFsp();
  const { address } = userAt(dfsp);
  const before = { payer: await hub.position(dfsp), payee: await hub.position(payee), balance: balanceOf(address) };
  const request = transactionRequest(payee.name);

  const outcome = await initiate(pisp, request);
  t.is(outcome.method, 'PATCH');
  t.deepEqual(outcome.body, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  const received = await pisp.waitFor(isTo('PUT', transactionPath(request.transactionRequestId)));
  t.is(received.body.transactionRequestState, 'RECEIVED');
  t.regex(received.body.transactionId, /^[0-9a-f-]{36}$/);

  // The challenge is SHA-256 of the canonical PUT /quotes body, as hex text (thirdparty-sdk's encoding).
  const authorization = await pisp.waitFor(
    (r) => isTo('POST', '/thirdpartyRequests/authorizations')(r) && r.body.transactionRequestId === request.transactionRequestId,
  );
  t.is(quotes.length, 1);
  t.is(authorization.body.challenge, crypto.createHash('sha256').update(canonicalize(quotes[0])!).digest('hex'));
  t.deepEqual(authorization.body.transferAmount, request.amount);

  const transfer = await payee.waitFor(isTo('POST', '/transfers'));
  t.is(transfer.body.payerFsp, dfsp.name);
  t.deepEqual(transfer.body.amount, request.amount);
  t.is(await hub.position(dfsp), before.payer + 10);
  t.is(await hub.position(payee), before.payee - 10);
  // The PISP is told without waiting on the bank: the hold is taken from the account just after.
  const debited = String(Number(before.balance) - 10);
  t.is(
    await pollUntil(
      async () => balanceOf(address),
      (balance) => balance === debited,
    ),
    debited,
  );
  t.is(finalOutcomes(pisp, request.transactionRequestId).length, 1);

  // The PISP sends the same request again: it is told how it ended, and nothing is paid twice.
  const path = transactionPath(request.transactionRequestId);
  await hub.fspiop('POST', '/thirdpartyRequests/transactions', { source: pisp.name, destination: dfsp.name, body: request });
  const told = await pollUntil(
    async () => pisp.received.filter(isTo('PUT', path)),
    (puts) => puts.length === 2,
  );
  t.deepEqual(told[1]?.body, { transactionId: received.body.transactionId, transactionRequestState: 'ACCEPTED' });
  t.is(payee.received.filter(isTo('POST', '/transfers')).length, 1);
  t.is(balanceOf(address), String(Number(before.balance) - 10));
});

test('a payment signed with a FIDO credential on the user’s device COMPLETES', async (t) => {
  const { payee } = await payeeFsp();
  const fidoPisp = await hub.provision();
  const authenticator = await SoftAuthenticator.create({ ...FIDO_APP, format: 'packed' });
  const bob = userAt(dfsp, 'bob');
  const linked = await linkAccount(hub, fidoPisp, dfsp, fidoCredential(authenticator), { userId: bob.userId, scopes: scopesOf(bob.address) });
  t.is(linked.finished.method, 'PATCH');
  fidoPisp.react(async (r) => {
    if (!isTo('POST', '/thirdpartyRequests/authorizations')(r)) return;
    await hub.fspiop('PUT', `/thirdpartyRequests/authorizations/${r.body.authorizationRequestId}`, {
      source: fidoPisp.name,
      destination: dfsp.name,
      body: { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'FIDO', fidoSignedPayload: authenticator.assert(r.body.challenge) } },
    });
  });
  const before = balanceOf(bob.address);
  const request = transactionRequest(payee.name, { payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: bob.address, fspId: dfsp.name } });
  const outcome = await initiate(fidoPisp, request);
  t.deepEqual(outcome.body, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  const debited = String(Number(before) - 10);
  t.is(
    await pollUntil(
      async () => balanceOf(bob.address),
      (balance) => balance === debited,
    ),
    debited,
  );
});

test('a payment the user REJECTS ends with PATCH transactionRequestState REJECTED, and no transfer', async (t) => {
  const { payee } = await payeeFsp();
  const request = transactionRequest(payee.name);
  decisions.set(request.transactionRequestId, () => ({ responseType: 'REJECTED' }));
  const outcome = await initiate(pisp, request);
  t.is(outcome.method, 'PATCH');
  t.is(outcome.body.transactionRequestState, 'REJECTED');
  t.false(payee.received.some(isTo('POST', '/transfers')));
  t.is(finalOutcomes(pisp, request.transactionRequestId).length, 1);
});

test('a signature that does not verify at the Auth service ends with PUT …/error 7105, and no transfer', async (t) => {
  const { payee } = await payeeFsp();
  const request = transactionRequest(payee.name);
  const otherKey = new GenericSigner();
  decisions.set(request.transactionRequestId, ({ challenge }) => ({
    responseType: 'ACCEPTED',
    signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: otherKey.sign(challenge) },
  }));
  const outcome = await initiate(pisp, request);
  t.is(outcome.path, `${transactionPath(request.transactionRequestId)}/error`);
  t.is(outcome.body.errorInformation.errorCode, '7105');
  t.false(payee.received.some(isTo('POST', '/transfers')));
  t.is(finalOutcomes(pisp, request.transactionRequestId).length, 1);
});

/** A new customer of the DFSP's bank with one account holding `balance` USD, linked to the PISP; its account's address. */
async function linkedCustomer(who: string, balance: string): Promise<string> {
  const address = `${dfsp.name}.${who}.1`;
  dfsp.bank.customers.push({
    userId: `${who}.${dfsp.name}`,
    msisdn: `2557${crypto.randomInt(10 ** 7, 10 ** 8)}`,
    firstName: who,
    lastName: 'Test',
    dateOfBirth: '1990-01-01',
    authChannels: ['OTP'],
    accounts: [{ accountId: address, nickname: who, currency: 'USD', balance }],
  });
  const linked = await linkAccount(hub, pisp, dfsp, genericCredential(signer), { userId: `${who}.${dfsp.name}`, scopes: scopesOf(address) });
  if (linked.finished.method !== 'PATCH') throw new Error(`linking failed: ${JSON.stringify(linked.finished.body)}`);
  return address;
}

const fromAccount = (address: string) => ({ payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: address, fspId: dfsp.name } });

// Serial: the hub positions compared are the DFSP's, which the other tests' payments move too.
test.serial(
  'two payments together exceeding the balance: the amount is held at the check, so one COMPLETES and the other is refused 7101; the balance never goes negative and positions move once',
  async (t) => {
    const { payee } = await payeeFsp();
    const address = await linkedCustomer('carol', '100');
    const before = { payer: await hub.position(dfsp), payee: await hub.position(payee) };
    const requests = [0, 1].map(() => transactionRequest(payee.name, { ...fromAccount(address), amount: { amount: '80', currency: 'USD' } }));

    const outcomes = await Promise.all(requests.map((request) => initiate(pisp, request)));
    const completed = outcomes.filter((outcome) => outcome.method === 'PATCH');
    const refused = outcomes.filter((outcome) => outcome.method === 'PUT');
    t.is(completed.length, 1);
    t.deepEqual(completed[0]?.body, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
    t.is(refused.length, 1);
    t.is(refused[0]?.body.errorInformation.errorCode, '7101');
    t.is(payee.received.filter(isTo('POST', '/transfers')).length, 1, 'one transfer asked of the switch');
    t.is(await hub.position(dfsp), before.payer + 80);
    t.is(await hub.position(payee), before.payee - 80);
    // The hold is taken once the transfer committed; the PISP is told first, so the account follows shortly.
    t.is(
      await pollUntil(
        async () => balanceOf(address),
        (balance) => balance === '20',
      ),
      '20',
    );
    t.is(dfsp.bank.available(address), '20', 'nothing is held any more');
    for (const request of requests) t.is(finalOutcomes(pisp, request.transactionRequestId).length, 1);
  },
);

test('a quote whose transferAmount is more than the request’s amount (payee fees) is refused 7101 before the user is asked, and the hold is released', async (t) => {
  const { payee } = await payeeFsp({ fee: '1' });
  const address = await linkedCustomer('dave', '50');
  const request = transactionRequest(payee.name, { ...fromAccount(address), amount: { amount: '50', currency: 'USD' } });
  const outcome = await initiate(pisp, request);
  t.is(outcome.path, `${transactionPath(request.transactionRequestId)}/error`);
  t.is(outcome.body.errorInformation.errorCode, '7101');
  t.false(pisp.received.some((r) => isTo('POST', '/thirdpartyRequests/authorizations')(r) && r.body.transactionRequestId === request.transactionRequestId));
  t.false(payee.received.some(isTo('POST', '/transfers')));
  t.is(
    await pollUntil(
      async () => dfsp.bank.available(address),
      (available) => available === '50',
    ),
    '50',
  );
  t.is(balanceOf(address), '50');
});

test('a quote in another currency than the request’s is refused 7101, and nothing is transferred', async (t) => {
  const { payee } = await payeeFsp({ currency: 'EUR' });
  const request = transactionRequest(payee.name);
  const outcome = await initiate(pisp, request);
  t.is(outcome.body.errorInformation.errorCode, '7101');
  t.false(payee.received.some(isTo('POST', '/transfers')));
});

/** Payment rule 3: each refusal is PUT …/error 7101 before RECEIVED, with no quote asked. */
const refusals: Array<{ why: string; request: (payee: string) => ReturnType<typeof transactionRequest>; from?: () => Promise<SimulatedDfsp> }> = [
  {
    why: 'the payer is not a THIRD_PARTY_LINK',
    request: (payee) => transactionRequest(payee, { payer: { partyIdType: 'MSISDN', partyIdentifier: '27713803911', fspId: dfsp.name } }),
  },
  { why: 'the account was linked to another PISP than FSPIOP-Source', request: (payee) => transactionRequest(payee), from: () => hub.provision() },
  { why: 'the currency is not the account’s', request: (payee) => transactionRequest(payee, { amount: { amount: '10', currency: 'EUR' } }) },
  { why: 'the account does not hold the amount', request: (payee) => transactionRequest(payee, { amount: { amount: '5000', currency: 'USD' } }) },
  { why: 'payee.partyIdInfo.fspId is missing', request: () => transactionRequest(undefined) },
];

for (const { why, request: build, from } of refusals) {
  test(`a transaction request is refused with PUT …/error 7101 when ${why}`, async (t) => {
    const { payee } = await payeeFsp();
    const sender = from ? await from() : pisp;
    const request = build(payee.name);
    const outcome = await initiate(sender, request);
    t.is(outcome.path, `${transactionPath(request.transactionRequestId)}/error`);
    t.is(outcome.body.errorInformation.errorCode, '7101');
    t.false(sender.received.some(isTo('PUT', transactionPath(request.transactionRequestId))), 'never RECEIVED');
    t.false(payee.received.some(isTo('POST', '/quotes')));
  });
}

test('a consent that does not allow ACCOUNTS_TRANSFER, and a consent the PISP unlinked, pay nothing: 7101', async (t) => {
  const { payee } = await payeeFsp();
  const viewer = await hub.provision();
  const bob = userAt(dfsp, 'bob');
  const balanceOnly = await linkAccount(hub, viewer, dfsp, genericCredential(new GenericSigner()), {
    userId: bob.userId,
    scopes: scopesOf(bob.address, ['ACCOUNTS_GET_BALANCE']),
  });
  t.is(balanceOnly.finished.method, 'PATCH');
  const fromBob = transactionRequest(payee.name, { payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: bob.address, fspId: dfsp.name } });
  t.is((await initiate(viewer, fromBob)).body.errorInformation.errorCode, '7101');

  const leaver = await hub.provision();
  const linked = await linkAccount(hub, leaver, dfsp, genericCredential(new GenericSigner()));
  await hub.fspiop('DELETE', `/consents/${linked.consentId}`, { source: leaver.name, destination: dfsp.name });
  await pollUntil(
    () => dfsp.backends.thirdparty.consent(linked.consentId),
    (consent) => consent?.status === 'REVOKED',
  );
  t.is((await initiate(leaver, transactionRequest(payee.name))).body.errorInformation.errorCode, '7101');
  t.false(payee.received.some(isTo('POST', '/quotes')));
});

test('a status query is answered to the originator with the transactionRequestState, and to anyone else with 3206', async (t) => {
  const { payee } = await payeeFsp();
  const request = transactionRequest(payee.name);
  decisions.set(request.transactionRequestId, () => ({ responseType: 'REJECTED' }));
  await initiate(pisp, request);
  const path = transactionPath(request.transactionRequestId);
  const transactionId = (await pisp.waitFor(isTo('PUT', path))).body.transactionId;

  const stranger = await hub.provision();
  await hub.fspiop('GET', path, { source: stranger.name, destination: dfsp.name });
  const refused = await answerOrError(stranger, path);
  t.is(refused.path, `${path}/error`);
  t.is(refused.body.errorInformation.errorCode, '3206');

  const statuses = () => pisp.received.filter(isTo('PUT', path));
  await hub.fspiop('GET', path, { source: pisp.name, destination: dfsp.name });
  const answered = await pollUntil(
    async () => statuses(),
    (seen) => seen.length === 2,
  );
  t.deepEqual(answered[1]?.body, { transactionId, transactionRequestState: 'REJECTED' });
});

// Document 1, "Errors": the quote with the payee FSP fails, or the transfer does; the PISP is told once, nothing moves.
for (const step of ['quotes', 'transfers'] as const) {
  test.serial(
    `a payee FSP that refuses the ${step === 'quotes' ? 'quote' : 'transfer'} ends the request with one PUT …/error; no money moves and the hold is released`,
    async (t) => {
      const { payee } = await payeeFsp({ refuses: step });
      const address = await linkedCustomer(`refused${step}`, '40');
      const positions = [await hub.position(dfsp), await hub.position(payee)];
      const request = transactionRequest(payee.name, { ...fromAccount(address), amount: { amount: '15', currency: 'USD' } });
      const outcome = await initiate(pisp, request);
      t.is(outcome.path, `${transactionPath(request.transactionRequestId)}/error`, JSON.stringify(outcome.body));
      t.is(finalOutcomes(pisp, request.transactionRequestId).length, 1);
      const asked = pisp.received.some(
        (r) => isTo('POST', '/thirdpartyRequests/authorizations')(r) && r.body.transactionRequestId === request.transactionRequestId,
      );
      t.is(asked, step === 'transfers', 'the user is asked to sign only once the quote is in');
      t.deepEqual([await hub.position(dfsp), await hub.position(payee)], positions);
      t.is(
        await pollUntil(
          async () => dfsp.bank.available(address),
          (available) => available === '40',
        ),
        '40',
      );
      t.is(balanceOf(address), '40');
    },
  );
}
