/**
 * The connectors' part of `npm run record-histories`: a scheme of real connectors at the test switch (two DFSP
 * connectors over simulated banks, a PISP connector and its app), run through the conversations whose histories
 * test/replay/replay.test.ts replays against each role's bundle, each read from the connector's own namespace.
 * Scenarios are recorded by name (`npm run record-histories -- payments`), each writing several histories.
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { accountsLookupId } from '../../api/pisp/pispInbound';
import { thirdpartyWorkflowIds } from '../../workflows/dfsp/thirdpartyContracts';
import { startTestDfsp, startTestPisp } from '../helpers/connectors';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { pollUntil } from '../helpers/polling';
import { type Bank, callApi, type Credential, type Linked, PispApp } from '../helpers/pispApp';
import type { SwitchHarness } from '../helpers/switchHarness';

type TestDfsp = Awaited<ReturnType<typeof startTestDfsp>>;

/** The connectors the scenarios run on, and the links made so far (a scenario that needs one makes it only once). */
export interface ConnectorScheme {
  hub: SwitchHarness;
  /** Alice's bank: the payer DFSP. */
  dfspa: TestDfsp;
  /** Bob's bank: the payee DFSP. */
  dfspb: TestDfsp;
  pisp: Awaited<ReturnType<typeof startTestPisp>>;
  app: PispApp;
  link(dfsp: TestDfsp, user: 'alice' | 'bob', credential: 'GENERIC' | 'FIDO'): Promise<Linked & { credential: Credential }>;
  stop(): Promise<void>;
}

/** A connector conversation to record: its role (the bundle it replays against), file name and where to read it. */
export interface ConnectorHistory {
  role: 'dfsp' | 'pisp';
  name: string;
  client: Client;
  workflowId: string;
}

export async function startConnectorScheme(hub: SwitchHarness): Promise<ConnectorScheme> {
  const [dfspa, dfspb] = await Promise.all([startTestDfsp(hub, { msisdnPrefix: '4470000001' }), startTestDfsp(hub, { msisdnPrefix: '4470000002' })]);
  const pisp = await startTestPisp(hub);
  // Each bank registers its customers with the hub's account lookup, so the PISP finds the payee without its FSP.
  for (const { name, bank } of [dfspa, dfspb]) {
    for (const { msisdn } of bank.customers) {
      const registered = await hub.fspiop('POST', `/participants/MSISDN/${msisdn}`, { source: name, body: { fspId: name } });
      if (registered.status !== 202) throw new Error(`${msisdn} not registered: ${JSON.stringify(registered.body)}`);
    }
  }
  const app = new PispApp(pisp.connector.outboundUrl);
  const links = new Map<string, Promise<Linked & { credential: Credential }>>();
  return {
    hub,
    dfspa,
    dfspb,
    pisp,
    app,
    link(dfsp, user, kind) {
      const key = `${user}.${dfsp.name}`;
      if (!links.has(key)) {
        const bank: Bank = { id: dfsp.name, outboundUrl: dfsp.connector.outboundUrl };
        const made = (async () => {
          const credential: Credential =
            kind === 'GENERIC' ? 'GENERIC' : await SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });
          return { ...(await app.link(bank, key, credential)), credential };
        })();
        links.set(key, made);
      }
      return links.get(key)!;
    },
    async stop() {
      await Promise.all([dfspa, dfspb, pisp].map(({ connector }) => connector.stop()));
    },
  };
}

