import { EntityManager, In, IsNull, MoreThan } from 'typeorm';
import type { Database } from '../db/database';
import { LedgerTransfer, Participant, ParticipantAccount, SettlementModel } from '../db/entities';
import { formatAmount } from '../db/money';
import {
  Settlement,
  SettlementParticipantAccount,
  SettlementSettlementWindow,
  SettlementWindow,
  SettlementWindowContent,
  type SettlementState,
} from '../db/settlementEntities';
import { Decimal } from '../db/money';
import type { Ledger, Movement } from '../ledger/ledger';
import { PAYMENT_KIND } from '../ledger/ledger';
import { addToNetPositions, netSettlementReset, type NetPosition } from '../ledger/rules';
import { HubError } from '../../platform/hubError';
import { abortProblem, accountChange, settlementStateAfter } from './settlementStates';
import { reportedValue } from '../ledger/limits';
import { positionChangeNotice } from '../notifications/notices';
import { notifyIn } from '../notifications/notifications';
import { unsettledUnder, windowModelFor } from './models';
import { modelsUnder, paymentModels, windowView, type WindowView } from './windows';

export interface SettlementRequest {
  settlementModel: string;
  reason: string;
  settlementWindows: Array<{ id: number }>;
}

export interface AccountChangeRequest {
  id: number;
  state: SettlementState;
  reason?: string;
  externalReference?: string;
}

export interface ParticipantChangeRequest {
  id: number;
  accounts: AccountChangeRequest[];
}

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

/** A content row a settlement takes, and the models its payments still to settle committed under (null: none). */
interface ContentSettled {
  row: SettlementWindowContent;
  under: Array<number | null>;
}

/** The ledger movement that resets a position by its net settlement amount, against the hub's multilateral account. */
const movementIdOf = (settlementId: number, accountId: number) => `settlement-${settlementId}-${accountId}`;
const SETTLEMENT_KIND = 'SETTLEMENT_NET';
/** How many of a window's payments are read at once while their net amounts are added up. */
const PAYMENT_PAGE = 5_000;

const refusedAccount = (description: string) => ({ errorCode: '3000', errorDescription: `Generic client error - ${description}` });

/**
 * Settlements of closed windows under a deferred net model (central-settlement's), and their ledger effect. Each
 * participant's net amount is what it paid less what it received over the windows; as its accounts move through
 * PS_TRANSFERS_RESERVED and PS_TRANSFERS_COMMITTED the ledger reserves, then commits, a movement that takes that amount
 * out of its position against the hub's HUB_MULTILATERAL_SETTLEMENT account (a net receiver's position rises, a net
 * payer's falls, both to where they stood before the windows), so the Net Debit Cap frees up again. Every step is
 * idempotent: a retried one finds its accounts moved and moves nothing twice.
 */
