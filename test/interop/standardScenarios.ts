import { loadConfig } from '../../activities/shared/platform/config';
import { onboardParticipant } from '../helpers/hubProcesses';
import type { Tapped } from './peers';
import { check, say } from './report';
import { CURRENCY, msisdn, position, type Hub } from './scheme';
import { StandardPeer, type StandardPeerOptions, type Version } from './standardPeers';

/**
 * Payments between DFSPs built on Mojaloop's sdk-standard-components 19.x (standardPeers.ts): two that speak FSPIOP 2.0
 * with ULIDs, a 2.0 payer paying a 1.1 payee, and (against a hub in ISO mode) two that speak ISO 20022.
 */

/** What the scenarios need of the run: the hub (its JWS keys, if on), the run's suffix for names, what to stop at the end. */
export interface StandardRun {
  hub: Hub;
  suffix: string;
  stoppers: Array<() => Promise<unknown>>;
}

/** The participant names of the FSPIOP peers, and of the ISO 20022 ones: each signs with a JWS key the run makes for it. */
export const standardIds = (suffix: string) => ({ payer: `v2payer${suffix}`, payee: `v2payee${suffix}`, legacyPayee: `v11payee${suffix}` });
export const isoIds = (suffix: string) => ({ payer: `isopayer${suffix}`, payee: `isopayee${suffix}` });

/** An error of MojaloopRequests (the hub's status and answer), or any other, in a check's words. */
function describe(error: unknown): string {
  const failed = error as { statusCode?: number; response?: { data?: unknown }; message?: string };
  return failed.statusCode ? `${failed.statusCode} ${JSON.stringify(failed.response?.data)}` : String(failed.message ?? error);
}

/** The FSPIOP version a message's Content-Type names. */
const versionOf = (message: Tapped | undefined) => /version=(\d+(?:\.\d+)?)/.exec(message?.headers['content-type'] ?? '')?.[1];

const refusalsOf = (peers: StandardPeer[], since: number[]) =>
  peers.flatMap((peer, index) => peer.refused(since[index]).map((m) => `${peer.name}: ${m.method} ${m.path} ${m.status} ${m.answer}`));

async function startPeer(run: StandardRun, options: Omit<StandardPeerOptions, 'switchUrl' | 'jws'>): Promise<StandardPeer> {
  const peer = await StandardPeer.start({ ...options, switchUrl: run.hub.switchUrl, jws: run.hub.jws });
  run.stoppers.push(() => peer.close());
  await onboardParticipant(run.hub.adminUrl, peer.name, `http://127.0.0.1:${peer.port}`, { currency: CURRENCY });
  return peer;
}

async function register(peer: StandardPeer, id: string, firstName: string): Promise<boolean> {
  const what = `${peer.name} (${peer.apiType} ${peer.version}) registers MSISDN ${id} with MojaloopRequests' POST /participants; the hub's PUT /participants/{requestId} lists it without error`;
  try {
    const answer = await peer.register({ id, firstName, lastName: 'Test' });
    const partyList: Array<{ errorInformation?: unknown }> = answer?.body?.partyList ?? [];
    return check(what, answer !== undefined && !answer.path.endsWith('/error') && partyList.length === 1 && !partyList[0].errorInformation, answer?.body);
  } catch (error) {
    return check(what, false, describe(error));
  }
}

interface Payment {
  quote: { request: any; answer?: Tapped };
  transfer?: { prepare: any; answer?: Tapped };
}

