import type { HubConfig } from './config';
import { Database, openDatabase } from './db/database';
import { Funds } from './funds';
import { Ledger } from './ledger/ledger';
import { Limits } from './limits';
import { Participants } from './participants';
import { SettlementModels } from './settlementModels';

/** The hub's stateful services over one database, wired once per process. */
export interface HubServices {
  db: Database;
  ledger: Ledger;
  participants: Participants;
  limits: Limits;
  funds: Funds;
  settlementModels: SettlementModels;
}

export async function openHubServices(
  config: Pick<HubConfig, 'databaseUrl' | 'hubParticipantName'> & Partial<Pick<HubConfig, 'newParticipantsActive'>>,
): Promise<HubServices> {
  const db = await openDatabase(config.databaseUrl, config.hubParticipantName);
  const ledger = new Ledger(db);
  return {
    db,
    ledger,
    participants: new Participants(db, config.hubParticipantName, { createActive: config.newParticipantsActive ?? false }),
    limits: new Limits(db, ledger, config.hubParticipantName),
    funds: new Funds(db, ledger, config.hubParticipantName),
    settlementModels: new SettlementModels(db),
  };
}
