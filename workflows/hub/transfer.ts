import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import type { TransferState, TransfersIDPutResponse, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { followUps, records } from '../kit/hubProxies';
import { Conversation } from '../kit/conversation';
import { msUntil } from '../../activities/shared/contracts/expiry';
import { bestEffort, errorOf, rejectionOf } from '../kit/failures';
import { hasPatch } from '../kit/patches';
import { PATCHES } from '../../activities/shared/contracts/codeRevision';

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
  const { transferId } = input.body;
  const talk = new Conversation({ resource: 'transfers', id: transferId, noun: 'transfer', request: input, repeatSignal: repeatedTransferSignal });
  const held: HeldTransfer = { input, talk, state: 'RECEIVED', decided: false };
  listenToPayee(held);
  return talk.run(held, [reservePayerFunds, forwardToPayee, commitFulfilment]);
}

/** What the steps of one transfer share. */
interface HeldTransfer {
  readonly input: TransferInput;
  readonly talk: Conversation;
  state: TransferState;
  /** The payee's first answer: its fulfilment or its rejection. */
  answer?: Answer;
  /** Set once the switch has chosen the outcome; callbacks after that are late, whatever the state says yet. */
  decided: boolean;
}

/** Only the payee answers a transfer; its first answer counts, and a fulfilment after the outcome is a late one. */
function listenToPayee(held: HeldTransfer): void {
  const { talk } = held;
  const { transferId, payeeFsp } = held.input.body;
  setHandler(fulfilSignal, async (callback) => {
    const from = callback.headers['fspiop-source'];
    if (from !== payeeFsp) return talk.refuseStranger(from, `only the payee ${payeeFsp} may fulfil this transfer`);
    if (held.decided) {
      // The outcome is chosen but the workflow has not closed: once the ledger records it, answer as to a later PUT.
      await condition(() => held.state === 'COMMITTED' || held.state === 'ABORTED');
      return bestEffort(followUps.lateTransferCallback({ transferId, callback, version: held.input.version }), 'late fulfil');
    }
    held.answer ??= { kind: 'fulfil', callback };
  });
  setHandler(rejectSignal, async (callback) => {
    const from = callback.headers['fspiop-source'];
    if (from !== payeeFsp) return talk.refuseStranger(from, `only the payee ${payeeFsp} may reject this transfer`);
    held.answer ??= { kind: 'reject', callback };
  });
}

/** Prepare: the ledger checks the request and reserves the payer's funds against its position and Net Debit Cap. */
async function reservePayerFunds(held: HeldTransfer): Promise<TransferOutcome | undefined> {
  const { input, talk } = held;
  const { transferId } = input.body;
  const sender = input.headers['fspiop-source'];
  try {
    const prepared = await records.prepareTransfer({ body: input.body, source: sender, requestHash: input.requestHash });
    if (prepared.outcome === 'repeat') {
      // Decided by an earlier workflow whose history has expired (the gateway answers such a repeat from the record
      // itself; this run was started by one that did not look): answer from the record, change nothing. The state it
      // records lets a PUT that reaches this run be answered from the record too, instead of waiting for ever.
      held.decided = true;
      enterState(held, prepared.transferState);
      await bestEffort(followUps.repeatedTransfer({ transferId, requestHash: input.requestHash, requester: sender, version: input.version }), 'repeat');
      return { transferState: held.state };
    }
  } catch (error) {
    held.decided = true;
    // A refused request is answered to whoever sent it, which need not be the payerFsp it names.
    const rejection = errorOf(error);
    return finish(held, 'ABORTED', () => talk.hubError(sender, rejection), rejection);
  }
  // From revision 1 on, the State search attribute is upserted only once decided: a reservation lasts a second or two,
  // and each upsert is a history event and a visibility write on every payment. A transfer under way is found as a
  // running workflow.
  if (hasPatch(PATCHES.transferStateOnceDecided)) held.state = 'RESERVED';
  else enterState(held, 'RESERVED');
  return undefined;
}

/**
 * The prepare goes to the payee until it answers or the transfer expires. An expired transfer, a payee out of reach
 * and the payee's rejection each abort it, releasing the reservation; the payer is told why.
 */
async function forwardToPayee(held: HeldTransfer): Promise<TransferOutcome | undefined> {
  const { talk } = held;
  const { transferId, payerFsp, payeeFsp, expiration } = held.input.body;
  const waited = await talk.forwardUntilAnswered(payeeFsp, () => held.answer !== undefined, msUntil(expiration, Date.now()));
  held.decided = true;
  if (waited.kind === 'expired') {
    const expired = errorInformation('transferExpired', `transfer ${transferId} was not fulfilled before ${expiration}`);
    await records.abortTransfer({ transferId, errorInformation: expired });
    await bestEffort(talk.hubError(payeeFsp, expired), 'expiry to payee');
    return finish(held, 'ABORTED', () => talk.hubError(payerFsp, expired), expired);
  }
  if (waited.kind === 'unreachable') {
    await records.abortTransfer({ transferId, errorInformation: waited.error });
    return finish(held, 'ABORTED', () => talk.hubError(payerFsp, waited.error), waited.error);
  }
  if (held.answer!.kind === 'reject') {
    const { callback } = held.answer!;
    await records.abortTransfer({ transferId, errorInformation: callback.body.errorInformation });
    return finish(held, 'ABORTED', () => talk.relay(payerFsp, 'error', callback), callback.body.errorInformation);
  }
  return undefined;
}

/**
 * Fulfil: the ledger commits the transfer if the fulfilment matches the condition and came in time, and both sides
 * hear the outcome. A payee that answered RESERVED waits for the switch's PATCH before it commits.
 */
async function commitFulfilment(held: HeldTransfer): Promise<TransferOutcome> {
  const { talk } = held;
  const { transferId, payerFsp, payeeFsp } = held.input.body;
  const { callback } = held.answer as Extract<Answer, { kind: 'fulfil' }>;
  const payeeWantsNotification = callback.body.transferState === 'RESERVED';
  const notifyPayee = (transferState: 'COMMITTED' | 'ABORTED', completedTimestamp: string) =>
    bestEffort(talk.hubMessage(payeeFsp, 'PATCH', { completedTimestamp, transferState }), `PATCH ${transferState}`);
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
    return finish(held, 'ABORTED', () => talk.hubError(payerFsp, refused), refused);
  }
  // The payer hears COMMITTED. The payee's own PUT goes to the payer byte for byte; after RESERVED the switch states
  // the outcome itself, as its own message, since forwarding the payee's signature over a changed body would be a
  // false signature.
  const result = await finish(held, 'COMMITTED', () =>
    payeeWantsNotification
      ? talk.hubMessage(payerFsp, 'PUT', { ...callback.body, transferState: 'COMMITTED', completedTimestamp })
      : talk.relay(payerFsp, 'answer', callback),
  );
  if (payeeWantsNotification) await notifyPayee('COMMITTED', completedTimestamp);
  return result;
}

function enterState(held: HeldTransfer, next: TransferState): void {
  held.state = next;
  held.talk.setState(next);
}

async function finish(
  held: HeldTransfer,
  transferState: 'COMMITTED' | 'ABORTED',
  answerPayer: () => Promise<void>,
  error?: ErrorInformation,
): Promise<TransferOutcome> {
  held.state = transferState;
  await held.talk.finish(transferState, answerPayer);
  return { transferState, errorInformation: error };
}
