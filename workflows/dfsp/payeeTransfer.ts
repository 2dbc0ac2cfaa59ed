import type { PayeeOutcome } from '../../activities/dfsp/fspiop/activities';
import type { BackendTransferNotification } from '../../activities/dfsp/backend/coreBanking';
import type { TransfersIDPutResponse, TransfersPostRequest } from '../../api/contracts/bodies';
import type { PeerMessage } from '../../api/contracts/peers';
import { bestEffort } from '../kit/failures';
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
 * refused with PUT /transfers/{ID}/error 3100, nothing credited); the bank credits the payee (backend POST
 * /transfers); the payer's FSP is answered PUT /transfers/{ID} with the fulfilment, COMMITTED.
 *
 * The switch may repeat the POST until it has the answer: each repeat is answered the same, and the bank is asked
 * once. A PATCH /transfers/{ID} (the switch's final state) is passed on to the bank as the SDK passes it on.
 */
export async function payeeTransfer(): Promise<void> {
  const inbox = new Inbox();
  const first = await inbox.next<TransfersPostRequest>(kindsOn('transfers', 'request', 'patch'), AFTER_EXPIRY_MS);
  if (!first) return;
  // A notification for a transfer whose conversation has ended (late, or after a restart) still reaches the bank.
  if (first.name === 'patch') return notifyBank(first, undefined, undefined);

  const transfer = first.body;
  const outcome = await receive(transfer);
  await answer(first.source, 'transfers', transfer.transferId, outcome);

  const keptUntil = Date.parse(transfer.expiration) + AFTER_EXPIRY_MS;
  for (;;) {
    const next = await inbox.next(kindsOn('transfers', 'request', 'patch'), keptUntil - Date.now());
    if (!next) return;
    if (next.name === 'request') await answerRepeat(first, next, outcome);
    else await notifyBank(next, transfer, outcome.ok ? outcome.body : undefined);
  }
}

/** The payee's decision on a transfer: the fulfilment once the condition checks and the bank has credited the payee. */
async function receive(transfer: TransfersPostRequest): Promise<PayeeOutcome<TransfersIDPutResponse>> {
  const fulfilled = await orUnreachable(payee.fulfilmentFor(transfer));
  if (!fulfilled.ok) return fulfilled;
  const credited = await orUnreachable(payee.creditPayee(transfer, fulfilled.body.transaction));
  if (!credited.ok) return credited;
  return { ok: true, body: { fulfilment: fulfilled.body.fulfilment, completedTimestamp: credited.body.completedTimestamp, transferState: 'COMMITTED' } };
}

/** The sdk-scheme-adapter's currentState for a final transferState. */
const CURRENT_STATE: Record<string, string> = { COMMITTED: 'COMPLETED', ABORTED: 'ABORTED' };

/** PUT /transfers/{transferId} to the bank with the switch's final state, and what the payee knows of the transfer. */
function notifyBank(patch: PeerMessage, transfer: TransfersPostRequest | undefined, fulfil: TransfersIDPutResponse | undefined): Promise<void> {
  const final = patch.body as FinalState;
  const transferId = patch.id!;
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