export class Settlements {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly hubName: string,
  ) {}

  /**
   * Creates a settlement of the windows' content that the model settles (windowModelFor: the currency's net model, or
   * the one its payments committed under where the currency has moved to gross or to none since; an inactive model
   * settles only that). Refused (3100) for an unknown model, a gross or immediate one, or a window that is not closed
   * (or aborted, or pending another currency's settlement) with content for the model still unsettled. The windows and
   * their content turn PENDING_SETTLEMENT.
   */
  async create(request: SettlementRequest): Promise<SettlementView> {
    const settlementId = await this.db.transaction(async (manager) => {
      const model = await manager.findOneBy(SettlementModel, { name: request.settlementModel });
      if (!model) throw new HubError('validationError', `Settlement model not found: ${request.settlementModel}`);
      if (model.settlementGranularity === 'GROSS' || model.settlementDelay === 'IMMEDIATE') {
        throw new HubError('validationError', 'Settlement can not be created for GROSS or IMMEDIATE models');
      }
      const windowIds = [...new Set(request.settlementWindows.map((window) => window.id))];
      const settled = await this.contentSettledBy(manager, model, windowIds);
      const content = settled.map(({ row }) => row);
      const windows = await manager.findBy(SettlementWindow, { settlementWindowId: In(windowIds) });
      const applicable = new Set(
        windows
          .filter((window) => ['CLOSED', 'ABORTED', 'PENDING_SETTLEMENT'].includes(window.state))
          .filter((window) => content.some((row) => row.settlementWindowId === window.settlementWindowId))
          .map((window) => window.settlementWindowId),
      );
      const inapplicable = windowIds.filter((id) => !applicable.has(id));
      if (inapplicable.length > 0) throw new HubError('validationError', `Inapplicable windows ${inapplicable.join(', ')}`);
      const currencies = [...new Set(content.map((row) => row.currency))];
      if (model.autoPositionReset) await this.hubAccounts(manager, currencies);

      const now = new Date();
      const { identifiers } = await manager.insert(Settlement, {
        settlementModelId: model.settlementModelId,
        state: 'PENDING_SETTLEMENT',
        reason: request.reason,
        createdDate: now,
        changedDate: now,
      });
      const id = Number(identifiers[0].settlementId);
      // Only content no other settlement took meanwhile: a window's content is settled once.
      const taken = await manager.update(
        SettlementWindowContent,
        { id: In(content.map((row) => row.id)), settlementId: IsNull() },
        { settlementId: id, state: 'PENDING_SETTLEMENT', changedDate: now },
      );
      if (taken.affected !== content.length) throw new HubError('validationError', `Inapplicable windows ${windowIds.join(', ')}`);
      await manager.insert(
        SettlementSettlementWindow,
        windowIds.map((settlementWindowId) => ({ settlementId: id, settlementWindowId })),
      );
      await manager.update(
        SettlementWindow,
        { settlementWindowId: In(windowIds), state: In(['CLOSED', 'ABORTED']) },
        { state: 'PENDING_SETTLEMENT', reason: request.reason, changedDate: now },
      );
      const nets = await this.netPositions(manager, settled);
      const accounts = nets.size ? await manager.findBy(ParticipantAccount, { id: In([...nets.keys()]) }) : [];
      if (accounts.length > 0) {
        await manager.insert(
          SettlementParticipantAccount,
          accounts.map((account) => ({
            settlementId: id,
            participantId: account.participantId,
            accountId: account.id,
            currency: account.currency,
            netAmount: formatAmount(nets.get(account.id)!.netAmount),
            transferCount: nets.get(account.id)!.transferCount,
            state: 'PENDING_SETTLEMENT' as const,
            reason: request.reason,
            externalReference: null,
            createdDate: now,
            changedDate: now,
          })),
        );
      }
      return id;
    });
    return { ...(await this.get(settlementId)), settlementModel: request.settlementModel };
  }

  /**
   * The windows' content still to settle that `model` settles (windowModelFor), each row with the models its payments
   * committed under that left them unsettled (unsettledUnder).
   */
  private async contentSettledBy(manager: EntityManager, model: SettlementModel, windowIds: number[]): Promise<ContentSettled[]> {
    const models = await manager.find(SettlementModel);
    const committed = await paymentModels(manager, windowIds);
    const content = await manager.findBy(SettlementWindowContent, {
      settlementWindowId: In(windowIds),
      ledgerAccountType: model.ledgerAccountType,
      state: In(['CLOSED', 'ABORTED']),
      settlementId: IsNull(),
    });
    return content
      .map((row) => ({ row, under: modelsUnder(committed, row.settlementWindowId, row.currency) }))
      .filter(({ row, under }) => windowModelFor(models, row.currency, under)?.settlementModelId === model.settlementModelId)
      .map(({ row, under }) => ({ row, under: unsettledUnder(models, under) }));
  }

  /**
   * The committed payments of each content row's window and currency that no model settled yet (those committed under
   * `under`: a gross model settled its own as they committed), added up per position account a page at a time.
   */
  private async netPositions(manager: EntityManager, settled: ContentSettled[]): Promise<Map<number, NetPosition>> {
    const nets = new Map<number, NetPosition>();
    for (const { row, under } of settled) {
      const { settlementWindowId, currency } = row;
      const ids = under.filter((id) => id !== null);
      const models = [...(under.includes(null) ? [IsNull()] : []), ...(ids.length > 0 ? [In(ids)] : [])];
      let after = '';
      while (models.length > 0) {
        const page = await manager.find(LedgerTransfer, {
          where: models.map((settlementModelId) => ({
            settlementWindowId,
            currency,
            kind: PAYMENT_KIND,
            state: 'COMMITTED' as const,
            settlementModelId,
            transferId: MoreThan(after),
          })),
          select: { transferId: true, debitAccountId: true, creditAccountId: true, amount: true },
          order: { transferId: 'ASC' },
          take: PAYMENT_PAGE,
        });
        addToNetPositions(page, nets);
        if (page.length < PAYMENT_PAGE) break;
        after = page.at(-1)!.transferId;
      }
    }
    return nets;
  }

  /** The hub's HUB_MULTILATERAL_SETTLEMENT account in each currency, which every reset moves against. */
  private async hubAccounts(manager: EntityManager, currencies: string[]): Promise<Map<string, ParticipantAccount>> {
    const hub = await manager.findOneBy(Participant, { name: this.hubName });
    const accounts = hub
      ? await manager.findBy(ParticipantAccount, {
          participantId: hub.participantId,
          currency: In(currencies),
          ledgerAccountType: 'HUB_MULTILATERAL_SETTLEMENT',
        })
      : [];
    const missing = currencies.filter((currency) => !accounts.some((account) => account.currency === currency));
    if (missing.length > 0) throw new HubError('validationError', `the hub has no HUB_MULTILATERAL_SETTLEMENT account in ${missing.join(', ')}`);
    return new Map(accounts.map((account) => [account.currency, account]));
  }

  async get(settlementId: number): Promise<SettlementView> {
    return this.db.read(async (manager) => (await this.views(manager, [await this.settlementOf(manager, settlementId)]))[0]);
  }

  /**
   * Moves participants' accounts a step, each as central-settlement allows (accountChange): a refused one carries its
   * error in the answer, the others move, and the settlement follows once none is left behind. Accounts reaching
   * PS_TRANSFERS_RESERVED reserve their reset, those reaching PS_TRANSFERS_COMMITTED commit it, in the same
   * transaction as their new state. The answer holds the accounts asked about.
   */
  async change(settlementId: number, participants: ParticipantChangeRequest[]): Promise<SettlementView> {
    const { settlement, model, accounts } = await this.db.read(async (manager) => {
      const settlement = await this.settlementOf(manager, settlementId);
      return {
        settlement,
        model: (await manager.findOneBy(SettlementModel, { settlementModelId: settlement.settlementModelId }))!,
        accounts: await manager.findBy(SettlementParticipantAccount, { settlementId }),
      };
    });
    const byId = new Map(accounts.map((account) => [account.accountId, account]));
    const refused = new Map<number, AccountView['errorInformation']>();
    const moves: Array<{ account: SettlementParticipantAccount; change: AccountChangeRequest }> = [];
    const seen = new Set<number>();
    for (const participant of participants) {
      for (const change of participant.accounts) {
        const account = byId.get(change.id);
        if (!account) refused.set(change.id, refusedAccount('Account not found'));
        else if (account.participantId !== participant.id) refused.set(change.id, refusedAccount('Participant and account mismatch'));
        else if (seen.has(change.id)) refused.set(change.id, refusedAccount('Account already processed once'));
        else if (accountChange(settlement.state, account.state, change.state) === 'refused') refused.set(change.id, refusedAccount('State change not allowed'));
        else moves.push({ account, change });
        seen.add(change.id);
      }
    }
    const apply = (manager: EntityManager) => this.applyMoves(manager, settlement, moves, model.autoPositionReset);
    const moving = moves.filter(({ account, change }) => change.state !== account.state && !new Decimal(account.netAmount).isZero());
    if (model.autoPositionReset && moving.length > 0 && settlement.state === 'PS_TRANSFERS_RECORDED') {
      const hub = await this.db.read((manager) => this.hubAccounts(manager, [...new Set(moving.map(({ account }) => account.currency))]));
      await this.ledger.reserveEach(
        moving.map(({ account }) => resetOf(account, hub.get(account.currency)!)),
        { alongside: apply },
      );
    } else if (model.autoPositionReset && moving.length > 0 && settlement.state === 'PS_TRANSFERS_RESERVED') {
      await this.ledger.resolveEach(
        moving.map(({ account }) => ({ transferId: movementIdOf(settlementId, account.accountId), outcome: 'COMMITTED' as const })),
        apply,
      );
    } else {
      await this.db.transaction(apply);
    }
    const view = await this.get(settlementId);
    const asked = new Set(participants.flatMap((participant) => participant.accounts.map((account) => account.id)));
    return {
      ...view,
      participants: [
        ...view.participants
          .map((participant) => ({ ...participant, accounts: participant.accounts.filter((account) => asked.has(account.id) && !refused.has(account.id)) }))
          .filter((participant) => participant.accounts.length > 0),
        ...[...refused].map(([id, errorInformation]) => {
          const account = byId.get(id);
          return { id: account?.participantId ?? 0, accounts: [{ ...(account ? accountView(account) : { id }), errorInformation } as AccountView] };
        }),
      ],
    };
  }

  /**
   * The accounts' new states, and the settlement's (with its windows' once it is SETTLED). Each is written only while it
   * stands as the step read it (compare-and-set): a step that read before another changed the settlement writes nothing
   * and is decided again (StaleStep), so a stalled retry neither moves an account back nor queues an e-mail twice.
   */
  private async applyMoves(
    manager: EntityManager,
    settlement: Settlement,
    moves: Array<{ account: SettlementParticipantAccount; change: AccountChangeRequest }>,
    resets: boolean,
  ): Promise<void> {
    const now = new Date();
    // Taken first: two changes of one settlement wait for each other here.
    await settlementStillAt(manager, settlement, { changedDate: now });
    for (const { account, change } of moves) {
      await accountStillAt(manager, account, {
        state: change.state,
        reason: change.reason ?? account.reason,
        externalReference: change.externalReference ?? account.externalReference,
        changedDate: now,
      });
      if (change.state === 'PS_TRANSFERS_COMMITTED' && account.state !== change.state && resets && !new Decimal(account.netAmount).isZero()) {
        const position = await manager.findOneByOrFail(ParticipantAccount, { id: account.accountId });
        await notifyIn(manager, this.hubName, account.participantId, (dfsp) => positionChangeNotice(dfsp, account.currency, reportedValue(position)));
      }
    }
    // A locking read on MySQL: the step's snapshot may be older than the settlement's lock (the ledger read first).
    const states = await manager.find(SettlementParticipantAccount, {
      where: { settlementId: settlement.settlementId },
      select: { id: true, state: true },
      ...(this.db.isMysql ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    const next = settlementStateAfter(
      settlement.state,
      states.map((account) => account.state),
    );
    if (next === settlement.state) return;
    const reason = next === 'SETTLED' ? 'All settlement accounts are SETTLED' : `All settlement accounts are ${next}`;
    await settlementStillAt(manager, settlement, { state: next, reason, changedDate: now });
    if (next === 'SETTLED') await this.windowsFollow(manager, settlement.settlementId, 'SETTLED', now);
  }

  /**
   * Aborts a settlement that has committed nothing (abortProblem): reservations are released, accounts and the
   * settlement turn ABORTED, and its windows' content is freed for another settlement (ABORTED). Written only while the
   * settlement and its accounts stand as read (compare-and-set): an abort decided before a commit is decided again.
   */
  async abort(settlementId: number, reason: string, externalReference?: string): Promise<{ id: number; state: 'ABORTED'; reason: string }> {
    const { settlement, accounts } = await this.db.read(async (manager) => ({
      settlement: await this.settlementOf(manager, settlementId),
      accounts: await manager.findBy(SettlementParticipantAccount, { settlementId }),
    }));
    const problem = abortProblem(
      settlementId,
      settlement.state,
      accounts.map((account) => account.state),
    );
    if (problem) throw new HubError('validationError', problem);
    const aborting = async (manager: EntityManager) => {
      const now = new Date();
      await settlementStillAt(manager, settlement, { state: 'ABORTED', reason, changedDate: now });
      for (const account of accounts) {
        await accountStillAt(manager, account, { state: 'ABORTED', reason, changedDate: now, ...(externalReference ? { externalReference } : {}) });
      }
      if (settlement.state !== 'ABORTED') await this.windowsFollow(manager, settlementId, 'ABORTED', now);
    };
    const reserved = await this.db.read((manager) =>
      manager.findBy(LedgerTransfer, {
        transferId: In(accounts.map((account) => movementIdOf(settlementId, account.accountId))),
        state: 'RESERVED',
      }),
    );
    if (reserved.length > 0) {
      await this.ledger.resolveEach(
        reserved.map(({ transferId }) => ({ transferId, outcome: 'ABORTED' as const })),
        aborting,
      );
    } else {
      await this.db.transaction(aborting);
    }
    return { id: settlementId, state: 'ABORTED', reason };
  }

  /**
   * A settled settlement's content is SETTLED, and each window once all its content is; an aborted one's content is
   * ABORTED and free for another settlement, and its windows ABORTED.
   */
  private async windowsFollow(manager: EntityManager, settlementId: number, state: 'SETTLED' | 'ABORTED', now: Date): Promise<void> {
    const content = await manager.findBy(SettlementWindowContent, { settlementId });
    await manager.update(SettlementWindowContent, { settlementId }, { state, changedDate: now, ...(state === 'ABORTED' ? { settlementId: null } : {}) });
    const windowIds = (await manager.findBy(SettlementSettlementWindow, { settlementId })).map((link) => link.settlementWindowId);
    for (const settlementWindowId of new Set([...windowIds, ...content.map((row) => row.settlementWindowId)])) {
      const unsettled = await manager.countBy(SettlementWindowContent, { settlementWindowId, state: In(['CLOSED', 'PENDING_SETTLEMENT', 'ABORTED']) });
      if (state === 'SETTLED' && unsettled > 0) continue;
      await manager.update(SettlementWindow, { settlementWindowId }, { state, changedDate: now });
    }
  }

  /** The settlements matching every filter given (at least one, as central-settlement requires); none is an error (3100). */
  async find(query: SettlementQuery): Promise<SettlementView[]> {
    const given = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
    if (given.length === 0) {
      throw new HubError(
        'validationError',
        'Use at least one parameter: state, fromDateTime, toDateTime, currency, settlementWindowId, fromSettlementWindowDateTime, toSettlementWindowDateTime, participantId, accountId',
      );
    }
    return this.db.read(async (manager) => {
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
      const views = await this.views(manager, settlements);
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
  async report(settlementId: number): Promise<{ settlement: SettlementView; lines: ReportLine[] }> {
    return this.db.read(async (manager) => {
      const settlement = (await this.views(manager, [await this.settlementOf(manager, settlementId)]))[0];
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

  private async settlementOf(manager: EntityManager, settlementId: number): Promise<Settlement> {
    const settlement = await manager.findOneBy(Settlement, { settlementId });
    if (!settlement) throw new HubError('validationError', `Settlement with ID '${settlementId}' not found`);
    return settlement;
  }

  private async views(manager: EntityManager, settlements: Settlement[]): Promise<SettlementView[]> {
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
}

function accountView(account: SettlementParticipantAccount): AccountView {
  return {
    id: account.accountId,
    state: account.state,
    reason: account.reason,
    externalReference: account.externalReference,
    createdDate: account.createdDate.toISOString(),
    netSettlementAmount: { amount: Number(account.netAmount), currency: account.currency },
  };
}

/** A step that read the settlement before another step changed it: it wrote nothing, and its retry decides again. */
export class StaleStep extends Error {
  constructor(settlementId: number) {
    super(`settlement ${settlementId} changed while this step ran: it is decided again from where it stands`);
    this.name = 'StaleStep';
  }
}

/** Writes the settlement's change if it is still in the state the step read; on MySQL its row stays locked to the end. */
async function settlementStillAt(manager: EntityManager, settlement: Settlement, change: Partial<Settlement>): Promise<void> {
  const { affected } = await manager.update(Settlement, { settlementId: settlement.settlementId, state: settlement.state }, change);
  if (affected !== 1) throw new StaleStep(settlement.settlementId);
}

/** Writes the account's change if it is still in the state the step read. */
async function accountStillAt(manager: EntityManager, account: SettlementParticipantAccount, change: Partial<SettlementParticipantAccount>): Promise<void> {
  const { affected } = await manager.update(SettlementParticipantAccount, { id: account.id, state: account.state }, change);
  if (affected !== 1) throw new StaleStep(account.settlementId);
}

/** The reset of a settlement account's position (netSettlementReset), as the ledger reserves and commits it. */
function resetOf(account: SettlementParticipantAccount, hub: ParticipantAccount): Movement {
  return {
    transferId: movementIdOf(account.settlementId, account.accountId),
    kind: SETTLEMENT_KIND,
    ...netSettlementReset(account.netAmount, account.accountId, hub.id),
    currency: account.currency,
    reason: `settlement ${account.settlementId}`,
  };
}
