import type { Context } from 'koa';
import type { ReportLine } from '../../activities/hub/settlement/settlementViews';
import { csvDocument } from '../../activities/shared/contracts/csv';

const COLUMNS: Array<keyof ReportLine> = ['participant', 'participantId', 'accountId', 'currency', 'netSettlementAmount', 'transferCount', 'state'];

/** A settlement's report as CSV, one participant account a line under a header, the net amount exact as the ledger holds it. */
export function reportCsv(lines: ReportLine[]): string {
  return csvDocument([COLUMNS, ...lines.map((line) => COLUMNS.map((column) => line[column]))]);
}

/** Whether the caller asks for a report as CSV: `?format=csv`, or, without a format, an Accept that prefers text/csv. */
export function wantsCsv(ctx: Context): boolean {
  return ctx.query.format === 'csv' || (ctx.query.format === undefined && ctx.accepts('application/json', 'text/csv') === 'text/csv');
}
