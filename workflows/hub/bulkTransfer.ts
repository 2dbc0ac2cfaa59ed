import { condition, defineSignal, setHandler, sleep } from '@temporalio/workflow';
import type { BulkTransferState, BulkTransfersIDPutResponse, BulkTransfersPostRequest } from '../../api/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../api/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../api/contracts/messages';
import { deliveries, followUps, records } from '../kit/hubProxies';
import { Conversation } from '../kit/conversation';
import { bestEffort, errorOf, msUntil } from '../kit/failures';

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
  const { body, version, headers } = input;
  const { bulkTransferId, payerFsp, payeeFsp } = body;
  const source = headers['fspiop-source'];
  const talk = new Conversation({
    resource: 'bulkTransfers',
    id: bulkTransferId,
    noun: 'bulk transfer',
    request: input,
    repeatSignal: repeatedBulkTransferSignal,
  });
  let answer: BulkTransferAnswer | undefined;
  /** The payee answers the hub's POST, so it may address its PUT to the hub (mojaloop/project#3024); known once prepared. */
  let hubId: string | undefined;
  /** Set once the switch stops taking the payee's answer (expiry, an unreachable payee). */
  let decided = false;
  /** Set once the record holds the outcome. */
  let finished = false;

  setHandler(bulkTransferAnswerSignal, async (received) => {
    const { headers: from } = received.callback;
    const sender = from['fspiop-source'];
    if (sender !== payeeFsp) return talk.refuseStranger(sender, `only the payee ${payeeFsp} may answer bulk transfer ${bulkTransferId}`);
    const to = from['fspiop-destination'];
    if (to && to !== payerFsp && to !== hubId) return talk.refuseStranger(sender, `FSPIOP-Destination ${to} is neither the payer ${payerFsp} nor the hub`);
    if (answer) {
      // central-ledger's duplicate check of the fulfil: the same answer again changes nothing, another one is 3106.
      if (received.kind === answer.kind && JSON.stringify(received.callback.body) === JSON.stringify(answer.callback.body)) return;
      const modified = errorInformation('modifiedRequest', `bulk transfer ${bulkTransferId} was already answered differently`);
      return bestEffort(talk.hubError(sender, modified), 'modified answer');
    }
    if (!decided) {
      answer = received;
      return;
    }
    // Too late to count: once the outcome is recorded, the payee is told it (items it did not answer in time carry 3303).
    await condition(() => finished);
    const requester = { source: sender, version, headers: from };
    await bestEffort(followUps.answerFollowUp({ kind: 'bulkTransferStatus', bulkTransferId, requester }), 'late answer');
  });

  const finish = async (state: 'COMPLETED' | 'REJECTED', answerPayer: () => Promise<void>, error?: ErrorInformation): Promise<BulkTransferOutcome> => {
    await talk.finish(state, answerPayer, () => records.completeBulkTransfer({ bulkTransferId, state, errorInformation: error }));
    finished = true;
    return { bulkTransferState: state, errorInformation: error };
  };
  const results = (party: 'payer' | 'payee') => () => deliveries.deliverBulkTransferResults({ bulkTransferId, party, version });
  const release = (error: ErrorInformation) => records.releaseBulkTransfer({ bulkTransferId, errorInformation: error });
  /** Both sides get every result they may see, the payer's being the final answer a repeated POST gets again. */
  const complete = async () => {
    const outcome = await finish('COMPLETED', results('payer'));
    await bestEffort(results('payee')(), 'results to payee');
    return outcome;
  };

  const outcome = await run();
  await talk.close();
  return outcome;

  async function run(): Promise<BulkTransferOutcome> {
    let accepted: number;
    try {
      const prepared = await records.prepareBulkTransfer({ body, source, destination: headers['fspiop-destination'], requestHash: input.requestHash });
      if (prepared.outcome === 'repeat') {
        // Decided by an earlier workflow whose history has expired: answer from the record, change nothing.
        decided = finished = true;
        const requester = { source, version, headers };
        await bestEffort(followUps.answerFollowUp({ kind: 'repeatedBulkTransfer', bulkTransferId, requestHash: input.requestHash, requester }), 'repeat');
        return { bulkTransferState: prepared.bulkTransferState };
      }
      ({ accepted, hubId } = prepared);
    } catch (error) {
      // The bulk as a whole was refused (or conflicts with another of the same ID): nothing is reserved, and the
      // refusal goes to whoever sent the request; the record, if the bulk is this one, already says so.
      decided = finished = true;
      const rejection = errorOf(error);
      await talk.finish('REJECTED', () => talk.hubError(source, rejection));
      return { bulkTransferState: 'REJECTED', errorInformation: rejection };
    }
    if (accepted === 0) {
      // Every item was refused. central-ledger then tells no one; the payer learns each item's error at once.
      decided = finished = true;
      await talk.finish('REJECTED', results('payer'));
      return { bulkTransferState: 'REJECTED' };
    }
    talk.setState('ACCEPTED');

    const forward = () => deliveries.forwardBulkTransfer({ bulkTransferId, version });
    const waited = await talk.forwardUntilAnswered(payeeFsp, () => answer !== undefined, msUntil(body.expiration), forward);
    if (waited.kind !== 'answered') decided = true;
    if (waited.kind === 'expired') return expire();
    if (waited.kind === 'unreachable') {
      await release(waited.error);
      return finish('REJECTED', () => talk.hubError(payerFsp, waited.error), waited.error);
    }
    if (answer!.kind === 'error') {
      // The payee refused the whole bulk: every item is released with its error, which the hub states to the payer.
      const { errorInformation: refusal } = answer!.callback.body;
      await release(refusal);
      return finish('REJECTED', () => talk.hubError(payerFsp, refusal), refusal);
    }
    if (answer!.kind === 'invalid') {
      // The bulk is aborted as central-ledger aborts it: every item released with the error, which both sides hear.
      const { error } = answer!;
      await release(error);
      await bestEffort(talk.hubError(payeeFsp, error), 'invalid answer to payee');
      return finish('REJECTED', () => talk.hubError(payerFsp, error), error);
    }

    talk.setState('PROCESSING');
    const { open } = await records.fulfilBulkTransfer({ bulkTransferId, results: answer!.callback.body.individualTransferResults ?? [] });
    // Items the payee left out stay reserved until the bulk expires, as in central-ledger.
    if (open > 0) return expire();
    return complete();
  }

  async function expire(): Promise<BulkTransferOutcome> {
    const wait = msUntil(body.expiration);
    if (wait > 0) await sleep(wait);
    decided = true;
    // Each item says only what central-ledger's timeout says of it, which Mojaloop's tooling matches exactly.
    await release(errorInformation('transferExpired'));
    return complete();
  }
}
