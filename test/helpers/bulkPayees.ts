import { Decimal } from '../../activities/hub/db/money';
import type { ReceivedRequest, SimulatedDfsp } from './dfsp';
import type { BulkItem } from './fspiopBodies';
import { HUB_ID, type Sender } from './switchHarness';

export type ItemAnswer = { fulfilment: string } | { errorInformation: { errorCode: string; errorDescription: string } } | undefined;

export const isBulkPost = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/bulkTransfers';

/**
 * The payee answers each POST /bulkTransfers it gets with PUT /bulkTransfers/{ID} addressed to the hub, as Mojaloop's
 * SDK does (the POST came from the hub): per item what `answer` says, leaving out items it answers undefined.
 */
export function answering(hub: Sender, payee: SimulatedDfsp, answer: (transferId: string) => ItemAnswer): void {
  payee.react(async (request) => {
    if (!isBulkPost(request)) return;
    const individualTransferResults = request.body.individualTransfers.flatMap(({ transferId }: { transferId: string }) => {
      const result = answer(transferId);
      return result ? [{ transferId, ...result }] : [];
    });
    await hub.fspiop('PUT', `/bulkTransfers/${request.body.bulkTransferId}`, {
      source: payee.name,
      destination: HUB_ID,
      body: { bulkTransferState: 'COMPLETED', completedTimestamp: new Date().toISOString(), individualTransferResults },
    });
  });
}

/** The total amount of `items`. */
export const sum = (items: BulkItem[]) => items.reduce((total, item) => total.plus(item.transfer.transferAmount.amount), new Decimal(0));

/** Per item of a PUT /bulkTransfers/{ID}: its error code, 'fulfilled', or 'open'. */
export const codesOf = (put: ReceivedRequest) =>
  put.body.individualTransferResults.map((r: any) => r.errorInformation?.errorCode ?? (r.fulfilment ? 'fulfilled' : 'open'));