/** Lookup, quote and transfer, each answered by the payee peer itself, with the positions it moves; undefined if a step failed. */
async function pay(hub: Hub, payer: StandardPeer, payee: StandardPeer, payerId: string, payeeId: string, amount: string): Promise<Payment | undefined> {
  const [payerBefore, payeeBefore] = [await position(hub, payer.name), await position(hub, payee.name)];
  const since = [payer.received.length, payee.received.length];
  try {
    const party = await payer.lookup(payeeId);
    const found = party && (await payer.read(party));
    if (!check("lookup: the payee's PUT /parties reaches the payer, naming the payee's DFSP", found?.party?.partyIdInfo?.fspId === payee.name, party?.body)) {
      return undefined;
    }
    if (payee.version === '2.0') {
      check(
        "the party's supportedCurrencies (a field 2.0 added) reaches the payer as the payee sent it",
        found.party.supportedCurrencies?.[0] === CURRENCY,
        found.party,
      );
    }
    const quote = await payer.quote(payerId, payee.name, payeeId, amount);
    const terms = quote.answer && (await payer.read(quote.answer));
    if (
      !check(
        `quote: the payee's PUT /quotes reaches the payer: ${amount} ${CURRENCY} with an ILPv4 packet and its condition`,
        terms?.transferAmount?.amount === amount && Boolean(terms?.ilpPacket && terms?.condition),
        quote.answer?.body,
      )
    ) {
      return { quote };
    }
    const transfer = await payer.transfer({ request: quote.request, answer: quote.answer! }, payee.name);
    const fulfil = transfer.answer && (await payer.read(transfer.answer));
    check(
      "transfer: the payee's PUT /transfers reaches the payer COMMITTED, its fulfilment satisfying the quote's condition (Mojaloop's ILP check)",
      fulfil?.transferState === 'COMMITTED' && payer.fulfils(fulfil.fulfilment, terms.condition),
      transfer.answer?.body,
    );
    check(`the payer's position rose by ${amount}`, (await position(hub, payer.name)) === payerBefore + Number(amount));
    check(`the payee's position fell by ${amount}`, (await position(hub, payee.name)) === payeeBefore - Number(amount));
    const refused = refusalsOf([payer, payee], since);
    check("neither peer's Mojaloop checks (headers, JWS signature) refused a message the hub delivered", refused.length === 0, refused);
    return { quote, transfer };
  } catch (error) {
    check(`the payment from ${payer.name} to ${payee.name} went through the hub`, false, describe(error));
    return undefined;
  }
}

/** The messages `to` received from `from` since `since`. */
const sentBy = (to: StandardPeer, from: StandardPeer, since: number) => to.received.slice(since).filter((m) => m.headers['fspiop-source'] === from.name);

/** ULIDs in every ID the payment made: Crockford base 32, 26 characters, as 2.0 DFSPs generate them. */
function idsAreUlids(payment: Payment): boolean {
  const ids = [payment.quote.request.quoteId, payment.quote.request.transactionId, payment.transfer?.prepare.transferId];
  return ids.every((id) => typeof id === 'string' && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id));
}

async function samePair(run: StandardRun, payer: StandardPeer, payee: StandardPeer, payerId: string, payeeId: string): Promise<void> {
  const version = payer.version;
  say(`\n# Two FSPIOP ${version} DFSPs: lookup, quote, transfer${version === '2.0' ? ' with ULIDs' : ''}`);
  const since = [payer.received.length, payee.received.length];
  const payment = await pay(run.hub, payer, payee, payerId, payeeId, '21');
  if (!payment?.transfer) return;
  if (version === '2.0') check('the quote, its transaction and the transfer are identified by ULIDs', idsAreUlids(payment), payment.quote.request);
  const major = version.split('.')[0];
  const requests = sentBy(payee, payer, since[1]);
  check(
    `the payer's ${requests.length} requests reach the payee as sent: Content-Type version=${version}, Accept version=${major} or ${major}.0, signature valid`,
    requests.length === 3 &&
      requests.every((m) => versionOf(m) === version && new RegExp(`version=${major}(\\.0)?$`).test(m.headers.accept ?? '') && m.status === 202),
    requests.map((m) => [m.method, m.path, m.headers['content-type'], m.headers.accept, m.status]),
  );
  const callbacks = sentBy(payer, payee, since[0]);
  check(
    `the payee's ${callbacks.length} callbacks reach the payer as sent: Content-Type version=${version}, no Accept, signature valid`,
    callbacks.length === 3 && callbacks.every((m) => versionOf(m) === version && m.headers.accept === undefined && m.status === 200),
    callbacks.map((m) => [m.method, m.path, m.headers['content-type'], m.headers.accept, m.status]),
  );
}

