import { patched } from '@temporalio/workflow';
import type { PayeeOutcome } from '../../activities/dfsp/fspiop/fspiopActivities';
import type { BackendTransferNotification } from '../../activities/dfsp/backend/coreBanking';
import type { TransfersIDPutResponse, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';
import { fspiopErrors } from '../../activities/shared/contracts/errors';
import { instantOf } from '../../activities/shared/contracts/expiry';
import { bestEffort, DEFAULT_ANSWER_WAIT_MS } from '../kit/failures';
import { exchangeAsChild } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { answer, answerRepeat, orUnreachable, payee } from './payeeSteps';

/** The body of PATCH /transfers/{ID}: the switch's notification of the transfer's final state. */
interface FinalState {
  completedTimestamp: string;
  transferState: TransfersIDPutResponse['transferState'];
  extensionList?: { extension: Array<{ key: string; value: string }> };
}

/** How long past the transfer's expiration the payee still takes the switch's repeats and its PATCH. */
const AFTER_EXPIRY_MS = 30_000;

/**
 * POST /transfers at the payee (Document 2, "Transfers", rule 6): the fulfilment is derived again from the ILP packet
 * the payee issued with its quote and checked against the transfer's condition (a transfer on another condition is
 * refused with PUT /transfers/{ID}/error 3100, one past its expiration 3303, nothing credited); the bank credits the
 * payee (backend POST /transfers); the payer's FSP is answered PUT /transfers/{ID} with the fulfilment, COMMITTED,
 * or RESERVED when the bank answered RESERVED (it then waits for the switch's PATCH, as behind the SDK).
 *
 * The switch decides, not the payee: until the transfer is committed there, the credit stands only as long as the
 * switch does not abort. Whatever says the switch did not or will not commit it reaches the bank as the SDK's
 * notification of ABORTED (backend PUT /transfers/{transferId}), once, so the bank takes the credit back: the
 * switch's PUT /transfers/{ID}/error (expiry, a fulfilment it refused or that came late), its PATCH ABORTED, and the
 * payee's own error answer after a credit step that failed and may have credited all the same. Only the switch's
 * own word counts: an error or PATCH in a participant's name (the switch sends neither for another) makes the payee
 * ask the switch (GET /transfers/{ID}), and the bank hears the switch's answer, so a credit the switch committed stays.
 *
 * The switch may repeat the POST until it has the answer: each repeat is answered the same, and the bank is asked
 * once. A PATCH /transfers/{ID} (the switch's final state) is passed on to the bank as the SDK passes it on.
 */
/** How often messages in a participant's name make the payee ask the switch about one transfer; its expiry asks once more. */
export const MAX_ASKS_ON_PEER_WORD = 3;

export async function payeeTransfer(): Promise<void> {
  const inbox = new Inbox();
  const ofTransfer = kindsOn('transfers', 'request', 'patch', 'error');
  const first = await inbox.next<TransfersPostRequest>(ofTransfer, AFTER_EXPIRY_MS);
  if (!first) return;
  // Before the patch, a PATCH or an error in anyone's name was the switch's word on the transfer.
  const switchDecides = patched('payee-believes-the-switch');
  // A notification for a transfer whose conversation has ended (late, or after a restart) still reaches the bank:
  // the switch's, not a PATCH in a participant's name, which says nothing of a transfer the switch moved.
  if (first.name === 'patch') {
    if (switchDecides && !first.fromSwitch) return;
    return notifyBank(first.id!, first.body as unknown as FinalState, undefined, undefined);
  }
  // An error is only handed to a running conversation (fspiopInbound): none can come first, but none starts one.
  if (first.name !== 'request') return;

  const transfer = first.body;
  let told: FinalState['transferState'] | undefined;
  /** The bank hears the final state once: after the switch's COMMITTED no error undoes it, after ABORTED nothing redoes it. */
  const tellBank = async (final: FinalState, fulfil: TransfersIDPutResponse | undefined) => {
    if (told) return;
    told = final.transferState;
    await notifyBank(transfer.transferId, final, transfer, fulfil);
  };
  const aborted = (): FinalState => ({ completedTimestamp: new Date().toISOString(), transferState: 'ABORTED' });

  const { outcome, creditAsked } = await receive(transfer);
  // A credit step that did not end in the bank's answer may still have credited: the bank is told it is void.
  if (!outcome.ok && creditAsked) await tellBank(aborted(), undefined);
  await answer(first.source, 'transfers', transfer.transferId, outcome);
  const fulfil = outcome.ok ? outcome.body : undefined;

  const keptUntil = instantOf(transfer.expiration) + AFTER_EXPIRY_MS;
  // Before the patch, every message in a participant's name was asked about.
  const askingBounded = patched('payee-asks-on-a-peers-word-a-few-times');
  let peerAsks = 0;
  for (;;) {
    const next = await inbox.next(ofTransfer, keptUntil - Date.now());
    if (!next) {
      // A reservation the switch's PATCH never resolved: the payee asks for its state, as the SDK does after its grace time.
      if (fulfil?.transferState === 'RESERVED' && !told) {
        const final = await finalStateAtSwitch(transfer.transferId);
        if (final) await tellBank(final, fulfil);
      }
      return;
    }
    if (next.name === 'request') await answerRepeat(first, next, outcome);
    else if (switchDecides && !next.fromSwitch) {
      // A participant (the payer, or any that knows the ID) cannot end a transfer: the switch is asked instead, a few
      // times at most, so that a peer repeating its message cannot make the payee ask the switch without end.
      if (fulfil && !told && (!askingBounded || peerAsks++ < MAX_ASKS_ON_PEER_WORD)) {
        const final = await finalStateAtSwitch(transfer.transferId);
        if (final) await tellBank(final, fulfil);
      }
    } else if (next.name === 'patch') await tellBank(next.body as FinalState, fulfil);
    else if (fulfil) await tellBank(aborted(), fulfil);
  }
}

/**
 * The payee's decision on a transfer: the fulfilment once the condition checks and the bank has credited (or
 * reserved for) the payee; `creditAsked` once the bank was asked to credit.
 */
async function receive(transfer: TransfersPostRequest): Promise<{ outcome: PayeeOutcome<TransfersIDPutResponse>; creditAsked: boolean }> {
  const fulfilled = await orUnreachable(payee.fulfilmentFor(transfer));
  if (!fulfilled.ok) return { outcome: fulfilled, creditAsked: false };
  const credited = await orUnreachable(payee.creditPayee(transfer, fulfilled.body.transaction));
  if (!credited.ok) return { outcome: credited, creditAsked: true };
  const { completedTimestamp, transferState } = credited.body;
  return { outcome: { ok: true, body: { fulfilment: fulfilled.body.fulfilment, completedTimestamp, transferState } }, creditAsked: true };
}

/**
 * GET /transfers/{ID}: the transfer's final state as the switch answers it (PUT /transfers/{ID}), ABORTED when the
 * switch holds no such transfer (3208); undefined when it is not final yet or no answer came.
 */
async function finalStateAtSwitch(transferId: string): Promise<FinalState | undefined> {
  const asked = await exchangeAsChild({
    request: { resource: 'transfers', name: 'get', id: transferId },
    answerId: transferId,
    from: [],
    waitMs: DEFAULT_ANSWER_WAIT_MS,
  });
  if (asked.kind !== 'answered') return undefined;
  if (asked.message.name === 'error') {
    const { errorInformation } = asked.message.body as { errorInformation: ErrorInformation };
    const notFound = errorInformation.errorCode === fspiopErrors.transferIdNotFound.code;
    return notFound ? { completedTimestamp: new Date().toISOString(), transferState: 'ABORTED' } : undefined;
  }
  const state = asked.message.body as TransfersIDPutResponse;
  if (state.transferState !== 'COMMITTED' && state.transferState !== 'ABORTED') return undefined;
  return { completedTimestamp: state.completedTimestamp ?? new Date().toISOString(), transferState: state.transferState, extensionList: state.extensionList };
}

/** The sdk-scheme-adapter's currentState for a final transferState. */
const CURRENT_STATE: Record<string, string> = { COMMITTED: 'COMPLETED', ABORTED: 'ABORTED' };

/** PUT /transfers/{transferId} to the bank with the switch's final state, and what the payee knows of the transfer. */
function notifyBank(
  transferId: string,
  final: FinalState,
  transfer: TransfersPostRequest | undefined,
  fulfil: TransfersIDPutResponse | undefined,
): Promise<void> {
  const notification = {
    transferId,
    direction: 'INBOUND',
    currentState: CURRENT_STATE[final.transferState] ?? 'ERROR_OCCURRED',
    finalNotification: {
      completedTimestamp: final.completedTimestamp,
      transferState: final.transferState,
      ...(final.extensionList ? { extensionList: final.extensionList.extension } : {}),
    },
    ...(transfer ? { prepare: { body: transfer } } : {}),
    ...(fulfil ? { fulfil: { body: fulfil } } : {}),
  } as BackendTransferNotification;
  return bestEffort(payee.notifyFinalState(transferId, notification), `the final notification of transfer ${transferId}`);
}
