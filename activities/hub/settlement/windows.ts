import { EntityManager, In, MoreThan } from 'typeorm';
import type { Database } from '../db/database';
import { SettlementModel } from '../db/entities';
import { SettlementWindow, SettlementWindowContent, type SettlementWindowState } from '../db/settlementEntities';
import { HubError } from '../../shared/platform/hubError';
import { PAYMENT_KIND } from '../ledger/ledger';
import { windowModelFor } from './models';

/** The settlement models a window's committed payments in a currency committed under (null: none), one row each. */
export interface PaymentModels {
  settlementWindowId: number;
  currency: string;
  settlementModelId: number | null;
}

/** The settlement models the windows' committed payments committed under, per window and currency. */
export async function paymentModels(manager: EntityManager, windowIds: number[]): Promise<PaymentModels[]> {
  if (windowIds.length === 0) return [];
  const rows: PaymentModels[] = await manager.query(
    `SELECT settlementWindowId, currency, settlementModelId FROM ledger_transfer
     WHERE settlementWindowId IN (${windowIds.map(() => '?').join(', ')}) AND kind = ? AND state = 'COMMITTED'
     GROUP BY settlementWindowId, currency, settlementModelId`,
    [...windowIds, PAYMENT_KIND],
  );
  return rows.map((row) => ({
    settlementWindowId: Number(row.settlementWindowId),
    currency: row.currency,
    settlementModelId: row.settlementModelId === null ? null : Number(row.settlementModelId),
  }));
}

/** Of `rows`, the models a window's payments in a currency committed under. */
export function modelsUnder(rows: PaymentModels[], windowId: number, currency: string): Array<number | null> {
  return rows.filter((row) => row.settlementWindowId === windowId && row.currency === currency).map((row) => row.settlementModelId);
}

/** A settlement window as central-settlement answers it: `settlementWindowId` as its code does, `id` as its document does. */
export interface WindowView {
  settlementWindowId: number;
  id: number;
  state: SettlementWindowState;
  reason: string | null;
  createdDate: string;
  changedDate: string;
  content?: ContentView[];
}

export interface ContentView {
  id: number;
  settlementWindowId: number;
  state: SettlementWindowState;
  ledgerAccountType: string;
  currencyId: string;
  createdDate: string;
  changedDate: string;
  settlementId: number | null;
}

export interface WindowQuery {
  participantId?: number;
  state?: SettlementWindowState;
  fromDateTime?: string;
  toDateTime?: string;
  currency?: string;
}

/** What closing a window did: the window now CLOSED, and the one opened in its place. */
export interface ClosedWindow {
  closed: WindowView;
  opened: WindowView;
}

export function windowView(window: SettlementWindow, content?: SettlementWindowContent[]): WindowView {
  return {
    settlementWindowId: window.settlementWindowId,
    id: window.settlementWindowId,
    state: window.state,
    reason: window.reason,
    createdDate: window.createdDate.toISOString(),
    changedDate: window.changedDate.toISOString(),
    ...(content ? { content: content.map(contentView) } : {}),
  };
}

function contentView(content: SettlementWindowContent): ContentView {
  return {
    id: content.id,
    settlementWindowId: content.settlementWindowId,
    state: content.state,
    ledgerAccountType: content.ledgerAccountType,
    currencyId: content.currency,
    createdDate: content.createdDate.toISOString(),
    changedDate: content.changedDate.toISOString(),
    settlementId: content.settlementId,
  };
}

/** Settlement windows (central-settlement's): one OPEN at a time, closed on request or on the operator's schedule. */
export class SettlementWindows {
  constructor(private readonly db: Database) {}

  /** The window open now. */
  open(): Promise<WindowView> {
    return this.db.read(async (manager) => {
      const window = await manager.findOne(SettlementWindow, { where: { state: 'OPEN' }, order: { settlementWindowId: 'DESC' } });
      if (!window) throw new HubError('internalServerError', 'no settlement window is open');
      return windowView(window, []);
    });
  }

