import {
  allHandlersFinished,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { HubActivities } from '../activities';
import { errorInformation, ErrorInformation } from './errors';
import type { TransfersIDPutResponse, TransfersPostRequest } from './fspiopTypes';
import type { ErrorCallbackBody, ReceivedCallback, ReceivedRequest, RepeatedRequest } from './messages';
import { State } from './searchAttributes';
import { bestEffort, errorOf, msUntil, rejectionOf } from './support';

// The ledger steps are local activities: short and idempotent, they run in the worker that runs the workflow
// (recorded in its history, retried by the worker), which saves the server three round trips a step.
const { prepareTransfer, commitTransfer, abortTransfer } = proxyLocalActivities<HubActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

// Callbacks to DFSPs are ordinary activities: retried with backoff on network errors and 5xx for minutes if
// need be, without holding up the workflow's timers and signals meanwhile.
const { deliver, deliverFromHub } = proxyActivities<HubActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

// Answers about a decided transfer, read from its record and sent with a few attempts of their own.
const { lateTransferCallback, repeatedTransfer } = proxyActivities<HubActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

export type TransferState = 'RECEIVED' | 'RESERVED' | 'COMMITTED' | 'ABORTED';

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
  const params = { transferId };
  let state: TransferState = 'RECEIVED';
  let answer: Answer | undefined;
  /** Set once the switch has chosen the outcome; callbacks after that are late, whatever the state says yet. */
  let decided = false;
  /** The callback that ended the conversation for the payer, resent for a repeated request (rule 3). */
  let finalCallback: (() => Promise<void>) | undefined;

  const hubError = (to: string, error: ErrorInformation) =>
    deliverFromHub({
      to,
      endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR',
      params,
      method: 'PUT',
      body: { errorInformation: error },
      resource: 'transfers',
      version,
    });
  const notifyPayee = (transferState: 'COMMITTED' | 'ABORTED', completedTimestamp: string) =>
    deliverFromHub({
      to: payeeFsp,
      endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT',
      params,
      method: 'PATCH',
      body: { completedTimestamp, transferState },
      resource: 'transfers',
      version,
    });
  const finish = async (transferState: TransferState, callback: () => Promise<void>, error?: ErrorInformation): Promise<TransferOutcome> => {
    setState(transferState);
    finalCallback = callback;
    await bestEffort(callback(), `final callback to ${payerFsp}`);
    return { transferState, errorInformation: error };
  };
  const setState = (next: TransferState) => {
    state = next;
    upsertSearchAttributes([{ key: State, value: next }]);
  };

  setHandler(fulfilSignal, async (callback) => {
    if (callback.headers['fspiop-source'] !== payeeFsp) {
      return bestEffort(
        hubError(callback.headers['fspiop-source'], errorInformation('validationError', `only the payee ${payeeFsp} may fulfil this transfer`)),
        'error to a stranger',
      );
    }
    if (decided) {
      // The outcome is chosen but the workflow has not closed: once the ledger records it, answer as to a later PUT.
      await condition(() => state === 'COMMITTED' || state === 'ABORTED');
      return bestEffort(lateTransferCallback({ transferId, callback, version }), 'late fulfil');
    }
    answer ??= { kind: 'fulfil', callback };
  });
  setHandler(rejectSignal, async (callback) => {
    if (callback.headers['fspiop-source'] !== payeeFsp) {
      return bestEffort(
        hubError(callback.headers['fspiop-source'], errorInformation('validationError', `only the payee ${payeeFsp} may reject this transfer`)),
        'error to a stranger',
      );
    }
    answer ??= { kind: 'reject', callback };
  });
  setHandler(repeatedTransferSignal, async (repeat) => {
    if (repeat.requestHash !== input.requestHash) {
      await bestEffort(
        hubError(repeat.headers['fspiop-source'], errorInformation('modifiedRequest', `transfer ${transferId} exists with different details`)),
        'duplicate error',
      );
    } else if (finalCallback) {
      await bestEffort(finalCallback(), 'resent final callback');
    }
    // Same request, still in progress: ignored, the callback will come.
  });

  const outcome = await run();
  await condition(allHandlersFinished);
  return outcome;

  async function run(): Promise<TransferOutcome> {
    try {
      const prepared = await prepareTransfer({ body, source: input.headers['fspiop-source'], requestHash: input.requestHash });
      if (prepared.outcome === 'repeat') {
        // Decided by an earlier workflow whose history has expired: answer from the record, change nothing.
        decided = true;
        await bestEffort(repeatedTransfer({ transferId, requestHash: input.requestHash, requester: input.headers['fspiop-source'], version }), 'repeat');
        return { transferState: state };
      }
    } catch (error) {
      decided = true;
      // A refused request is answered to whoever sent it, which need not be the payerFsp it names.
      const rejection = errorOf(error);
      return finish('ABORTED', () => hubError(input.headers['fspiop-source'], rejection), rejection);
    }
    setState('RESERVED');

    let forwardFailed: ErrorInformation | undefined;
    // The forward runs in its own scope so that expiry can cancel its retries instead of waiting them out.
    const forwardScope = new CancellationScope();
    const forwarding = forwardScope
      .run(() => deliver({ to: payeeFsp, endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_POST', method: 'POST', headers: input.headers, rawBody: input.rawBody }))
      .catch((error) => {
        if (!isCancellation(error)) forwardFailed = errorOf(error);
      });
    const answered = await condition(() => answer !== undefined || forwardFailed !== undefined, Math.max(1, msUntil(body.expiration)));
    decided = true;
    if (!answered) forwardScope.cancel();
    await forwarding;

    if (!answered) {
      const expired = errorInformation('transferExpired', `transfer ${transferId} was not fulfilled before ${body.expiration}`);
      await abortTransfer({ transferId, errorInformation: expired });
      await bestEffort(hubError(payeeFsp, expired), 'expiry to payee');
      return finish('ABORTED', () => hubError(payerFsp, expired), expired);
    }
    if (!answer) {
      const failure = forwardFailed!;
      await abortTransfer({ transferId, errorInformation: failure });
      return finish('ABORTED', () => hubError(payerFsp, failure), failure);
    }
    if (answer.kind === 'reject') {
      const { callback } = answer;
      await abortTransfer({ transferId, errorInformation: callback.body.errorInformation });
      return finish(
        'ABORTED',
        () =>
          deliver({
            to: payerFsp,
            endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR',
            params,
            method: 'PUT',
            headers: callback.headers,
            rawBody: callback.rawBody,
          }),
        callback.body.errorInformation,
      );
    }

    const { callback } = answer;
    const payeeWantsNotification = callback.body.transferState === 'RESERVED';
    let completedTimestamp: string;
    try {
      ({ completedTimestamp } = await commitTransfer({ transferId, fulfilment: callback.body.fulfilment, payeeWantsNotification }));
    } catch (error) {
      const invalid = rejectionOf(error);
      if (!invalid) throw error;
      const aborted = await abortTransfer({ transferId, errorInformation: invalid, payeeWantsNotification });
      await bestEffort(hubError(payeeFsp, invalid), 'invalid fulfilment to payee');
      if (payeeWantsNotification) await bestEffort(notifyPayee('ABORTED', aborted.completedTimestamp), 'PATCH ABORTED');
      return finish('ABORTED', () => hubError(payerFsp, invalid), invalid);
    }
    // A payee that answered RESERVED waits for the switch's PATCH before it commits; the payer hears COMMITTED.
    // The payee's own PUT goes to the payer byte for byte; after RESERVED the switch states the outcome itself,
    // as its own message, since forwarding the payee's signature over a changed body would be a false signature.
    const result = await finish('COMMITTED', () =>
      payeeWantsNotification
        ? deliverFromHub({
            to: payerFsp,
            endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT',
            params,
            method: 'PUT',
            body: { ...callback.body, transferState: 'COMMITTED', completedTimestamp },
            resource: 'transfers',
            version,
          })
        : deliver({
            to: payerFsp,
            endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT',
            params,
            method: 'PUT',
            headers: callback.headers,
            rawBody: callback.rawBody,
          }),
    );
    if (payeeWantsNotification) await bestEffort(notifyPayee('COMMITTED', completedTimestamp), 'PATCH COMMITTED');
    return result;
  }
}
