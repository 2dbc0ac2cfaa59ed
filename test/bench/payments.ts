// The hub scenario of `npm run bench`: two DFSPs provisioned as an operator would, a payee that answers quotes and
// fulfils transfers, and a payer whose virtual users pay through the switch and keep their own books.

import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sign } from '../../activities/shared/platform/jws';
import { Decimal } from '../../activities/hub/db/money';
import { SimulatedDfsp, type ReceivedRequest } from '../helpers/dfsp';
import { bulkItem, bulkTransferBody, ilpPair, quoteBody, transferBody } from '../helpers/fspiopBodies';
import { adminCall as callAdmin } from '../helpers/hubProcesses';
import type { Mode } from './options';
import type { Sample } from './statistics';

export const CURRENCY = 'USD';
/** Large enough that no benchmark run reaches it: the bench measures the happy path. */
const NET_DEBIT_CAP = 1_000_000_000;
const FUNDS_IN = 1_000_000_000;
/** Transfer expiration: well beyond the callback timeout, so a slow transfer is counted as a timeout, not aborted. */
export const TRANSFER_EXPIRY_MS = 60_000;

/** A call to the hub's admin API that must succeed; its JSON answer. */
export async function adminCall(adminUrl: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const answer = await callAdmin(adminUrl, method, urlPath, body);
  if (answer.status >= 300) throw new Error(`admin ${method} ${urlPath}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The DFSPs' private keys by name, with --jws. */
export type SigningKeys = Map<string, crypto.KeyObject>;

/** An FSPIOP request or callback with the headers a DFSP sends (as test/helpers/switchHarness.ts fspiop()), signed with its key if it has one. */
export async function fspiop(
  switchUrl: string,
  method: string,
  urlPath: string,
  source: string,
  destination: string,
  body: unknown,
  keys: SigningKeys,
): Promise<{ status: number; text: string }> {
  const resource = urlPath.split('/')[1];
  const media = `application/vnd.interoperability.${resource}+json;version=1.1`;
  const headers: Record<string, string> = {
    'content-type': media,
    date: new Date().toUTCString(),
    'fspiop-source': source,
    'fspiop-destination': destination,
  };
  if (method !== 'PUT' && method !== 'PATCH') headers.accept = media;
  const text = JSON.stringify(body);
  const key = keys.get(source);
  if (key) {
    Object.assign(headers, { 'fspiop-uri': urlPath, 'fspiop-http-method': method });
    headers['fspiop-signature'] = await sign(headers, text, key);
  }
  const response = await fetch(`${switchUrl}${urlPath}`, { method, headers, body: text });
  return { status: response.status, text: await response.text() };
}

export async function provision(adminUrl: string, name: string, dfsp: SimulatedDfsp): Promise<void> {
  const created = await adminCall(adminUrl, 'POST', '/participants', { name, currency: CURRENCY });
  await adminCall(adminUrl, 'PUT', `/participants/${name}`, { isActive: true });
  for (const endpoint of dfsp.endpoints()) await adminCall(adminUrl, 'POST', `/participants/${name}/endpoints`, endpoint);
  await adminCall(adminUrl, 'POST', `/participants/${name}/initialPositionAndLimits`, {
    currency: CURRENCY,
    limit: { type: 'NET_DEBIT_CAP', value: NET_DEBIT_CAP },
    initialPosition: 0,
  });
  const settlement = created.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT' && a.currency === CURRENCY).id;
  await adminCall(adminUrl, 'POST', `/participants/${name}/accounts/${settlement}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'bench opening deposit',
    action: 'recordFundsIn',
    reason: 'bench',
    amount: { amount: FUNDS_IN, currency: CURRENCY },
  });
}

interface Arrival {
  error: boolean;
  body: any;
  at: number;
}

export type TransferState = 'sent' | 'committed' | 'aborted' | 'refused' | 'other';

/** The payer side: callbacks routed to the user waiting for them, and every transfer's outcome as the payer heard it. */
export class PayerSide {
  private readonly waiters = new Map<string, (arrival: Arrival) => void>();
  /** Every transfer sent, its amount, what the payer heard of it, and whether the switch accepted its POST (202). */
  readonly transfers = new Map<string, { amount: string; state: TransferState; accepted: boolean }>();
  /** Every quote and bulk transfer sent, for the history sample of the breakdown. */
  readonly quoteIds: string[] = [];
  readonly bulkTransferIds: string[] = [];
  unmatched = 0;
  contradictions: string[] = [];

