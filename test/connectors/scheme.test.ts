import test from 'ava';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { State } from '../../activities/shared/contracts/searchAttributes';
import { startTestDfsp, startTestPisp } from '../helpers/connectors';
import { PispApp } from '../helpers/pispApp';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// A whole scheme from this codebase, every part real: the hub, two DFSP connectors over simulated banks and a PISP
// connector, each with its conversations in its own Temporal namespace. No participant is scripted: the PISP's app
// calls the PISP connector's outbound API, and the user reads the OTP on their phone or signs in at the bank. The
// tests run one after another: they read the same positions and balances.

let hub: SwitchHarness;
let dfspa: Awaited<ReturnType<typeof startTestDfsp>>;
let dfspb: Awaited<ReturnType<typeof startTestDfsp>>;
let pisp: Awaited<ReturnType<typeof startTestPisp>>;
let app: PispApp;

useSwitch(test, async (started) => {
  hub = started;
  [dfspa, dfspb] = await Promise.all([startTestDfsp(hub, { msisdnPrefix: '4470000001' }), startTestDfsp(hub, { msisdnPrefix: '4470000002' })]);
  pisp = await startTestPisp(hub);
  app = new PispApp(pisp.connector.outboundUrl);
  // Each bank registers its customers with the hub's account lookup, so payers can find them.
  for (const { name, bank } of [dfspa, dfspb]) {
    for (const { msisdn } of bank.customers) {
      const registered = await hub.fspiop('POST', `/participants/MSISDN/${msisdn}`, { source: name, body: { fspId: name } });
      if (registered.status !== 202) throw new Error(`${msisdn} not registered: ${JSON.stringify(registered.body)}`);
    }
  }
});

test.after.always(async () => {
  await Promise.all([dfspa, dfspb, pisp].map((participant) => participant?.connector.stop()));
});

const bankOf = (dfsp: typeof dfspa) => ({ id: dfsp.name, outboundUrl: dfsp.connector.outboundUrl });
const balance = (dfsp: typeof dfspa, userId: string) => dfsp.bank.customerByUserId(userId)!.accounts[0].balance;
const device = () => SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });

test.serial('pre-linking lists the third-party DFSPs the switch knows, and not the PISP', async (t) => {
  const { body } = await app.call('GET', '/linking/providers');
  t.is(body.currentState, 'providersLookupSuccess');
  t.true(body.providers.includes(dfspa.name) && body.providers.includes(dfspb.name));
  t.false(body.providers.includes(pisp.name));
});

test.serial('a user links by OTP with a GENERIC credential and pays a customer of another bank: every party ends where Document 1 says', async (t) => {
  const alice = `alice.${dfspa.name}`;
  const linked = await app.link(bankOf(dfspa), alice, 'GENERIC');
  t.is(linked.channel, 'OTP', 'the bank authenticates Alice by OTP');
  const link = await hub.fspiop('GET', `/participants/THIRD_PARTY_LINK/${linked.account}`, { source: pisp.name });
  t.is(link.status, 202, 'the DFSP registered the account as a THIRD_PARTY_LINK');

  const bob = dfspb.bank.customerByUserId(`bob.${dfspb.name}`)!;
  const [payerBefore, payeeBefore] = [await hub.position(dfspa), await hub.position(dfspb)];
  const payment = await app.pay({ bank: dfspa.name, account: linked.account }, bob.msisdn, '10', 'GENERIC');
  t.is(payment.outcome.body.currentState, 'transactionStatusReceived', JSON.stringify(payment.outcome.body));
  t.like(payment.outcome.body.transactionStatus, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  t.is(await hub.position(dfspa), payerBefore + 10);
  t.is(await hub.position(dfspb), payeeBefore - 10);
  t.is(balance(dfspa, alice), '990', "Alice's account is debited once");
  t.is(bob.accounts[0].balance, '510', "Bob's account is credited once");

  const conversations = [
    [pisp.connector.client, participantWorkflowIds.pispTransaction(payment.transactionRequestId), 'transactionStatusReceived'],
    [dfspa.connector.client, participantWorkflowIds.dfspThirdpartyTransaction(payment.transactionRequestId), 'COMPLETED'],
    [hub.worker.client, workflowIds.thirdpartyTransaction(payment.transactionRequestId), 'COMPLETED'],
  ] as const;
  for (const [client, workflowId, state] of conversations) {
    const described = await client.workflow.getHandle(workflowId).describe();
    t.is(described.typedSearchAttributes.get(State), state, workflowId);
  }
});

test.serial('a user links by WEB with a FIDO credential, pays with a FIDO assertion, and a payment the user rejects moves nothing', async (t) => {
  const bobId = `bob.${dfspb.name}`;
  const phone = await device();
  const linked = await app.link(bankOf(dfspb), bobId, phone);
  t.is(linked.channel, 'WEB', "Bob signs in at his bank's login page");

  const alice = dfspa.bank.customerByUserId(`alice.${dfspa.name}`)!;
  const before = alice.accounts[0].balance;
  const paid = await app.pay({ bank: dfspb.name, account: linked.account }, alice.msisdn, '5', phone);
  t.like(paid.outcome.body.transactionStatus, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
  t.is(Number(alice.accounts[0].balance), Number(before) + 5);

  const positions = [await hub.position(dfspa), await hub.position(dfspb)];
  const rejected = await app.pay({ bank: dfspb.name, account: linked.account }, alice.msisdn, '7', 'REJECTED');
  t.is(rejected.outcome.body.currentState, 'transactionStatusReceived');
  t.like(rejected.outcome.body.transactionStatus, { transactionRequestState: 'REJECTED' });
  t.deepEqual([await hub.position(dfspa), await hub.position(dfspb)], positions, 'a rejected payment moves no money');
});

test.serial('after the user unlinks, a payment from that account is refused and moves nothing', async (t) => {
  // Bob's account at dfspa, linked only here: another consent to the same account would still let it pay.
  const bobAtA = `bob.${dfspa.name}`;
  const linked = await app.link(bankOf(dfspa), bobAtA, 'GENERIC');
  const unlinked = await app.call('DELETE', `/linking/consents/${linked.consentId}`);
  t.is(unlinked.body.currentState, 'consentRevoked', JSON.stringify(unlinked.body));
  t.is(unlinked.body.consent.status, 'REVOKED');

  const payee = dfspb.bank.customerByUserId(`alice.${dfspb.name}`)!;
  const before = { positions: [await hub.position(dfspa), await hub.position(dfspb)], balance: balance(dfspa, bobAtA) };
  const refused = await app.pay({ bank: dfspa.name, account: linked.account }, payee.msisdn, '3', 'GENERIC');
  t.not(refused.outcome.body.transactionStatus?.transactionState, 'COMPLETED', JSON.stringify(refused.outcome.body));
  t.is(refused.outcome.body.currentState, 'errored');
  t.deepEqual([await hub.position(dfspa), await hub.position(dfspb)], before.positions);
  t.is(balance(dfspa, bobAtA), before.balance);
});
