import type { Database } from '../../db/database';
import { LedgerTransfer, SettlementModel } from '../../db/entities';
import { PAYMENT_KIND } from '../../ledger/ledger';
import { settledAtCommit } from '../models';
import { addToFlows, flowTotals, type WindowFlow } from './reportMoney';
import { accountsOf, ownerNames, settlementScope } from './settlementScope';

/** How many payments are read at once: a participant with a million of them is read, summed or written page by page. */
export const PAYMENT_PAGE = 1_000;

/** The participant, the settlement's windows, and the payments on its accounts the settlement settles. */
interface DfspScope {
  settlementId: number;
  participant: { name: string; participantId: number };
  windowIds: number[];
  accountIds: number[];
  owners: Map<number, string>;
  /** The models whose payments settled as they committed (gross): a net settlement does not take them. */
  grossModelIds: Set<number>;
  /** How many payments a page holds. */
  pageSize: number;
}

async function dfspScope(db: Database, settlementId: number, dfspId: string, pageSize = PAYMENT_PAGE): Promise<DfspScope> {
  return db.read(async (manager) => {
    const scope = await settlementScope(manager, settlementId);
    const { participantId, accounts } = accountsOf(scope, dfspId);
    const models = await manager.find(SettlementModel);
    return {
      settlementId,
      participant: { name: dfspId, participantId },
      windowIds: scope.windows.map((window) => window.settlementWindowId),
      accountIds: accounts.map((account) => account.accountId),
      owners: ownerNames(scope),
      grossModelIds: new Set(models.filter(settledAtCommit).map((model) => model.settlementModelId)),
      pageSize,
    };
  });
}

/** One of the participant's payments in the settlement, as the detail report lists it. */
export interface DfspTransfer {
  transferId: string;
  settlementWindowId: number;
  completedDate: string;
  currency: string;
  payer: string;
  payee: string;
  /** SENT when the participant paid, RECEIVED when it was paid. */
  direction: 'SENT' | 'RECEIVED';
  amount: string;
}

/** The participant's payments in the settlement after `after` (transfer IDs in order), at most `limit`, and the cursor of the next page. */
async function paymentPage(db: Database, scope: DfspScope, after: string, limit: number): Promise<{ transfers: DfspTransfer[]; next?: string }> {
  // One range of the index by window, state and ID, read in ID order and filtered by the participant's accounts: two
  // branches (payer's, payee's) would each be found and sorted anew for every page, the window's whole size each time.
  const page = await db.read((manager) =>
    manager
      .createQueryBuilder(LedgerTransfer, 't')
      .where('t.settlementWindowId IN (:...windows)', { windows: scope.windowIds })
      .andWhere("t.state = 'COMMITTED'")
      .andWhere('t.transferId > :after', { after })
      .andWhere('t.kind = :kind', { kind: PAYMENT_KIND })
      .andWhere('(t.debitAccountId IN (:...accounts) OR t.creditAccountId IN (:...accounts))', { accounts: scope.accountIds })
      .orderBy('t.transferId', 'ASC')
      .limit(limit)
      .getMany(),
  );
  const own = new Set(scope.accountIds);
  const transfers = page
    .filter((transfer) => transfer.settlementModelId === null || !scope.grossModelIds.has(transfer.settlementModelId))
    .map((transfer) => ({
      transferId: transfer.transferId,
      settlementWindowId: transfer.settlementWindowId!,
      completedDate: (transfer.completedDate ?? transfer.createdDate).toISOString(),
      currency: transfer.currency,
      payer: scope.owners.get(transfer.debitAccountId) ?? String(transfer.debitAccountId),
      payee: scope.owners.get(transfer.creditAccountId) ?? String(transfer.creditAccountId),
      direction: own.has(transfer.debitAccountId) ? ('SENT' as const) : ('RECEIVED' as const),
      amount: transfer.amount,
    }));
  return { transfers, ...(page.length === limit && { next: page.at(-1)!.transferId }) };
}

/** Every payment of the participant in the settlement, a page at a time. */
async function* allPayments(db: Database, scope: DfspScope): AsyncGenerator<DfspTransfer[]> {
  let after: string | undefined = '';
  while (after !== undefined) {
    const { transfers, next } = await paymentPage(db, scope, after, scope.pageSize);
    yield transfers;
    after = next;
  }
}

export interface DfspSettlement {
  settlementId: number;
  participant: { name: string; participantId: number };
  windows: WindowFlow[];
  totals: Array<Omit<WindowFlow, 'settlementWindowId'>>;
}

/**
 * The DFSP settlement report (Mojaloop's reporting /dfspSettlement): what the participant sent and received in each
 * of the settlement's windows, and in all of them; its net is the participant's net settlement amount.
 */
export async function dfspSettlement(db: Database, settlementId: number, dfspId: string, pageSize = PAYMENT_PAGE): Promise<DfspSettlement> {
  const scope = await dfspScope(db, settlementId, dfspId, pageSize);
  const flows = new Map<string, WindowFlow>();
  for await (const page of allPayments(db, scope)) {
    addToFlows(
      page.map((transfer) => ({ ...transfer, sent: transfer.direction === 'SENT' })),
      flows,
    );
  }
  const windows = [...flows.values()].sort((a, b) => a.settlementWindowId - b.settlementWindowId || a.currency.localeCompare(b.currency));
  return { settlementId, participant: scope.participant, windows, totals: flowTotals(windows) };
}

/**
 * The DFSP settlement detail (Mojaloop's reporting /dfspSettlementDetail): the participant's payments in the
 * settlement, `limit` from `after` on, with the cursor of the next page when there is one.
 */
export async function dfspSettlementDetail(
  db: Database,
  settlementId: number,
  dfspId: string,
  page: { after?: string; limit: number },
): Promise<{ settlementId: number; participant: DfspScope['participant']; transfers: DfspTransfer[]; next?: string }> {
  const scope = await dfspScope(db, settlementId, dfspId);
  return { settlementId, participant: scope.participant, ...(await paymentPage(db, scope, page.after ?? '', page.limit)) };
}

/** The same payments, every one of them, as pages (of `pageSize`) to write out (a CSV) without holding them all. */
export async function dfspSettlementDetailPages(
  db: Database,
  settlementId: number,
  dfspId: string,
  pageSize = PAYMENT_PAGE,
): Promise<AsyncGenerator<DfspTransfer[]>> {
  return allPayments(db, await dfspScope(db, settlementId, dfspId, pageSize));
}