  constructor(readonly dfsp: SimulatedDfsp) {
    dfsp.react((request) => this.received(request));
  }

  private received(request: ReceivedRequest): void {
    const at = performance.now();
    this.dfsp.received.length = 0; // the bench keeps its own books; don't let the simulator's list grow
    const match = /^\/(quotes|transfers|bulkTransfers)\/([^/?]+)(\/error)?$/.exec(request.path);
    if (request.method !== 'PUT' || !match) {
      this.unmatched++;
      return;
    }
    const [, resource, id, errorSuffix] = match;
    const error = Boolean(errorSuffix);
    if (resource === 'transfers') this.told(id, error ? 'aborted' : request.body?.transferState === 'COMMITTED' ? 'committed' : 'other');
    if (resource === 'bulkTransfers') {
      // Each item's result: a fulfilment when it committed, errorInformation when it did not. An error callback for
      // the whole bulk means no item moved.
      const results: Array<{ transferId: string; fulfilment?: string }> = error ? [] : (request.body?.individualTransferResults ?? []);
      const items = this.bulkItems.get(id) ?? [];
      for (const transferId of items) {
        const result = results.find((r) => r.transferId === transferId);
        this.told(transferId, result?.fulfilment ? 'committed' : 'aborted');
      }
    }
    const key = `${resource}/${id}`;
    const waiter = this.waiters.get(key);
    if (waiter) {
      this.waiters.delete(key);
      waiter({ error, body: request.body, at });
    } else {
      this.unmatched++;
    }
  }

  /** The items of each bulk transfer sent, by bulk transfer ID. */
  readonly bulkItems = new Map<string, string[]>();

  /** Records what the payer heard of a transfer; hearing two different outcomes is a contradiction. */
  private told(transferId: string, state: TransferState): void {
    const transfer = this.transfers.get(transferId);
    if (!transfer) return;
    if (transfer.state !== 'sent' && transfer.state !== 'refused' && transfer.state !== state) {
      this.contradictions.push(`transfer ${transferId}: payer told ${transfer.state}, later ${state}`);
    }
    transfer.state = state;
  }

