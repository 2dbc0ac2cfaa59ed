import { Inbox, kindsOn } from '../participant/inbox';
import { answer, orUnreachable, payee } from './payeeSteps';

/** How long a lookup's workflow stays for the next lookup of the same party before it ends. */
const QUIET_MS = 2_000;

/**
 * GET /parties/{Type}/{ID}[/{SubId}] at the payee (Document 2, /parties): the bank says who the party is (backend
 * GET /parties), and the requester gets PUT /parties/… or, for a party the bank does not hold, PUT …/error 3204.
 * Lookups of the party that arrive while one is answered are answered in turn by the same run.
 */
export async function payeeParty(): Promise<void> {
  const inbox = new Inbox();
  for (;;) {
    const lookup = await inbox.next(kindsOn('parties', 'get'), QUIET_MS);
    if (!lookup?.id) return;
    const party = await orUnreachable(payee.partyLookup(lookup.id));
    await answer(lookup.source, 'parties', lookup.id, party);
  }
}