/** The IDs of a connector's runs of `workflowType` whose ID starts with `prefix`, once its visibility lists one. */
async function listed(client: Client, workflowType: string, prefix: string): Promise<string[]> {
  const ids = async () => {
    const found: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowType = '${workflowType}'` })) {
      if (execution.workflowId.startsWith(prefix)) found.push(execution.workflowId);
    }
    return found;
  };
  const found = await pollUntil(ids, (seen) => seen.length > 0);
  if (found.length === 0) throw new Error(`no ${workflowType} run ${prefix}… in ${client.options.namespace}`);
  return found;
}

/** The workflow once it has been started (a conversation the switch's message starts some time after the scenario acts). */
async function started(client: Client, workflowId: string): Promise<string> {
  const described = await pollUntil(
    () =>
      client.workflow
        .getHandle(workflowId)
        .describe()
        .catch(() => undefined),
    (description) => description !== undefined,
  );
  if (!described) throw new Error(`${workflowId} never started in ${client.options.namespace}`);
  return workflowId;
}

type ConnectorScenario = (scheme: ConnectorScheme) => Promise<ConnectorHistory[]>;

export const connectorScenarios: Record<string, ConnectorScenario> = {
  /**
   * Alice links her account at bank A by OTP (the channel her bank has for her) with the PISP's GENERIC key, Bob his
   * at bank B by WEB with a FIDO device.
   */
  linking: async ({ dfspa, dfspb, pisp, link }) => {
    const generic = await link(dfspa, 'alice', 'GENERIC');
    const fido = await link(dfspb, 'bob', 'FIDO');
    if (generic.channel !== 'OTP' || fido.channel !== 'WEB') throw new Error(`linked by ${generic.channel} and ${fido.channel}, not OTP and WEB`);
    const [accounts] = await listed(dfspa.connector.client, 'dfspAccounts', thirdpartyWorkflowIds.accounts(`alice.${dfspa.name}`, ''));
    const atPisp = (name: string, workflowId: string): ConnectorHistory => ({ role: 'pisp', name, client: pisp.connector.client, workflowId });
    const atDfsp = (dfsp: TestDfsp, name: string, workflowId: string): ConnectorHistory => ({ role: 'dfsp', name, client: dfsp.connector.client, workflowId });
    return [
      atPisp('pispLinking-linked-otp-generic', participantWorkflowIds.pispLinking(generic.consentRequestId)),
      atPisp('pispLinking-linked-web-fido', participantWorkflowIds.pispLinking(fido.consentRequestId)),
      atDfsp(dfspa, 'dfspLinking-linked-otp-generic', participantWorkflowIds.dfspLinking(generic.consentRequestId)),
      atDfsp(dfspb, 'dfspLinking-linked-web-fido', participantWorkflowIds.dfspLinking(fido.consentRequestId)),
      // Discovery's GET /accounts as the PISP sends it (an exchange) and as the DFSP answers it.
      atPisp('exchange-accounts', participantWorkflowIds.exchange('accounts', accountsLookupId(dfspa.name, `alice.${dfspa.name}`))),
      atDfsp(dfspa, 'dfspAccounts-answered', accounts),
    ];
  },

  /**
   * Alice pays Bob from her linked account, then rejects a payment, then asks for more than she holds (refused under
   * payment rule 3); the PISP then asks bank A how the first payment stands.
   */
  payments: async ({ hub, dfspa, dfspb, pisp, app, link }) => {
    const { account, credential } = await link(dfspa, 'alice', 'GENERIC');
    const from = { bank: dfspa.name, account };
    const bob = dfspb.bank.customerByUserId(`bob.${dfspb.name}`)!.msisdn;
    const completed = await app.pay(from, bob, '10', credential);
    if (completed.outcome.body?.transactionStatus?.transactionState !== 'COMPLETED') throw new Error(`payment: ${JSON.stringify(completed.outcome.body)}`);
    const rejected = await app.pay(from, bob, '7', 'REJECTED');
    if (rejected.outcome.body?.transactionStatus?.transactionRequestState !== 'REJECTED')
      throw new Error(`rejection: ${JSON.stringify(rejected.outcome.body)}`);
    const refused = await app.pay(from, bob, '5000', credential);
    if (refused.outcome.body?.errorInformation?.errorCode !== '7101') throw new Error(`refusal: ${JSON.stringify(refused.outcome.body)}`);

    const id = completed.transactionRequestId;
    await hub.fspiop('GET', `/thirdpartyRequests/transactions/${id}`, { source: pisp.name, destination: dfspa.name });
    const [status] = await listed(dfspa.connector.client, 'dfspTransactionStatus', thirdpartyWorkflowIds.transactionStatus(id, ''));
    const conversations = (variant: string, transactionRequestId: string): ConnectorHistory[] => [
      {
        role: 'pisp',
        name: `pispTransaction-${variant}`,
        client: pisp.connector.client,
        workflowId: participantWorkflowIds.pispTransaction(transactionRequestId),
      },
      {
        role: 'dfsp',
        name: `dfspThirdpartyTransaction-${variant}`,
        client: dfspa.connector.client,
        workflowId: participantWorkflowIds.dfspThirdpartyTransaction(transactionRequestId),
      },
    ];
    return [
      ...conversations('completed', id),
      ...conversations('rejected', rejected.transactionRequestId),
      ...conversations('refused', refused.transactionRequestId),
      { role: 'dfsp', name: 'dfspTransactionStatus-answered', client: dfspa.connector.client, workflowId: status },
    ];
  },

  /** Bank A's own systems send Alice's money to Bob at bank B on its outbound API: lookup, quote and transfer, each answered by bank B. */
  transfer: async ({ dfspa, dfspb }) => {
    const bob = dfspb.bank.customerByUserId(`bob.${dfspb.name}`)!.msisdn;
    const alice = dfspa.bank.customerByUserId(`alice.${dfspa.name}`)!.msisdn;
    const { status, body: transfer } = await callApi(dfspa.connector.outboundUrl, 'POST', '/transfers', {
      homeTransactionId: crypto.randomUUID(),
      from: { idType: 'MSISDN', idValue: alice },
      to: { idType: 'MSISDN', idValue: bob, fspId: dfspb.name },
      amountType: 'SEND',
      currency: 'USD',
      amount: '25',
      transactionType: 'TRANSFER',
      // Short-lived, so bank B's quote and transfer conversations end (they take repeats until expiry) and are recorded whole.
      quoteExpirySeconds: 2,
      prepareExpirySeconds: 5,
    });
    if (transfer?.currentState !== 'COMPLETED') throw new Error(`transfer: ${status} ${JSON.stringify(transfer)}`);
    const { client } = dfspb.connector;
    const [party] = await listed(client, 'payeeParty', participantWorkflowIds.payeeParty(`MSISDN/${bob}`, ''));
    return [
      { role: 'dfsp', name: 'dfspTransfer-completed', client: dfspa.connector.client, workflowId: participantWorkflowIds.dfspTransfer(transfer.transferId) },
      { role: 'dfsp', name: 'exchange-quotes', client: dfspa.connector.client, workflowId: participantWorkflowIds.exchange('quotes', transfer.quoteId) },
      { role: 'dfsp', name: 'payeeParty-found', client, workflowId: party },
      { role: 'dfsp', name: 'payeeQuote-quoted', client, workflowId: participantWorkflowIds.payeeQuote(transfer.quoteId) },
      { role: 'dfsp', name: 'payeeTransfer-committed', client, workflowId: participantWorkflowIds.payeeTransfer(transfer.transferId) },
    ];
  },

  /** Bob links his account at bank A, and the PISP unlinks it: the hub's Auth service revokes the consent and tells the bank. */
  unlinking: async ({ hub, dfspa, pisp, app, link }) => {
    const { consentId, consentRequestId } = await link(dfspa, 'bob', 'GENERIC');
    // A repeated POST /consentRequests of the finished linking, as a PISP that lost its answer sends it.
    const repeated = await hub.fspiop('POST', '/consentRequests', {
      source: pisp.name,
      destination: dfspa.name,
      body: {
        consentRequestId,
        userId: `bob.${dfspa.name}`,
        scopes: [{ address: `${dfspa.name}.bob.1`, actions: ['ACCOUNTS_TRANSFER'] }],
        authChannels: ['OTP'],
        callbackUri: 'https://pisp.example.org/linked',
      },
    });
    if (repeated.status !== 202) throw new Error(`repeated POST /consentRequests: ${repeated.status} ${JSON.stringify(repeated.body)}`);
    const [repeat] = await listed(dfspa.connector.client, 'dfspConsentRequestRepeat', thirdpartyWorkflowIds.consentRequestRepeat(consentRequestId, ''));
    // The user unlinks through the PISP's app: DELETE /consents/{ID} reaches the hub's Auth service, which tells both.
    const unlinked = await app.call('DELETE', `/linking/consents/${consentId}`);
    if (unlinked.body?.currentState !== 'consentRevoked') throw new Error(`unlinking: ${unlinked.status} ${JSON.stringify(unlinked.body)}`);
    const workflowId = await started(dfspa.connector.client, thirdpartyWorkflowIds.unlinking(consentId));
    return [
      { role: 'dfsp', name: 'dfspUnlinking-revoked', client: dfspa.connector.client, workflowId },
      { role: 'dfsp', name: 'dfspConsentRequestRepeat-answered', client: dfspa.connector.client, workflowId: repeat },
      { role: 'pisp', name: 'pispUnlinking-revoked', client: pisp.connector.client, workflowId: participantWorkflowIds.pispUnlinking(consentId) },
    ];
  },
};
