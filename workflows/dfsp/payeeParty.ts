import { Inbox, kindsOn } from '../participant/inbox';
import { answer, orUnreachable, payee } from './payeeSteps';

/** How long a lookup's workflow waits for the lookup it was started with (it comes with the start). */
const FIRST_MESSAGE_MS = 2_000;

/**
 * GET /parties/{Type}/{ID}[/{SubId}] at the payee (Document 2, /parties): the bank says who the party is (backend
 * GET /parties), and the requester gets PUT /parties/… or, for a party the bank does not hold, PUT …/error 3204.
 * One lookup, one workflow (participantWorkflowIds.payeeParty): however often a party is looked up, no history grows.
 */
export async function payeeParty(): Promise<void> {
  const inbox = new Inbox();
  const lookup = await inbox.next(kindsOn('parties', 'get'), FIRST_MESSAGE_MS);
  if (!lookup?.id) return;
  const party = await orUnreachable(payee.partyLookup(lookup.id));
  await answer(lookup.source, 'parties', lookup.id, party);
}