/**
 * A 2.0 payer pays a 1.1 payee (a current DFSP set to send 1.1, which takes 1.x and 2.x as Mojaloop's header validation
 * does; sdk-scheme-adapter 18.0.2 cannot be that payee: it refuses a 2.0 Content-Type with 406). The switch forwards
 * each side's messages as they came, and the payee answers RESERVED, so the hub itself sends it a PATCH.
 */
async function mixedPair(run: StandardRun, payer: StandardPeer, payee: StandardPeer, payerId: string, payeeId: string): Promise<void> {
  say(
    `\n# A ${payer.version} payer pays a ${payee.version} payee that answers RESERVED: each side's messages are forwarded as they came, the hub's own are in a version their addressee speaks`,
  );
  const since = [payer.received.length, payee.received.length];
  const payment = await pay(run.hub, payer, payee, payerId, payeeId, '12');
  if (!payment?.transfer) return;
  const hubId = loadConfig().hubParticipantName;
  const requests = sentBy(payee, payer, since[1]);
  check(
    `the ${payer.version} payer's 3 requests reach the ${payee.version} payee unchanged (Content-Type version=${payer.version}, its Accept), and the payee's check of the payer's signature passes`,
    requests.length === 3 && requests.every((m) => versionOf(m) === payer.version && m.status === 202),
    requests.map((m) => [m.method, m.path, m.headers['content-type'], m.headers.accept, m.status, m.answer]),
  );
  const callbacks = sentBy(payer, payee, since[0]);
  check(
    `the ${payee.version} payee's PUT /parties and PUT /quotes reach the payer unchanged (Content-Type version=${payee.version}), and the payer's check of the payee's signature passes`,
    callbacks.length === 2 && callbacks.every((m) => versionOf(m) === payee.version && m.status === 200),
    callbacks.map((m) => [m.method, m.path, m.headers['content-type'], m.status, m.answer]),
  );
  const { answer } = payment.transfer;
  check(
    `after RESERVED the payer's PUT /transfers COMMITTED is the hub's own, in ${payer.version} (the version the payer writes in), signed by the hub, and passes its checks`,
    answer?.headers['fspiop-source'] === hubId && versionOf(answer) === payer.version && answer.status === 200,
    answer && [answer.headers['content-type'], answer.headers['fspiop-source'], answer.status, answer.answer],
  );
  const transferId = payment.transfer.prepare.transferId;
  const patch = await payee.waitFor((m) => m.method === 'PATCH' && m.path === `/transfers/${transferId}`, { since: since[1] });
  check(
    `the hub's own PATCH /transfers/{ID} COMMITTED reaches the payee in ${payee.version}, the version of its PUT (not the payer's ${payer.version} of the transfer), signed by the hub, and passes its checks`,
    patch?.body?.transferState === 'COMMITTED' && versionOf(patch) === payee.version && patch.headers['fspiop-source'] === hubId && patch.status === 200,
    patch && [patch.headers['content-type'], patch.headers['fspiop-source'], patch.body, patch.status, patch.answer],
  );
  try {
    const error = await payer.lookup(msisdn());
    check(
      `the hub's own error to the payer (3204 for a party nobody registered) is in ${payer.version}, the version the payer writes in, and passes its checks`,
      error?.body?.errorInformation?.errorCode === '3204' && versionOf(error) === payer.version && error.status === 200,
      error && [error.path, error.headers['content-type'], error.body, error.status, error.answer],
    );
  } catch (error) {
    check("the payer's lookup of a party nobody registered is taken (202)", false, describe(error));
  }
}

/**
 * Over the run: every message the hub itself sent a peer is in a version of the peer's own major, and passes the peer's
 * checks. Mojaloop's 19.x validator verifies the body re-serialised with its keys sorted (safe-stable-stringify), as
 * its signer sends every body, so a signature the hub made over a body in another key order does not hold there.
 */
