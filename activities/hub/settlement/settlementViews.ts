import { EntityManager, In } from 'typeorm';
import type { Database } from '../db/database';
import { Participant, SettlementModel } from '../db/entities';
import {
  Settlement,
  SettlementParticipantAccount,
  SettlementSettlementWindow,
  SettlementWindow,
  SettlementWindowContent,
  type SettlementState,
} from '../db/settlementEntities';
import { HubError } from '../../shared/platform/hubError';
import { windowView, type WindowView } from './windows';

export interface AccountView {
  id: number;
  state: SettlementState;
  reason: string | null;
  externalReference?: string | null;
  createdDate?: string;
  netSettlementAmount: { amount: number; currency: string };
  /** A change refused for this account (central-settlement answers it inside a 200). */
  errorInformation?: { errorCode: string; errorDescription: string };
}

export interface SettlementView {
  id: number;
  settlementModel?: string;
  state: SettlementState;
  reason: string | null;
  createdDate: string;
  changedDate: string;
  settlementWindows: WindowView[];
  participants: Array<{ id: number; accounts: AccountView[] }>;
}

export interface SettlementQuery {
  state?: SettlementState;
  currency?: string;
  participantId?: number;
  accountId?: number;
  settlementWindowId?: number;
  fromDateTime?: string;
  toDateTime?: string;
  fromSettlementWindowDateTime?: string;
  toSettlementWindowDateTime?: string;
}

/** One participant's line of a settlement report: what an operator hands the settlement bank. */
export interface ReportLine {
  participant: string;
  participantId: number;
  accountId: number;
  currency: string;
  netSettlementAmount: string;
  transferCount: number;
  state: SettlementState;
}

/** A settlement as central-settlement answers it: its windows with their content, and its participants' accounts. */
export function settlementView(db: Database, settlementId: number): Promise<SettlementView> {
  return db.read(async (manager) => (await viewsOf(manager, [await settlementOf(manager, settlementId)]))[0]);
}

/** The settlements matching every filter given (at least one, as central-settlement requires); none is an error (3100). */
export async function findSettlements(db: Database, query: SettlementQuery): Promise<SettlementView[]> {
  const given = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
  if (given.length === 0) {
    throw new HubError(
      'validationError',
      'Use at least one parameter: state, fromDateTime, toDateTime, currency, settlementWindowId, fromSettlementWindowDateTime, toSettlementWindowDateTime, participantId, accountId',
    );
  }
  return db.read(async (manager) => {
    const builder = manager.createQueryBuilder(Settlement, 's');
    if (query.state) builder.andWhere('s.state = :state', { state: query.state });
    if (query.fromDateTime) builder.andWhere('s.createdDate >= :from', { from: new Date(query.fromDateTime) });
    if (query.toDateTime) builder.andWhere('s.createdDate <= :to', { to: new Date(query.toDateTime) });
    if (query.currency || query.participantId !== undefined || query.accountId !== undefined) {
      const accounts = manager.createQueryBuilder().select('1').from('settlement_participant_account', 'a').where('a.settlementId = s.settlementId');
      if (query.currency) accounts.andWhere('a.currency = :currency', { currency: query.currency });
      if (query.participantId !== undefined) accounts.andWhere('a.participantId = :participantId', { participantId: query.participantId });
      if (query.accountId !== undefined) accounts.andWhere('a.accountId = :accountId', { accountId: query.accountId });
      builder.andWhere(`EXISTS (${accounts.getQuery()})`, accounts.getParameters());
    }
    if (query.settlementWindowId !== undefined || query.fromSettlementWindowDateTime || query.toSettlementWindowDateTime) {
      const windows = manager
        .createQueryBuilder()
        .select('1')
        .from('settlement_settlement_window', 'l')
        .innerJoin('settlement_window', 'w', 'w.settlementWindowId = l.settlementWindowId')
        .where('l.settlementId = s.settlementId');
      if (query.settlementWindowId !== undefined) windows.andWhere('l.settlementWindowId = :windowId', { windowId: query.settlementWindowId });
      if (query.fromSettlementWindowDateTime) windows.andWhere('w.createdDate >= :windowFrom', { windowFrom: new Date(query.fromSettlementWindowDateTime) });
      if (query.toSettlementWindowDateTime) windows.andWhere('w.createdDate <= :windowTo', { windowTo: new Date(query.toSettlementWindowDateTime) });
      builder.andWhere(`EXISTS (${windows.getQuery()})`, windows.getParameters());
    }
    const settlements = await builder.orderBy('s.settlementId', 'ASC').getMany();
    if (settlements.length === 0) {
      throw new HubError('validationError', `No settlements found matching the provided parameters: ${JSON.stringify(Object.fromEntries(given))}`);
    }
    const views = await viewsOf(manager, settlements);
    if (query.participantId === undefined && query.accountId === undefined) return views;
    return views.map((view) => ({
      ...view,
      participants: view.participants
        .filter((participant) => query.participantId === undefined || participant.id === query.participantId)
        .map((participant) => ({
          ...participant,
          accounts: participant.accounts.filter((account) => query.accountId === undefined || account.id === query.accountId),
        })),
    }));
  });
}

