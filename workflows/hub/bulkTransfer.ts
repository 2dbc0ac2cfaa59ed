import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import type { BulkTransferState, BulkTransfersIDPutResponse, BulkTransfersPostRequest } from '../../activities/shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { deliveries, followUps, records } from '../kit/hubProxies';
import { Conversation } from '../kit/conversation';
import { msUntil } from '../../activities/shared/contracts/expiry';
import { bestEffort, errorOf } from '../kit/failures';

/** The bulk as the payer sent it; its bytes stay out of the history, as the hub passes on a request of its own. */
export type BulkTransferInput = Omit<ReceivedRequest<BulkTransfersPostRequest>, 'rawBody'>;

export interface BulkTransferOutcome {
  bulkTransferState: BulkTransferState;
  errorInformation?: ErrorInformation;
}

/** A callback without its bytes: the hub states every outcome to the payer itself, it never relays the payee's. */
type Callback<Body> = Omit<ReceivedCallback<Body>, 'rawBody'>;

/** The payee's PUT /bulkTransfers/{ID} (a result per item) or PUT /bulkTransfers/{ID}/error (the whole bulk). */
export type BulkTransferAnswer =
  | { kind: 'results'; callback: Callback<BulkTransfersIDPutResponse> }
  | { kind: 'error'; callback: Callback<ErrorCallbackBody> }
  /** Results that fail central-ledger's checks of a bulk fulfil (a completedTimestamp from the future), and why. */
  | { kind: 'invalid'; callback: Callback<BulkTransfersIDPutResponse>; error: ErrorInformation };

export const bulkTransferAnswerSignal = defineSignal<[BulkTransferAnswer]>('bulkTransferAnswer');
/** A POST /bulkTransfers repeating this bulk's ID while it is in progress. */
export const repeatedBulkTransferSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');

/**
 * A bulk transfer through the switch (Document 2, /bulkTransfers; Mojaloop's bulk-api-adapter and central-ledger's
 * bulk handlers): check the bulk, check and reserve each item against the payer's Net Debit Cap, send the payee the
 * items accepted, then commit each item the payee fulfils and release the others; items the payee leaves out are
 * released at expiration (3303), as are those whose fulfilment the ledger handles only after it (the ledger refuses a
 * late commit). Both sides then get each item's result. The bulk transfer ID is the workflow ID.
 */
export async function bulkTransfer(input: BulkTransferInput): Promise<BulkTransferOutcome> {
  const { bulkTransferId } = input.body;
  const talk = new Conversation({
    resource: 'bulkTransfers',
    id: bulkTransferId,
    noun: 'bulk transfer',
    request: input,
    repeatSignal: repeatedBulkTransferSignal,
  });
  const bulk: HeldBulk = { input, talk, decided: false, finished: false };
  listenToPayee(bulk);
  return talk.run(bulk, [reserveItems, forwardToPayee, fulfilItems]);
}

/** What the steps of one bulk transfer share. */
interface HeldBulk {
  readonly input: BulkTransferInput;
  readonly talk: Conversation;
  /** The payee's first answer. */
  answer?: BulkTransferAnswer;
  /** The payee answers the hub's POST, so it may address its PUT to the hub (mojaloop/project#3024); known once prepared. */
  hubId?: string;
  /** Set once the switch stops taking the payee's answer (expiry, an unreachable payee). */
  decided: boolean;
  /** Set once the record holds the outcome. */
  finished: boolean;
}

/** Only the payee answers, once; the same answer again changes nothing, and one after the outcome is told the outcome. */
function listenToPayee(bulk: HeldBulk): void {
  const { talk } = bulk;
  const { bulkTransferId, payerFsp, payeeFsp } = bulk.input.body;
  setHandler(bulkTransferAnswerSignal, async (received) => {
    const { headers: from } = received.callback;
    const sender = from['fspiop-source'];
    if (sender !== payeeFsp) return talk.refuseStranger(sender, `only the payee ${payeeFsp} may answer bulk transfer ${bulkTransferId}`);
    const to = from['fspiop-destination'];
    if (to && to !== payerFsp && to !== bulk.hubId) return talk.refuseStranger(sender, `FSPIOP-Destination ${to} is neither the payer ${payerFsp} nor the hub`);
    const { answer } = bulk;
    if (answer) {
      // central-ledger's duplicate check of the fulfil: the same answer again changes nothing, another one is 3106.
      if (received.kind === answer.kind && JSON.stringify(received.callback.body) === JSON.stringify(answer.callback.body)) return;
      const modified = errorInformation('modifiedRequest', `bulk transfer ${bulkTransferId} was already answered differently`);
      return bestEffort(talk.hubError(sender, modified), 'modified answer');
    }
    if (!bulk.decided) {
      bulk.answer = received;
      return;
    }
    // Too late to count: once the outcome is recorded, the payee is told it (items it did not answer in time carry 3303).
    await condition(() => bulk.finished);
    const requester = { source: sender, version: bulk.input.version, headers: from };
    await bestEffort(followUps.answerFollowUp({ kind: 'bulkTransferStatus', bulkTransferId, requester }), 'late answer');
  });
}