  /**
   * Closes the open window `windowId` and opens the next, in one transaction: its content is one row per currency of
   * its committed payments that a deferred net model is to settle (windowModelFor: none settled gross as it
   * committed). Refused (3100) when there is no such window or it holds no payment, as central-settlement refuses.
   * Closing it again, once closed, answers what the first close did, even from an attempt that read it open before
   * another closed it: the step is retried safely.
   */
  async close(windowId: number, reason: string): Promise<ClosedWindow> {
    const done = await this.db.read((manager) => this.closedBy(manager, windowId));
    if (done) return done;
    return this.db.transaction(async (manager) => {
      const now = new Date();
      // The update comes first: on MySQL it waits for the commits that hold the window (openWindowIdIn) to finish.
      const updated = await manager.update(SettlementWindow, { settlementWindowId: windowId, state: 'OPEN' }, { state: 'CLOSED', reason, changedDate: now });
      if (!updated.affected) {
        // Closed since this step read it open, by another attempt of it: answered as a close asked again is.
        const closed = await this.closedBy(manager, windowId);
        if (!closed) throw new HubError('validationError', `Window ${windowId} does not exist`);
        return closed;
      }
      const committed = await paymentModels(manager, [windowId]);
      // Thrown: the transaction is undone and the window stays open.
      if (committed.length === 0) throw new HubError('validationError', `Window ${windowId} is empty`);
      const models = await manager.find(SettlementModel);
      const currencies = [...new Set(committed.map((row) => row.currency))];
      const settled = currencies.filter((currency) => windowModelFor(models, currency, modelsUnder(committed, windowId, currency)));
      if (settled.length > 0) {
        await manager.insert(
          SettlementWindowContent,
          settled.map((currency) => ({
            settlementWindowId: windowId,
            ledgerAccountType: 'POSITION',
            currency,
            state: 'CLOSED' as const,
            settlementId: null,
            createdDate: now,
            changedDate: now,
          })),
        );
      }
      await manager.insert(SettlementWindow, { state: 'OPEN', reason, createdDate: now, changedDate: now });
      return (await this.closedBy(manager, windowId))!;
    });
  }

  /** What closed `windowId`, once it is closed: it and the window opened after it. */
  private async closedBy(manager: EntityManager, windowId: number): Promise<ClosedWindow | undefined> {
    const window = await manager.findOneBy(SettlementWindow, { settlementWindowId: windowId });
    if (!window || window.state === 'OPEN') return undefined;
    // Windows are opened one at a time, each by the close of the one before it.
    const opened = await manager.findOne(SettlementWindow, { where: { settlementWindowId: MoreThan(windowId) }, order: { settlementWindowId: 'ASC' } });
    if (!opened) throw new HubError('internalServerError', `no window was opened after window ${windowId}`);
    return { closed: windowView(window, await this.contentOf(manager, [windowId])), opened: windowView(opened) };
  }

  async get(windowId: number): Promise<WindowView> {
    return this.db.read(async (manager) => {
      const window = await manager.findOneBy(SettlementWindow, { settlementWindowId: windowId });
      if (!window) throw new HubError('validationError', `settlementWindow ${windowId} not found`);
      return windowView(window, await this.contentOf(manager, [windowId]));
    });
  }

  /**
   * The windows matching every filter given (at least one, as central-settlement requires), most recently changed
   * first; `participantId` and `currency` match the windows holding such payments. None found is an error (3100).
   */
  async find(query: WindowQuery): Promise<WindowView[]> {
    const given = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
    if (given.length === 0) {
      throw new HubError('validationError', 'Use at least one parameter: participantId, state, fromDateTime, toDateTime, currency');
    }
    return this.db.read(async (manager) => {
      const builder = manager.createQueryBuilder(SettlementWindow, 'w');
      if (query.state) builder.andWhere('w.state = :state', { state: query.state });
      if (query.fromDateTime) builder.andWhere('w.createdDate >= :from', { from: new Date(query.fromDateTime) });
      if (query.toDateTime) builder.andWhere('w.createdDate <= :to', { to: new Date(query.toDateTime) });
      if (query.participantId !== undefined || query.currency) {
        const holding = manager
          .createQueryBuilder()
          .select('1')
          .from('ledger_transfer', 't')
          .innerJoin('participant_account', 'a', 'a.id = t.debitAccountId OR a.id = t.creditAccountId')
          .where('t.settlementWindowId = w.settlementWindowId')
          .andWhere('t.kind = :kind', { kind: PAYMENT_KIND });
        if (query.participantId !== undefined) holding.andWhere('a.participantId = :participantId', { participantId: query.participantId });
        if (query.currency) holding.andWhere('t.currency = :currency', { currency: query.currency });
        builder.andWhere(`EXISTS (${holding.getQuery()})`, holding.getParameters());
      }
      const windows = await builder.orderBy('w.changedDate', 'DESC').addOrderBy('w.settlementWindowId', 'DESC').getMany();
      if (windows.length === 0) throw new HubError('validationError', `settlementWindow by filters: ${JSON.stringify(Object.fromEntries(given))} not found`);
      const content = await this.contentOf(
        manager,
        windows.map((window) => window.settlementWindowId),
      );
      return windows.map((window) =>
        windowView(
          window,
          content.filter((row) => row.settlementWindowId === window.settlementWindowId),
        ),
      );
    });
  }

  private contentOf(manager: EntityManager, windowIds: number[]): Promise<SettlementWindowContent[]> {
    return manager.find(SettlementWindowContent, { where: { settlementWindowId: In(windowIds) }, order: { id: 'ASC' } });
  }
}
