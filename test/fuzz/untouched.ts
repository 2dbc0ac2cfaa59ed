import { In } from 'typeorm';
import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import { JournalEntry, Participant, ParticipantAccount } from '../../activities/hub/db/entities';
import { ConsentRecord } from '../../activities/hub/db/thirdpartyEntities';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { HUB_ID } from '../helpers/switchHarness';
import type { FuzzScheme } from './fixture';

/**
 * What no malformed or hostile message may change: every ledger account of the scheme's participants (value,
 * reservation, and the journal rows behind them, so that a reservation made and released again shows), who holds the
 * payer's registered party (in any currency, in USD, and every holder), and the state of the payer's consent and whom it links. The hub's own accounts are
 * included when the database is this test's alone; on a shared one (DATABASE_URL) other test files move them too.
 */
export async function untouchedState(scheme: FuzzScheme): Promise<unknown> {
  const { db } = scheme.hub.services;
  const names = [scheme.payer, scheme.payee, scheme.stranger, scheme.pisp].map((dfsp) => dfsp.name);
  names.push(scheme.inactive);
  if (!process.env.DATABASE_URL) names.push(HUB_ID);
  // Held for every currency: no currency may be taken from its holder either.
  const lookup = new AccountLookup(db);
  const partyHolder = { anyCurrency: await lookup.owner(scheme.party), USD: await lookup.owner(scheme.party, 'USD'), all: await lookup.owners(scheme.party) };
  return db.read(async (manager) => {
    const participants = await manager.findBy(Participant, { name: In(names) });
    const nameOf = new Map(participants.map((p) => [p.participantId, p.name]));
    const accounts = await manager.findBy(ParticipantAccount, { participantId: In([...nameOf.keys()]) });
    const journal = await manager.findBy(JournalEntry, { accountId: In(accounts.map((account) => account.id)) });
    const ledger = accounts
      .map(({ id, participantId, currency, ledgerAccountType, isActive, value, reservedValue }) => ({
        account: `${nameOf.get(participantId)} ${currency} ${ledgerAccountType}`,
        isActive,
        value,
        reservedValue,
        journalRows: journal.filter((row) => row.accountId === id).length,
      }))
      .sort((a, b) => a.account.localeCompare(b.account));
    const consent = await manager.findOneBy(ConsentRecord, { consentId: scheme.linking.consentId });
    return {
      participants: participants.map(({ name, isActive }) => ({ name, isActive })).sort((a, b) => a.name.localeCompare(b.name)),
      ledger,
      partyHolder,
      consent: consent && { state: consent.state, revokedAt: consent.revokedAt, dfsp: consent.dfsp, pisp: consent.pisp },
    };
  });
}

/**
 * What the payer and payee heard about their conversations in flight from the participants that are party to none of
 * them: a hostile message about someone else's conversation must stop at the hub, so nothing.
 */
export function heardFromOutsiders(scheme: FuzzScheme): string[] {
  const inFlight = Object.values(scheme.conversations).map((ids) => ids.inFlight);
  const outsiders = [scheme.stranger.name, scheme.pisp.name];
  return [scheme.payer, scheme.payee].flatMap((party) =>
    party.received
      .filter((r) => outsiders.includes(String(r.headers['fspiop-source'])) && inFlight.some((id) => r.path.includes(id)))
      .map((r) => `${party.name} heard ${r.method} ${r.path} from ${r.headers['fspiop-source']}`),
  );
}

/** How many messages each of the scheme's participants has received so far. */
export function receivedCounts(scheme: FuzzScheme): Map<SimulatedDfsp, number> {
  return new Map([scheme.payer, scheme.payee, scheme.stranger, scheme.pisp].map((dfsp) => [dfsp, dfsp.received.length]));
}

/** What the participants received after `counts` were taken, one line a message. */
export function receivedSince(counts: Map<SimulatedDfsp, number>): string[] {
  return [...counts].flatMap(([dfsp, count]) =>
    dfsp.received.slice(count).map((r) => `${dfsp.name} received ${r.method} ${r.path} from ${r.headers['fspiop-source']}`),
  );
}