/** Each participant's net amount and transfer count: the report an operator hands the settlement bank. */
export function settlementReport(db: Database, settlementId: number): Promise<{ settlement: SettlementView; lines: ReportLine[] }> {
  return db.read(async (manager) => {
    const settlement = (await viewsOf(manager, [await settlementOf(manager, settlementId)]))[0];
    const accounts = await manager.find(SettlementParticipantAccount, { where: { settlementId }, order: { currency: 'ASC', accountId: 'ASC' } });
    const participants = await manager.findBy(Participant, { participantId: In([...new Set(accounts.map((account) => account.participantId))]) });
    const names = new Map(participants.map((participant) => [participant.participantId, participant.name]));
    return {
      settlement,
      lines: accounts.map((account) => ({
        participant: names.get(account.participantId) ?? String(account.participantId),
        participantId: account.participantId,
        accountId: account.accountId,
        currency: account.currency,
        netSettlementAmount: account.netAmount,
        transferCount: account.transferCount,
        state: account.state,
      })),
    };
  });
}

/** The settlement `settlementId`, or a refusal (3100) naming it. */
export async function settlementOf(manager: EntityManager, settlementId: number): Promise<Settlement> {
  const settlement = await manager.findOneBy(Settlement, { settlementId });
  if (!settlement) throw new HubError('validationError', `Settlement with ID '${settlementId}' not found`);
  return settlement;
}

export function accountView(account: SettlementParticipantAccount): AccountView {
  return {
    id: account.accountId,
    state: account.state,
    reason: account.reason,
    externalReference: account.externalReference,
    createdDate: account.createdDate.toISOString(),
    netSettlementAmount: { amount: Number(account.netAmount), currency: account.currency },
  };
}

async function viewsOf(manager: EntityManager, settlements: Settlement[]): Promise<SettlementView[]> {
  const ids = settlements.map((settlement) => settlement.settlementId);
  const links = await manager.findBy(SettlementSettlementWindow, { settlementId: In(ids) });
  const windowIds = [...new Set(links.map((link) => link.settlementWindowId))];
  const windows = windowIds.length ? await manager.findBy(SettlementWindow, { settlementWindowId: In(windowIds) }) : [];
  const content = windowIds.length ? await manager.find(SettlementWindowContent, { where: { settlementWindowId: In(windowIds) }, order: { id: 'ASC' } }) : [];
  const accounts = await manager.find(SettlementParticipantAccount, { where: { settlementId: In(ids) }, order: { participantId: 'ASC', accountId: 'ASC' } });
  const models = await manager.findBy(SettlementModel, { settlementModelId: In([...new Set(settlements.map((s) => s.settlementModelId))]) });
  return settlements.map((settlement) => {
    const own = accounts.filter((account) => account.settlementId === settlement.settlementId);
    const participantIds = [...new Set(own.map((account) => account.participantId))];
    return {
      id: settlement.settlementId,
      settlementModel: models.find((model) => model.settlementModelId === settlement.settlementModelId)?.name,
      state: settlement.state,
      reason: settlement.reason,
      createdDate: settlement.createdDate.toISOString(),
      changedDate: settlement.changedDate.toISOString(),
      settlementWindows: links
        .filter((link) => link.settlementId === settlement.settlementId)
        .map((link) => windows.find((window) => window.settlementWindowId === link.settlementWindowId)!)
        .map((window) =>
          windowView(
            window,
            content.filter((row) => row.settlementWindowId === window.settlementWindowId),
          ),
        ),
      participants: participantIds.map((id) => ({ id, accounts: own.filter((account) => account.participantId === id).map(accountView) })),
    };
  });
}
