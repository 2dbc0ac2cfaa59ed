import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import type { TransferState, TransfersIDPutResponse, TransfersPostRequest } from '../../api/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../api/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../api/contracts/messages';
import { followUps, records } from '../kit/hubProxies';
import { Conversation } from '../kit/conversation';
import { bestEffort, errorOf, msUntil, rejectionOf } from '../kit/failures';

export type TransferInput = ReceivedRequest<TransfersPostRequest>;

export interface TransferOutcome {
  transferState: TransferState;
  errorInformation?: ErrorInformation;
}

/** The payee's PUT /transfers/{ID} (COMMITTED or RESERVED, with fulfilment). */
export const fulfilSignal = defineSignal<[ReceivedCallback<TransfersIDPutResponse>]>('fulfil');
/** The payee's PUT /transfers/{ID}/error. */
export const rejectSignal = defineSignal<[ReceivedCallback<ErrorCallbackBody>]>('reject');
/** A POST /transfers repeating this transfer's ID while it is in progress. */
export const repeatedTransferSignal = defineSignal<[RepeatedRequest]>('repeatedRequest');

type Answer = { kind: 'fulfil'; callback: ReceivedCallback<TransfersIDPutResponse> } | { kind: 'reject'; callback: ReceivedCallback<ErrorCallbackBody> };

/**
 * A transfer through the switch (Document 2, /transfers; central-ledger's prepare, fulfil and timeout):
 * check and reserve the payer's funds, forward to the payee, then commit on a valid fulfilment, pass on the
 * payee's rejection, or abort at expiration, telling both sides. The transfer ID is the workflow ID.
 */
export async function transfer(input: TransferInput): Promise<TransferOutcome> {
  const { body, version } = input;
  const { transferId, payerFsp, payeeFsp } = body;
  const talk = new Conversation({ resource: 'transfers', id: transferId, noun: 'transfer', request: input, repeatSignal: repeatedTransferSignal });
  let state: TransferState = 'RECEIVED';
  let answer: Answer | undefined;
  /** Set once the switch has chosen the outcome; callbacks after that are late, whatever the state says yet. */
  let decided = false;

  const setState = (next: TransferState) => {
    state = next;
    talk.setState(next);
  };
  const finish = async (transferState: 'COMMITTED' | 'ABORTED', answerPayer: () => Promise<void>, error?: ErrorInformation): Promise<TransferOutcome> => {
    state = transferState;
    await talk.finish(transferState, answerPayer);
    return { transferState, errorInformation: error };
  };
  const notifyPayee = (transferState: 'COMMITTED' | 'ABORTED', completedTimestamp: string) =>
    bestEffort(talk.hubMessage(payeeFsp, 'PATCH', { completedTimestamp, transferState }), `PATCH ${transferState}`);

  setHandler(fulfilSignal, async (callback) => {
    const from = callback.headers['fspiop-source'];
    if (from !== payeeFsp) return talk.refuseStranger(from, `only the payee ${payeeFsp} may fulfil this transfer`);
    if (decided) {
      // The outcome is chosen but the workflow has not closed: once the ledger records it, answer as to a later PUT.
      await condition(() => state === 'COMMITTED' || state === 'ABORTED');
      return bestEffort(followUps.lateTransferCallback({ transferId, callback, version }), 'late fulfil');
    }
    answer ??= { kind: 'fulfil', callback };
  });
  setHandler(rejectSignal, async (callback) => {
    const from = callback.headers['fspiop-source'];
    if (from !== payeeFsp) return talk.refuseStranger(from, `only the payee ${payeeFsp} may reject this transfer`);
    answer ??= { kind: 'reject', callback };
  });

  const outcome = await run();
  await talk.close();
  return outcome;

  async function run(): Promise<TransferOutcome> {
    try {
      const prepared = await records.prepareTransfer({ body, source: input.headers['fspiop-source'], requestHash: input.requestHash });
      if (prepared.outcome === 'repeat') {
        // Decided by an earlier workflow whose history has expired (the gateway answers such a repeat from the record
        // itself; this run was started by one that did not look): answer from the record, change nothing. The state it
        // records lets a PUT that reaches this run be answered from the record too, instead of waiting for ever.
        decided = true;
        setState(prepared.transferState);
        await bestEffort(
          followUps.repeatedTransfer({ transferId, requestHash: input.requestHash, requester: input.headers['fspiop-source'], version }),
          'repeat',
        );
        return { transferState: state };
      }
    } catch (error) {
      decided = true;
      // A refused request is answered to whoever sent it, which need not be the payerFsp it names.
      const rejection = errorOf(error);
      return finish('ABORTED', () => talk.hubError(input.headers['fspiop-source'], rejection), rejection);
    }
    setState('RESERVED');

    const waited = await talk.forwardUntilAnswered(payeeFsp, () => answer !== undefined, msUntil(body.expiration));
    decided = true;
    if (waited.kind === 'expired') {
      const expired = errorInformation('transferExpired', `transfer ${transferId} was not fulfilled before ${body.expiration}`);
      await records.abortTransfer({ transferId, errorInformation: expired });
      await bestEffort(talk.hubError(payeeFsp, expired), 'expiry to payee');
      return finish('ABORTED', () => talk.hubError(payerFsp, expired), expired);
    }
    if (waited.kind === 'unreachable') {
      await records.abortTransfer({ transferId, errorInformation: waited.error });
      return finish('ABORTED', () => talk.hubError(payerFsp, waited.error), waited.error);
    }
    if (answer!.kind === 'reject') {
      const { callback } = answer!;
      await records.abortTransfer({ transferId, errorInformation: callback.body.errorInformation });
      return finish('ABORTED', () => talk.relay(payerFsp, 'error', callback), callback.body.errorInformation);
    }

    const { callback } = answer!;
    const payeeWantsNotification = callback.body.transferState === 'RESERVED';
    let completedTimestamp: string;
    try {
      ({ completedTimestamp } = await records.commitTransfer({ transferId, fulfilment: callback.body.fulfilment, payeeWantsNotification }));
    } catch (error) {
      // An invalid fulfilment (3100), or one handled after the expiration (3303): nothing commits, both sides are told.
      const refused = rejectionOf(error);
      if (!refused) throw error;
      const aborted = await records.abortTransfer({ transferId, errorInformation: refused, payeeWantsNotification });
      await bestEffort(talk.hubError(payeeFsp, refused), 'refused fulfilment to payee');
      if (payeeWantsNotification) await notifyPayee('ABORTED', aborted.completedTimestamp);
      return finish('ABORTED', () => talk.hubError(payerFsp, refused), refused);
    }
    // A payee that answered RESERVED waits for the switch's PATCH before it commits; the payer hears COMMITTED.
    // The payee's own PUT goes to the payer byte for byte; after RESERVED the switch states the outcome itself,
    // as its own message, since forwarding the payee's signature over a changed body would be a false signature.
    const result = await finish('COMMITTED', () =>
      payeeWantsNotification
        ? talk.hubMessage(payerFsp, 'PUT', { ...callback.body, transferState: 'COMMITTED', completedTimestamp })
        : talk.relay(payerFsp, 'answer', callback),
    );
    if (payeeWantsNotification) await notifyPayee('COMMITTED', completedTimestamp);
    return result;
  }
}