  /** Registers interest in the callback for `key` (before the request is sent); undefined on timeout. */
  expect(key: string, timeoutMs: number): { arrival: Promise<Arrival | undefined>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<Arrival | undefined>((resolve) => {
      timer = setTimeout(() => {
        this.waiters.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.set(key, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    return {
      arrival,
      cancel: () => {
        clearTimeout(timer);
        this.waiters.delete(key);
      },
    };
  }

  get undecided(): number {
    let n = 0;
    for (const t of this.transfers.values()) if (t.state === 'sent') n++;
    return n;
  }
}

/** The conditions a payee issued and the fulfilment of each. */
export type Fulfilments = Map<string, string>;

/**
 * The payee side: answers every quote with a fresh condition, and fulfils every transfer whose condition it issued
 * (in a quote, or in `fulfilments` directly for a pre-quoted transfer).
 */
export function payeeAnswers(payee: SimulatedDfsp, switchUrl: string, keys: SigningKeys, onError: (kind: string) => void): Fulfilments {
  const fulfilments: Fulfilments = new Map();
  payee.react(async (request) => {
    payee.received.length = 0;
    if (request.method !== 'POST') return; // PATCH notifications and error callbacks need no answer
    const payerFsp = String(request.headers['fspiop-source']);
    const answer = async (resource: string, id: string, body: object) => {
      const sent = await fspiop(switchUrl, 'PUT', `/${resource}/${id}`, payee.name, payerFsp, body, keys);
      if (sent.status !== 200) onError(`payee PUT /${resource} → ${sent.status}`);
    };
    if (request.path === '/quotes') {
      const { fulfilment, condition } = ilpPair();
      fulfilments.set(condition, fulfilment);
      await answer('quotes', request.body.quoteId, {
        transferAmount: request.body.amount,
        expiration: new Date(Date.now() + TRANSFER_EXPIRY_MS).toISOString(),
        ilpPacket: Buffer.from(`bench ilp packet ${request.body.quoteId}`).toString('base64url'),
        condition,
      });
    } else if (request.path === '/transfers') {
      const fulfilment = fulfilments.get(request.body.condition);
      // Kept after use: a POST the switch sends again (after a crash, say) is answered again, as a payee's records would.
      if (!fulfilment) return onError('payee: transfer with a condition it never issued');
      await answer('transfers', request.body.transferId, { fulfilment, completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' });
    } else if (request.path === '/bulkTransfers') {
      const items: Array<{ transferId: string; condition: string }> = request.body.individualTransfers;
      const unknown = items.filter((item) => !fulfilments.has(item.condition)).length;
      if (unknown > 0) onError(`payee: ${unknown} bulk item(s) with a condition it never issued`);
      await answer('bulkTransfers', request.body.bulkTransferId, {
        completedTimestamp: new Date().toISOString(),
        individualTransferResults: items
          .filter((item) => fulfilments.has(item.condition))
          .map((item) => ({ transferId: item.transferId, fulfilment: fulfilments.get(item.condition)! })),
        bulkTransferState: 'COMPLETED',
      });
    }
  });
  return fulfilments;
}

/** A random amount between 1 and 99.99 in FSPIOP's form (no trailing zeros). */
export function randomAmount(): string {
  return new Decimal(crypto.randomInt(100, 10_000)).div(100).toFixed();
}

function errorCode(body: any): string {
  return body?.errorInformation?.errorCode ?? '?';
}

/** Where a virtual user sends from and to. */
export interface Parties {
  switchUrl: string;
  payer: PayerSide;
  payerName: string;
  payeeName: string;
  fulfilments: Fulfilments;
  timeoutMs: number;
  keys: SigningKeys;
  /** How long after it is sent a transfer expires; TRANSFER_EXPIRY_MS unless given. */
  expiryMs?: number;
  /** Items in each bulk transfer (--mode bulk). */
  bulkSize?: number;
}

/**
 * The two sides of a run through the switch at `switchUrl`: the payer waiting for its callbacks and the payee
 * answering every quote and transfer, each answer it cannot give passed to `onPayeeError`.
 */
export function partiesBetween(
  payerDfsp: SimulatedDfsp,
  payeeDfsp: SimulatedDfsp,
  run: Pick<Parties, 'switchUrl' | 'timeoutMs' | 'keys' | 'expiryMs' | 'bulkSize'> & { onPayeeError: (kind: string) => void },
): Parties {
  const { onPayeeError, ...settings } = run;
  return {
    ...settings,
    payer: new PayerSide(payerDfsp),
    payerName: payerDfsp.name,
    payeeName: payeeDfsp.name,
    fulfilments: payeeAnswers(payeeDfsp, run.switchUrl, run.keys, onPayeeError),
  };
}

/** What the payer agreed with the payee before the transfer: amount, condition and ILP packet. */
export interface Agreed {
  amount: string;
  condition: string;
  ilpPacket: string;
}

/**
 * A payer's POST through the switch, with the payer's callback for it expected before it is sent: the POST's
 * status, when it was sent, and, after a 202, the callback (undefined if none came within the timeout).
 */
async function post(
  parties: Parties,
  resource: 'quotes' | 'transfers' | 'bulkTransfers',
  id: string,
  body: object,
): Promise<{ status: number; sentAt: number; answer: Promise<Arrival | undefined> }> {
  const { switchUrl, payer, payerName, payeeName, timeoutMs, keys } = parties;
  const expected = payer.expect(`${resource}/${id}`, timeoutMs);
  const sentAt = performance.now();
  const ack = await fspiop(switchUrl, 'POST', `/${resource}`, payerName, payeeName, body, keys).catch((error) => {
    expected.cancel();
    throw error;
  });
  if (ack.status !== 202) expected.cancel();
  return { status: ack.status, sentAt, answer: expected.arrival };
}

/**
 * POST /quotes and its callback through the switch; undefined when the sample recorded an error. `terms` sets the
 * amount and adds fields (the transaction request a third-party payment quotes for).
 */
export async function quoteStep(parties: Parties, sample: Sample, terms: { amount?: string; extra?: object } = {}): Promise<Agreed | undefined> {
  const quote = { ...quoteBody(parties.payerName, parties.payeeName, terms.amount ?? randomAmount()), ...terms.extra };
  parties.payer.quoteIds.push(quote.quoteId);
  const sent = await post(parties, 'quotes', quote.quoteId, quote);
  if (sent.status !== 202) return void sample.error(`POST /quotes → ${sent.status}`);
  const qAnswer = await sent.answer;
  if (!qAnswer) return void sample.error('quote callback timeout');
  if (qAnswer.error) return void sample.error(`quote error callback ${errorCode(qAnswer.body)}`);
  sample.quoteMs = qAnswer.at - sent.sentAt;
  return { amount: qAnswer.body.transferAmount.amount, condition: qAnswer.body.condition, ilpPacket: qAnswer.body.ilpPacket };
}

/** Terms the payee would have quoted, agreed without a quote: the payee is handed the fulfilment directly. */
function preQuoted(parties: Parties): Agreed {
  const { fulfilment, condition } = ilpPair();
  parties.fulfilments.set(condition, fulfilment);
  return { amount: randomAmount(), condition, ilpPacket: Buffer.from(`bench ilp packet ${condition}`).toString('base64url') };
}

/** POST /transfers and the payer's callback through the switch. */
export async function transferStep(parties: Parties, agreed: Agreed, sample: Sample): Promise<void> {
  const body = {
    ...transferBody(parties.payerName, parties.payeeName, agreed.amount, {
      condition: agreed.condition,
      expiresInMs: parties.expiryMs ?? TRANSFER_EXPIRY_MS,
    }),
    ilpPacket: agreed.ilpPacket,
  };
  const record = { amount: agreed.amount, state: 'sent' as TransferState, accepted: false };
  parties.payer.transfers.set(body.transferId, record);
  // A POST that throws leaves the record 'sent': the ledger check waits for its outcome.
  const sent = await post(parties, 'transfers', body.transferId, body);
  if (sent.status !== 202) {
    if (record.state === 'sent') record.state = 'refused';
    return sample.error(`POST /transfers → ${sent.status}`);
  }
  record.accepted = true;
  const tAnswer = await sent.answer;
  if (!tAnswer) return sample.error('transfer callback timeout');
  if (tAnswer.error) return sample.error(`transfer error callback ${errorCode(tAnswer.body)}`);
  if (tAnswer.body?.transferState !== 'COMMITTED') return sample.error(`transfer state ${tAnswer.body?.transferState}`);
  sample.transferMs = tAnswer.at - sent.sentAt;
}

/**
 * POST /bulkTransfers of pre-quoted items (the payee is handed each fulfilment) and the payer's callback with every
 * item's result; the latency is the whole bulk's.
 */
async function bulkStep(parties: Parties, sample: Sample): Promise<void> {
  const { payer, payerName, payeeName } = parties;
  const items = Array.from({ length: parties.bulkSize ?? 1000 }, () => bulkItem(randomAmount()));
  const body = bulkTransferBody(payerName, payeeName, items, { expiresInMs: parties.expiryMs ?? TRANSFER_EXPIRY_MS });
  for (const { transfer, fulfilment } of items) {
    parties.fulfilments.set(transfer.condition, fulfilment);
    payer.transfers.set(transfer.transferId, { amount: transfer.transferAmount.amount, state: 'sent', accepted: false });
  }
  payer.bulkTransferIds.push(body.bulkTransferId);
  payer.bulkItems.set(
    body.bulkTransferId,
    items.map((item) => item.transfer.transferId),
  );
  const sent = await post(parties, 'bulkTransfers', body.bulkTransferId, body);
  if (sent.status !== 202) {
    for (const { transfer } of items) payer.transfers.get(transfer.transferId)!.state = 'refused';
    return sample.error(`POST /bulkTransfers → ${sent.status}`);
  }
  for (const { transfer } of items) payer.transfers.get(transfer.transferId)!.accepted = true;
  const answer = await sent.answer;
  if (!answer) return sample.error('bulk transfer callback timeout');
  if (answer.error) return sample.error(`bulk transfer error callback ${errorCode(answer.body)}`);
  const failed = (answer.body?.individualTransferResults ?? []).filter((r: { fulfilment?: string }) => !r.fulfilment).length;
  if (failed > 0) return sample.error(`${failed} bulk item(s) not committed`);
  sample.transferMs = answer.at - sent.sentAt;
}

/** One loop of a virtual user: a payment (quote, then transfer), a pre-quoted transfer alone, or a bulk transfer. */
export function hubIteration(mode: Mode, parties: Parties) {
  return async (sample: Sample): Promise<void> => {
    if (mode === 'bulk') return bulkStep(parties, sample);
    const agreed = mode === 'payments' ? await quoteStep(parties, sample) : preQuoted(parties);
    if (agreed) await transferStep(parties, agreed, sample);
  };
}
