import { EntityManager, In, IsNull, MoreThan, type FindManyOptions } from 'typeorm';
import type { Database } from '../db/database';
import { LedgerTransfer, ParticipantAccount, SettlementModel } from '../db/entities';
import { formatAmount } from '../db/money';
import { Settlement, SettlementParticipantAccount, SettlementSettlementWindow, SettlementWindow, SettlementWindowContent } from '../db/settlementEntities';
import { PAYMENT_KIND } from '../ledger/ledger';
import { addToNetPositions, type NetPosition } from '../ledger/rules';
import { HubError } from '../../shared/platform/hubError';
import { unsettledUnder, windowModelFor } from './models';
import { hubAccounts } from './positionResets';
import { modelsUnder, paymentModels } from './windows';

export interface SettlementRequest {
  settlementModel: string;
  reason: string;
  settlementWindows: Array<{ id: number }>;
}

/** A content row a settlement takes, and the models its payments still to settle committed under (null: none). */
interface ContentSettled {
  row: SettlementWindowContent;
  under: Array<number | null>;
}

/** How many of a window's payments are read at once while their net amounts are added up. */
const PAYMENT_PAGE = 5_000;

/**
 * Creates a settlement of the windows' content that the model settles (windowModelFor: the currency's net model, or
 * the one its payments committed under where the currency has moved to gross or to none since; an inactive model
 * settles only that), with each position account's net amount of the payments in it, and answers its id. Refused
 * (3100) for an unknown model, a gross or immediate one, or a window that is not closed (or aborted, or pending
 * another currency's settlement) with content for the model still unsettled. The windows and their content turn
 * PENDING_SETTLEMENT.
 */
export function createSettlement(db: Database, hubName: string, request: SettlementRequest): Promise<number> {
  return db.transaction(async (manager) => {
    const model = await manager.findOneBy(SettlementModel, { name: request.settlementModel });
    if (!model) throw new HubError('validationError', `Settlement model not found: ${request.settlementModel}`);
    if (model.settlementGranularity === 'GROSS' || model.settlementDelay === 'IMMEDIATE') {
      throw new HubError('validationError', 'Settlement can not be created for GROSS or IMMEDIATE models');
    }
    const windowIds = [...new Set(request.settlementWindows.map((window) => window.id))];
    const settled = await contentSettledBy(manager, model, windowIds);
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
    if (model.autoPositionReset) await hubAccounts(manager, hubName, currencies);

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
    const nets = await netPositions(manager, settled);
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
}

/**
 * The windows' content still to settle that `model` settles (windowModelFor), each row with the models its payments
 * committed under that left them unsettled (unsettledUnder).
 */
async function contentSettledBy(manager: EntityManager, model: SettlementModel, windowIds: number[]): Promise<ContentSettled[]> {
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
async function netPositions(manager: EntityManager, settled: ContentSettled[]): Promise<Map<number, NetPosition>> {
  const nets = new Map<number, NetPosition>();
  for (const { row, under } of settled) {
    if (under.length === 0) continue;
    let after = '';
    for (;;) {
      const page = await manager.find(LedgerTransfer, paymentPage(row.settlementWindowId, row.currency, under, after));
      addToNetPositions(page, nets);
      if (page.length < PAYMENT_PAGE) break;
      after = page.at(-1)!.transferId;
    }
  }
  return nets;
}

/**
 * The page of a window's committed payments in a currency under the models `under` (null: none) that follows the
 * payment `after` in ID order: the ledger's index by window, state and ID holds them in that order, so a page costs
 * its own payments, not the window's.
 */
export function paymentPage(settlementWindowId: number, currency: string, under: Array<number | null>, after: string): FindManyOptions<LedgerTransfer> {
  const ids = under.filter((id) => id !== null);
  const models = [...(under.includes(null) ? [IsNull()] : []), ...(ids.length > 0 ? [In(ids)] : [])];
  return {
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
  };
}
