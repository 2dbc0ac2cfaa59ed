import type { DfspSettlement, DfspTransfer } from '../../activities/hub/settlement/reports/dfspSettlement';
import type { DfspStatement, StatementMovement } from '../../activities/hub/settlement/reports/dfspStatement';
import type { SettlementInitiation } from '../../activities/hub/settlement/reports/settlementInitiation';
import { Decimal, formatAmount } from '../../activities/hub/db/money';
import { csvDocument } from '../../activities/shared/contracts/csv';

/** What a total row shows where a line shows a participant or a window. */
const TOTAL = 'TOTAL';

const INITIATION_COLUMNS = [
  'participant',
  'participantId',
  'accountId',
  'currency',
  'netSettlementAmount',
  'toPay',
  'toReceive',
  'transferCount',
  'state',
] as const;

/** The settlement initiation as CSV: a line per participant account, then a TOTAL line per currency (its net is zero). */
export function initiationCsv(report: SettlementInitiation): string {
  return csvDocument([
    [...INITIATION_COLUMNS],
    ...report.lines.map((line) => INITIATION_COLUMNS.map((column) => line[column])),
    ...report.totals.map((total) => [TOTAL, '', '', total.currency, total.net, total.toPay, total.toReceive, '', '']),
  ]);
}

const FLOW_COLUMNS = ['settlementWindowId', 'currency', 'sentAmount', 'sentCount', 'receivedAmount', 'receivedCount', 'netAmount'] as const;

/** The DFSP settlement report as CSV: the participant's line per window and currency, then a TOTAL line per currency. */
export function dfspSettlementCsv(report: DfspSettlement): string {
  const name = report.participant.name;
  return csvDocument([
    ['participant', ...FLOW_COLUMNS],
    ...report.windows.map((flow) => [name, ...FLOW_COLUMNS.map((column) => flow[column])]),
    ...report.totals.map((total) => [
      name,
      TOTAL,
      ...FLOW_COLUMNS.slice(1).map((column) => total[column as Exclude<(typeof FLOW_COLUMNS)[number], 'settlementWindowId'>]),
    ]),
  ]);
}

const DETAIL_COLUMNS = ['transferId', 'settlementWindowId', 'completedDate', 'currency', 'payer', 'payee', 'direction', 'amount'] as const;

/** The DFSP settlement detail as CSV, written a page of payments at a time. */
export async function* detailCsv(pages: AsyncGenerator<DfspTransfer[]>): AsyncGenerator<string> {
  yield csvDocument([[...DETAIL_COLUMNS]]);
  for await (const page of pages) yield csvDocument(page.map((transfer) => DETAIL_COLUMNS.map((column) => transfer[column])));
}

const STATEMENT_COLUMNS = ['accountId', 'ledgerAccountType', 'currency', 'createdDate', 'transferId', 'kind', 'phase', 'amount', 'balance'] as const;

/**
 * The DFSP statement as CSV, an account after the other: its OPENING BALANCE line, its movements each with the balance
 * after it, its CLOSING BALANCE line; the movements streamed a page at a time from `movementsOf`.
 */
export async function* statementCsv(
  statement: DfspStatement,
  movementsOf: (accountId: number) => AsyncGenerator<{ movements: StatementMovement[] }>,
): AsyncGenerator<string> {
  yield csvDocument([[...STATEMENT_COLUMNS]]);
  for (const account of statement.accounts) {
    const line = (createdDate: string, kind: string, amount: string, balance: string) => [
      account.accountId,
      account.ledgerAccountType,
      account.currency,
      createdDate,
      '',
      kind,
      '',
      amount,
      balance,
    ];
    yield csvDocument([line(statement.startDate, 'OPENING BALANCE', '', account.openingBalance)]);
    let balance = new Decimal(account.openingBalance);
    for await (const { movements } of movementsOf(account.accountId)) {
      yield csvDocument(
        movements.map((movement) => {
          balance = balance.plus(movement.amount);
          return [...STATEMENT_COLUMNS.slice(0, -1).map((column) => movement[column as keyof StatementMovement]), formatAmount(balance)];
        }),
      );
    }
    yield csvDocument([line(statement.endDate, 'CLOSING BALANCE', '', account.closingBalance)]);
  }
}