function hubMessages(peers: StandardPeer[]): void {
  const hub = loadConfig().hubParticipantName;
  const fromHub = peers.flatMap((peer) => peer.received.filter((m) => m.headers['fspiop-source'] === hub).map((m) => ({ peer, m })));
  const show = ({ peer, m }: { peer: StandardPeer; m: Tapped }) =>
    `${peer.name} (${peer.version}): ${m.method} ${m.path} ${m.headers['content-type']} ${m.status} ${m.answer}`;
  const otherMajor = fromHub.filter(({ peer, m }) => versionOf(m)?.split('.')[0] !== peer.version.split('.')[0]);
  check(
    `each of the ${fromHub.length} messages the hub itself sent the standard-components peers is in the peer's own major version`,
    fromHub.length > 0 && otherMajor.length === 0,
    otherMajor.map(show),
  );
  const refused = fromHub.filter(({ m }) => m.status >= 400);
  check(
    `the peers' checks (Mojaloop's header validation and 19.x Jws.validator) pass each of the ${fromHub.length} messages the hub itself sent them`,
    fromHub.length > 0 && refused.length === 0,
    refused.map(show),
  );
}

/** The FSPIOP phase: a pair in `version` (2.0), then its payer with a 1.1 payee. */
export async function standardPeers(run: StandardRun, version: Version = '2.0'): Promise<void> {
  say("\n# DFSPs on Mojaloop's sdk-standard-components 19.19.1 (MojaloopRequests, Jws.validator, ILPv4), JWS " + (run.hub.jws ? 'on' : 'off'));
  const ids = standardIds(run.suffix);
  const payer = await startPeer(run, { name: ids.payer, version });
  const payee = await startPeer(run, { name: ids.payee, version });
  const legacyPayee = await startPeer(run, { name: ids.legacyPayee, version: '1.1', fulfil: 'RESERVED' });
  const [payerId, payeeId, legacyId] = [msisdn(), msisdn(), msisdn()];
  const registered = [await register(payer, payerId, 'Payer'), await register(payee, payeeId, 'Payee'), await register(legacyPayee, legacyId, 'Legacy')];
  if (registered[0] && registered[1]) await samePair(run, payer, payee, payerId, payeeId);
  if (registered[0] && registered[2]) await mixedPair(run, payer, legacyPayee, payerId, legacyId);
  hubMessages([payer, payee, legacyPayee]);
}

/**
 * The ISO 20022 phase, for a hub running with API_TYPE=iso20022 (one mode per deployment): two peers whose
 * MojaloopRequests send Mojaloop's ISO 20022 messages (acmt.024 parties, pacs.081/082 quotes, pacs.008/002
 * transfers; participants stay FSPIOP), reading what they receive with Mojaloop's transformer, pay each other.
 */
export async function iso20022Peers(run: StandardRun): Promise<void> {
  say(`\n# ISO 20022 DFSPs on Mojaloop's sdk-standard-components 19.19.1 (apiType iso20022), JWS ${run.hub.jws ? 'on' : 'off'}`);
  const ids = isoIds(run.suffix);
  const payer = await startPeer(run, { name: ids.payer, version: '2.0', apiType: 'iso20022' });
  const payee = await startPeer(run, { name: ids.payee, version: '2.0', apiType: 'iso20022' });
  const [payerId, payeeId] = [msisdn(), msisdn()];
  if (!(await register(payer, payerId, 'Payer')) || !(await register(payee, payeeId, 'Payee'))) return;
  const since = payee.received.length;
  const payment = await pay(run.hub, payer, payee, payerId, payeeId, '9');
  if (!payment?.transfer) return;
  const delivered = payee.received.slice(since).filter((m) => m.method === 'POST');
  check(
    "the payer's POST /quotes and POST /transfers reach the payee as ISO 20022 media types (pacs.081, pacs.008)",
    delivered.length === 2 && delivered.every((m) => m.headers['content-type']?.startsWith('application/vnd.interoperability.iso20022.')),
    delivered.map((m) => [m.path, m.headers['content-type']]),
  );
}
