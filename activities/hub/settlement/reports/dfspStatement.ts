import { And, Between, In, LessThan, MoreThanOrEqual, type FindOptionsWhere } from 'typeorm';
import type { Database } from '../../db/database';
import { Decimal, formatAmount } from '../../db/money';
import { JournalEntry, LedgerTransfer, Participant, ParticipantAccount } from '../../db/entities';
import { HubError } from '../../../shared/platform/hubError';
import { periodBalances } from './reportMoney';

/** How many journal entries are read at once: a busy account's year is summed and written out page by page. */
const ENTRY_PAGE = 500;

/** The account types a statement covers: where the participant's payments move (POSITION) and its funds lie (SETTLEMENT). */
const STATEMENT_ACCOUNT_TYPES = ['POSITION', 'SETTLEMENT'];

export interface StatementPeriod {
  dfspId: string;
  /** Inclusive. */
  startDate: Date;
  /** Exclusive. */
  endDate: Date;
  currency?: string;
}

export interface StatementAccount {
  accountId: number;
  ledgerAccountType: string;
  currency: string;
  openingBalance: string;
  /** The sum of the period's movements: closing less opening. */
  movements: string;
  closingBalance: string;
}

/** One posting to one of the participant's accounts in the period. */
export interface StatementMovement {
  entryId: number;
  createdDate: string;
  accountId: number;
  ledgerAccountType: string;
  currency: string;
  transferId: string;
  /** The movement's kind: TRANSFER (a payment), a funds in or out, a settlement's position reset… */
  kind: string;
  phase: string;
  amount: string;
}

/** The participant's accounts, the journal read up to `lastEntryId` (what their balances then held), and the period. */
export interface StatementScope {
  period: StatementPeriod;
  participant: { name: string; participantId: number };
  accounts: Array<ParticipantAccount>;
  lastEntryId: number;
  /** How many journal entries a page holds. */
  pageSize: number;
}

/**
 * The accounts' balances and the journal's last entry read in one transaction, so the balances are the sum of the
 * entries up to it (a posting commits its entry and its account's new value together). Unknown participant: 3100.
 */
async function statementScope(db: Database, period: StatementPeriod, pageSize: number): Promise<StatementScope> {
  return db.transaction(async (manager) => {
    const participant = await manager.findOneBy(Participant, { name: period.dfspId });
    if (!participant) throw new HubError('validationError', `Participant '${period.dfspId}' not found`);
    const accounts = await manager.find(ParticipantAccount, {
      where: {
        participantId: participant.participantId,
        ledgerAccountType: In(STATEMENT_ACCOUNT_TYPES),
        ...(period.currency !== undefined && { currency: period.currency }),
      },
      order: { currency: 'ASC', ledgerAccountType: 'ASC' },
    });
    const last = await manager.find(JournalEntry, { select: { id: true }, order: { id: 'DESC' }, take: 1 });
    return { period, participant: { name: participant.name, participantId: participant.participantId }, accounts, lastEntryId: last[0]?.id ?? 0, pageSize };
  });
}

/** The accounts' entries posted in [from, before) up to the scope's last entry, in order, a page at a time. */
async function* entries(db: Database, scope: StatementScope, accountIds: number[], from: Date, before?: Date, after = 0): AsyncGenerator<JournalEntry[]> {
  for (;;) {
    const where: FindOptionsWhere<JournalEntry> = {
      accountId: In(accountIds),
      createdDate: before === undefined ? MoreThanOrEqual(from) : And(MoreThanOrEqual(from), LessThan(before)),
      id: Between(after + 1, scope.lastEntryId),
    };
    const page = await db.read((manager) => manager.find(JournalEntry, { where, order: { id: 'ASC' }, take: scope.pageSize }));
    if (page.length > 0) yield page;
    if (page.length < scope.pageSize) return;
    after = page.at(-1)!.id;
  }
}

/**
 * Each account's opening and closing balance (periodBalances): its balance at the scope's last entry less what was
 * posted since the period's start, and since its end, summed a page at a time.
 */
async function statementAccounts(db: Database, scope: StatementScope): Promise<StatementAccount[]> {
  const { startDate, endDate } = scope.period;
  const sinceStart = new Map(scope.accounts.map((account) => [account.id, new Decimal(0)]));
  const sinceEnd = new Map(scope.accounts.map((account) => [account.id, new Decimal(0)]));
  if (scope.accounts.length > 0) {
    for await (const page of entries(db, scope, [...sinceStart.keys()], startDate)) {
      for (const entry of page) {
        sinceStart.set(entry.accountId, sinceStart.get(entry.accountId)!.plus(entry.postedAmount));
        if (entry.createdDate >= endDate) sinceEnd.set(entry.accountId, sinceEnd.get(entry.accountId)!.plus(entry.postedAmount));
      }
    }
  }
  return scope.accounts.map((account) => {
    const { opening, movements, closing } = periodBalances(account.value, formatAmount(sinceStart.get(account.id)!), formatAmount(sinceEnd.get(account.id)!));
    return {
      accountId: account.id,
      ledgerAccountType: account.ledgerAccountType,
      currency: account.currency,
      openingBalance: opening,
      movements,
      closingBalance: closing,
    };
  });
}

/**
 * The period's postings to `accountIds` after entry `after` (those that moved a balance), in order, each named with
 * its movement's kind, a page at a time; `next` is the cursor after the page, absent on the last.
 */
export async function* statementMovements(
  db: Database,
  scope: StatementScope,
  accountIds: number[],
  after = 0,
): AsyncGenerator<{ movements: StatementMovement[]; next?: number }> {
  if (accountIds.length === 0) return;
  const byId = new Map(scope.accounts.map((account) => [account.id, account]));
  for await (const page of entries(db, scope, accountIds, scope.period.startDate, scope.period.endDate, after)) {
    const posted = page.filter((entry) => !new Decimal(entry.postedAmount).isZero());
    const transfers = await db.read((manager) =>
      manager.find(LedgerTransfer, {
        select: { transferId: true, kind: true },
        where: { transferId: In([...new Set(posted.map((entry) => entry.transferId))]) },
      }),
    );
    const kinds = new Map(transfers.map((transfer) => [transfer.transferId, transfer.kind]));
    const movements = posted.map((entry) => ({
      entryId: entry.id,
      createdDate: entry.createdDate.toISOString(),
      accountId: entry.accountId,
      ledgerAccountType: byId.get(entry.accountId)!.ledgerAccountType,
      currency: byId.get(entry.accountId)!.currency,
      transferId: entry.transferId,
      kind: kinds.get(entry.transferId) ?? '',
      phase: entry.phase,
      amount: entry.postedAmount,
    }));
    yield { movements, ...(page.length === scope.pageSize && { next: page.at(-1)!.id }) };
  }
}

export interface DfspStatement {
  participant: { name: string; participantId: number };
  startDate: string;
  endDate: string;
  accounts: StatementAccount[];
}

/**
 * The DFSP statement (Mojaloop's reporting /dfspSettlementStatement): the participant's position and settlement
 * accounts over the period, each with its opening balance, the sum of its movements and its closing balance; the
 * movements themselves come from statementMovements (paged, or streamed into a CSV).
 */
export async function dfspStatement(
  db: Database,
  period: StatementPeriod,
  pageSize = ENTRY_PAGE,
): Promise<{ statement: DfspStatement; scope: StatementScope }> {
  const scope = await statementScope(db, period, pageSize);
  return {
    scope,
    statement: {
      participant: scope.participant,
      startDate: period.startDate.toISOString(),
      endDate: period.endDate.toISOString(),
      accounts: await statementAccounts(db, scope),
    },
  };
}
