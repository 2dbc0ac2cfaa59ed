import { Transfers } from '../../activities/hub/conversations/transfers';
import type { AdminHarness } from './adminHarness';
import { uniqueName } from './database';
import { ilpPair, transferBody } from './fspiopBodies';
import { onboardParticipant } from './hubProcesses';

/**
 * A payment of `amount` USD committed between two new DFSPs, as the transfer's workflow steps make it (its prepare
 * and commit, straight on the ledger): what the ledger's checks need to have something to check.
 */
export async function committedPayment(admin: AdminHarness, amount: string): Promise<{ payer: string; payee: string }> {
  const [payer, payee] = [uniqueName(), uniqueName()];
  for (const name of [payer, payee]) await onboardParticipant(admin.url, name, 'http://127.0.0.1:9', { currency: 'USD' });
  const transfers = new Transfers(admin.services);
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer, payee, amount, { condition });
  await transfers.prepare({ body, source: payer, requestHash: 'h' });
  await transfers.commit({ transferId: body.transferId, fulfilment, payeeWantsNotification: false });
  return { payer, payee };
}
