import crypto from 'node:crypto';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkQuoteBody, bulkTransferBody, ilpPair, quoteBody, transactionRequestBody, transferBody } from '../helpers/fspiopBodies';
import { GenericSigner } from '../helpers/softAuthenticator';
import { sendAccepted, type SwitchHarness } from '../helpers/switchHarness';
import { AUTH_SERVICE, genericCredential, linkThroughSwitch, Linking } from '../helpers/thirdpartyFlows';

/** The IDs a hostile message may name for one kind of conversation: one still running, and one already decided. */
export interface ConversationIds {
  inFlight: string;
  finished?: string;
}

/**
 * The scheme the fuzz suite attacks: a payer and a payee with conversations between them in flight, a third DFSP that
 * is party to none of them, a PISP linked to the payer through the hub's Auth service, a deactivated participant, and a
 * party the payer registered in the account lookup.
 */
export interface FuzzScheme {
  hub: SwitchHarness;
  payer: SimulatedDfsp;
  payee: SimulatedDfsp;
  stranger: SimulatedDfsp;
  pisp: SimulatedDfsp;
  inactive: string;
  conversations: {
    transfers: ConversationIds;
    quotes: ConversationIds;
    bulkQuotes: ConversationIds;
    bulkTransfers: ConversationIds;
    transactionRequests: ConversationIds;
  };
  /** The payer's party in the account lookup. */
  party: { partyIdType: 'MSISDN'; partyIdentifier: string };
  linking: Linking;
  /** The SETTLEMENT account of each participant, by name. */
  settlementAccounts: Record<string, number>;
}

/** Long enough to outlast the run: what is in flight stays so, unless a hostile message changes it. */
const IN_FLIGHT_MS = 15 * 60_000;

/** The first such request, or with `id` the first whose body carries that ID: two POST /transfers share a path. */
const received = (dfsp: SimulatedDfsp, method: string, path: string, id?: string) =>
  dfsp.waitFor((r) => r.method === method && r.path === path && (id === undefined || r.body?.transferId === id), 30_000, `${method} ${path}`);

/** Onboards the participants and leaves each kind of conversation in flight between payer and payee. */
export async function setUpScheme(hub: SwitchHarness): Promise<FuzzScheme> {
  const [payer, payee, stranger] = [await hub.provision(), await hub.provision(), await hub.provision()];
  const pisp = await hub.provision({ role: 'pisp' });
  const inactive = (await hub.provision()).name;
  await hub.admin.call('PUT', `/participants/${inactive}`, { isActive: false });

  // A transfer the payee never answers (its reservation stays), and one it fulfilled.
  const open = transferBody(payer.name, payee.name, '1', { expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/transfers', payer.name, payee.name, open);
  await received(payee, 'POST', '/transfers', open.transferId);
  const { fulfilment, condition } = ilpPair();
  const done = transferBody(payer.name, payee.name, '2', { condition, expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/transfers', payer.name, payee.name, done);
  // Fulfilled only once prepared: a PUT for a transfer the hub has not recorded yet is not taken as its answer.
  await received(payee, 'POST', '/transfers', done.transferId);
  await sendAccepted(hub, 'PUT', `/transfers/${done.transferId}`, payee.name, payer.name, {
    transferState: 'COMMITTED',
    fulfilment,
    completedTimestamp: new Date().toISOString(),
  });
  await received(payer, 'PUT', `/transfers/${done.transferId}`);

  const quote = quoteBody(payer.name, payee.name, '1', { expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/quotes', payer.name, payee.name, quote);
  const bulkQuote = bulkQuoteBody(payer.name, payee.name, 1, { expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/bulkQuotes', payer.name, payee.name, bulkQuote);
  const bulkTransfer = bulkTransferBody(payer.name, payee.name, [bulkItem('1')], { expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/bulkTransfers', payer.name, payee.name, bulkTransfer);
  // The payee asks the payer to pay.
  const transactionRequest = transactionRequestBody(payee.name, payer.name, '1', { expiresInMs: IN_FLIGHT_MS });
  await sendAccepted(hub, 'POST', '/transactionRequests', payee.name, payer.name, transactionRequest);
  await Promise.all([
    received(payee, 'POST', '/quotes'),
    received(payee, 'POST', '/bulkQuotes'),
    received(payee, 'POST', '/bulkTransfers'),
    received(payer, 'POST', '/transactionRequests'),
  ]);

  const party = { partyIdType: 'MSISDN' as const, partyIdentifier: String(27_700_000_000 + crypto.randomInt(99_999_999)) };
  await sendAccepted(hub, 'POST', `/participants/MSISDN/${party.partyIdentifier}`, payer.name, undefined, { fspId: payer.name });
  await received(payer, 'PUT', `/participants/MSISDN/${party.partyIdentifier}`);

  const signer = new GenericSigner();
  const linking = await linkThroughSwitch(hub, payer, pisp, (consentId, scopes) => genericCredential(signer, consentId, scopes));
  await payer.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${linking.consentId}` && r.headers['fspiop-source'] === AUTH_SERVICE);

  const settlementAccounts: Record<string, number> = {};
  for (const dfsp of [payer, payee, stranger, pisp]) {
    const accounts: Array<{ id: number; ledgerAccountType: string }> = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body;
    settlementAccounts[dfsp.name] = accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!.id;
  }

  return {
    hub,
    payer,
    payee,
    stranger,
    pisp,
    inactive,
    conversations: {
      transfers: { inFlight: open.transferId, finished: done.transferId },
      quotes: { inFlight: quote.quoteId },
      bulkQuotes: { inFlight: bulkQuote.bulkQuoteId },
      bulkTransfers: { inFlight: bulkTransfer.bulkTransferId },
      transactionRequests: { inFlight: transactionRequest.transactionRequestId },
    },
    party,
    linking,
    settlementAccounts,
  };
}
