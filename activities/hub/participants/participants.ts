import { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { LedgerAccountType, Participant, ParticipantAccount, ParticipantEndpoint } from '../db/entities';
import { findAccount, findParticipant } from '../db/accounts';
import { isEndpointType } from '../../shared/contracts/endpoints';
import { HubError } from '../../shared/platform/hubError';

export const HUB_ACCOUNT_TYPES = ['HUB_RECONCILIATION', 'HUB_MULTILATERAL_SETTLEMENT'];
export const DFSP_ACCOUNT_TYPES = ['POSITION', 'SETTLEMENT'];

export interface ParticipantWithAccounts {
  participant: Participant;
  accounts: ParticipantAccount[];
}

/** Participants, their currency accounts and their callback endpoints. */
export class Participants {
  constructor(
    private readonly db: Database,
    readonly hubName: string,
    private readonly options: { createActive: boolean } = { createActive: false },
  ) {}

  list(): Promise<ParticipantWithAccounts[]> {
    return this.db.read(async (manager) => {
      const participants = await manager.find(Participant, { order: { participantId: 'ASC' } });
      const accounts = await manager.find(ParticipantAccount, { order: { id: 'ASC' } });
      return participants.map((participant) => ({
        participant,
        accounts: accounts.filter((account) => account.participantId === participant.participantId),
      }));
    });
  }

  async get(name: string): Promise<ParticipantWithAccounts> {
    return this.db.read(async (manager) => {
      const participant = await findParticipant(manager, name);
      const accounts = await manager.find(ParticipantAccount, {
        where: { participantId: participant.participantId },
        order: { id: 'ASC' },
      });
      return { participant, accounts };
    });
  }

  /**
   * Creates a DFSP inactive (Document 3; active if so configured, as central-ledger does), with POSITION and SETTLEMENT accounts in the currency; naming an existing
   * participant adds the currency to it, as central-ledger does. The hub gets its HUB_* accounts in every
   * currency a DFSP uses, so funds in and settlement have their offset account from the start.
   */
  async create(name: string, currency: string, createdBy = 'admin'): Promise<ParticipantWithAccounts> {
    if (name === this.hubName) throw new HubError('clientError', `${name} is the hub participant`);
    await this.db.transaction(async (manager) => {
      const now = new Date();
      let participant = await manager.findOneBy(Participant, { name });
      if (!participant) {
        participant = manager.create(Participant, { name, isActive: this.options.createActive, createdDate: now, createdBy });
        await manager.insert(Participant, participant);
      } else if (await manager.existsBy(ParticipantAccount, { participantId: participant.participantId, currency })) {
        throw new HubError('clientError', `Participant ${name} already has currency ${currency} registered`);
      }
      await addAccounts(manager, participant.participantId, currency, DFSP_ACCOUNT_TYPES, createdBy);
      const hub = await findParticipant(manager, this.hubName);
      await addAccounts(manager, hub.participantId, currency, HUB_ACCOUNT_TYPES, 'system', { ifMissing: true });
    });
    return this.get(name);
  }

  async setActive(name: string, isActive: boolean): Promise<ParticipantWithAccounts> {
    await this.db.transaction(async (manager) => {
      const participant = await findParticipant(manager, name);
      await manager.update(Participant, { participantId: participant.participantId }, { isActive });
    });
    return this.get(name);
  }

  /** Creates one of the hub's own accounts (HUB_RECONCILIATION, HUB_MULTILATERAL_SETTLEMENT) in a currency. */
  async createHubAccount(name: string, currency: string, type: string): Promise<ParticipantWithAccounts> {
    if (name !== this.hubName) throw new HubError('clientError', `Only the hub participant ${this.hubName} has hub accounts`);
    if (!HUB_ACCOUNT_TYPES.includes(type)) {
      throw new HubError('validationError', `type must be one of ${HUB_ACCOUNT_TYPES.join(', ')}`);
    }
    await this.db.transaction(async (manager) => {
      const hub = await findParticipant(manager, name);
      if (await manager.existsBy(ParticipantAccount, { participantId: hub.participantId, currency, ledgerAccountType: type })) {
        throw new HubError('clientError', `Hub account ${type} already exists in ${currency}`);
      }
      await addAccounts(manager, hub.participantId, currency, [type], 'admin');
    });
    return this.get(name);
  }

  async setAccountActive(name: string, accountId: number, isActive: boolean): Promise<void> {
    await this.db.transaction(async (manager) => {
      const account = await findAccount(manager, name, accountId);
      await manager.update(ParticipantAccount, { id: account.id }, { isActive, changedDate: new Date() });
    });
  }

  async accounts(name: string): Promise<ParticipantAccount[]> {
    return (await this.get(name)).accounts;
  }

  endpoints(name: string): Promise<ParticipantEndpoint[]> {
    return this.db.read(async (manager) => {
      const participant = await findParticipant(manager, name);
      return manager.find(ParticipantEndpoint, { where: { participantId: participant.participantId }, order: { id: 'ASC' } });
    });
  }

  async setEndpoint(name: string, type: string, value: string): Promise<void> {
    if (!isEndpointType(type)) throw new HubError('validationError', `Unknown endpoint type ${type}`);
    await this.db.transaction(async (manager) => {
      const participant = await findParticipant(manager, name);
      const changedDate = new Date();
      const existing = await manager.findOneBy(ParticipantEndpoint, { participantId: participant.participantId, type });
      if (existing) await manager.update(ParticipantEndpoint, { id: existing.id }, { value, changedDate });
      else await manager.insert(ParticipantEndpoint, { participantId: participant.participantId, type, value, changedDate });
    });
  }

  ledgerAccountTypes(): Promise<LedgerAccountType[]> {
    return this.db.read((manager) => manager.find(LedgerAccountType, { order: { name: 'ASC' } }));
  }
}

/** `ifMissing` skips accounts that exist (INSERT OR IGNORE), for concurrent creators of the hub's accounts. */
async function addAccounts(
  manager: EntityManager,
  participantId: number,
  currency: string,
  types: string[],
  createdBy: string,
  { ifMissing = false } = {},
): Promise<void> {
  if (types.length === 0) return;
  const now = new Date();
  const rows = types.map((ledgerAccountType) => ({
    participantId,
    currency,
    ledgerAccountType,
    isActive: true,
    value: '0',
    reservedValue: '0',
    createdDate: now,
    createdBy,
    changedDate: now,
  }));
  const insert = manager.createQueryBuilder().insert().into(ParticipantAccount).values(rows);
  await (ifMissing ? insert.orIgnore() : insert).execute();
}