/** Prepare: the bulk is checked, and each item checked and reserved against the payer's Net Debit Cap. */
async function reserveItems(bulk: HeldBulk): Promise<BulkTransferOutcome | undefined> {
  const { input, talk } = bulk;
  const { body, headers, version, requestHash } = input;
  const { bulkTransferId } = body;
  const source = headers['fspiop-source'];
  let accepted: number;
  try {
    const prepared = await records.prepareBulkTransfer({ body, source, destination: headers['fspiop-destination'], requestHash });
    if (prepared.outcome === 'repeat') {
      // Decided by an earlier workflow whose history has expired: answer from the record, change nothing.
      bulk.decided = bulk.finished = true;
      const requester = { source, version, headers };
      await bestEffort(followUps.answerFollowUp({ kind: 'repeatedBulkTransfer', bulkTransferId, requestHash, requester }), 'repeat');
      return { bulkTransferState: prepared.bulkTransferState };
    }
    accepted = prepared.accepted;
    bulk.hubId = prepared.hubId;
  } catch (error) {
    // The bulk as a whole was refused (or conflicts with another of the same ID): nothing is reserved, and the
    // refusal goes to whoever sent the request; the record, if the bulk is this one, already says so.
    bulk.decided = bulk.finished = true;
    const rejection = errorOf(error);
    await talk.finish('REJECTED', () => talk.hubError(source, rejection));
    return { bulkTransferState: 'REJECTED', errorInformation: rejection };
  }
  if (accepted === 0) {
    // Every item was refused. central-ledger then tells no one; the payer learns each item's error at once.
    bulk.decided = bulk.finished = true;
    await talk.finish('REJECTED', results(bulk, 'payer'));
    return { bulkTransferState: 'REJECTED' };
  }
  talk.setState('ACCEPTED');
  return undefined;
}

/**
 * The items accepted go to the payee until it answers or the bulk expires. Its refusal of the whole bulk, an answer
 * that fails central-ledger's checks, and a payee out of reach each release every item.
 */
async function forwardToPayee(bulk: HeldBulk): Promise<BulkTransferOutcome | undefined> {
  const { talk } = bulk;
  const { bulkTransferId, payerFsp, payeeFsp, expiration } = bulk.input.body;
  const forward = () => deliveries.forwardBulkTransfer({ bulkTransferId, version: bulk.input.version });
  const waited = await talk.forwardUntilAnswered(payeeFsp, () => bulk.answer !== undefined, msUntil(expiration, Date.now()), forward);
  if (waited.kind !== 'answered') bulk.decided = true;
  if (waited.kind === 'expired') return expire(bulk);
  if (waited.kind === 'unreachable') {
    await release(bulk, waited.error);
    return finish(bulk, 'REJECTED', () => talk.hubError(payerFsp, waited.error), waited.error);
  }
  const answer = bulk.answer!;
  if (answer.kind === 'error') {
    // The payee refused the whole bulk: every item is released with its error, which the hub states to the payer.
    const { errorInformation: refusal } = answer.callback.body;
    await release(bulk, refusal);
    return finish(bulk, 'REJECTED', () => talk.hubError(payerFsp, refusal), refusal);
  }
  if (answer.kind === 'invalid') {
    // The bulk is aborted as central-ledger aborts it: every item released with the error, which both sides hear.
    const { error } = answer;
    await release(bulk, error);
    await bestEffort(talk.hubError(payeeFsp, error), 'invalid answer to payee');
    return finish(bulk, 'REJECTED', () => talk.hubError(payerFsp, error), error);
  }
  return undefined;
}

/** Fulfil: each item the payee fulfils commits, each it refuses is released; those it left out wait for the expiry. */
async function fulfilItems(bulk: HeldBulk): Promise<BulkTransferOutcome> {
  const { bulkTransferId } = bulk.input.body;
  const { callback } = bulk.answer as Extract<BulkTransferAnswer, { kind: 'results' }>;
  bulk.talk.setState('PROCESSING');
  const { open } = await records.fulfilBulkTransfer({ bulkTransferId, results: callback.body.individualTransferResults ?? [] });
  // Items the payee left out stay reserved until the bulk expires, as in central-ledger.
  if (open > 0) return expire(bulk);
  return complete(bulk);
}

/** At the expiration every item still reserved is released (3303), and both sides get each item's result. */
async function expire(bulk: HeldBulk): Promise<BulkTransferOutcome> {
  await bulk.talk.waitOut(msUntil(bulk.input.body.expiration, Date.now()));
  bulk.decided = true;
  // Each item says only what central-ledger's timeout says of it, which Mojaloop's tooling matches exactly.
  await release(bulk, errorInformation('transferExpired'));
  return complete(bulk);
}

async function finish(
  bulk: HeldBulk,
  state: 'COMPLETED' | 'REJECTED',
  answerPayer: () => Promise<void>,
  error?: ErrorInformation,
): Promise<BulkTransferOutcome> {
  const { bulkTransferId } = bulk.input.body;
  await bulk.talk.finish(state, answerPayer, () => records.completeBulkTransfer({ bulkTransferId, state, errorInformation: error }));
  bulk.finished = true;
  return { bulkTransferState: state, errorInformation: error };
}

const results = (bulk: HeldBulk, party: 'payer' | 'payee') => () =>
  deliveries.deliverBulkTransferResults({ bulkTransferId: bulk.input.body.bulkTransferId, party, version: bulk.input.version });

const release = (bulk: HeldBulk, error: ErrorInformation) =>
  records.releaseBulkTransfer({ bulkTransferId: bulk.input.body.bulkTransferId, errorInformation: error });

/** Both sides get every result they may see, the payer's being the final answer a repeated POST gets again. */
async function complete(bulk: HeldBulk): Promise<BulkTransferOutcome> {
  const outcome = await finish(bulk, 'COMPLETED', results(bulk, 'payer'));
  await bestEffort(results(bulk, 'payee')(), 'results to payee');
  return outcome;
}
