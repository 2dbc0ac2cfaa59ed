import type { ReportLine } from '../../activities/hub/settlement/settlementViews';
import { csvDocument } from '../../activities/shared/contracts/csv';

const COLUMNS: Array<keyof ReportLine> = ['participant', 'participantId', 'accountId', 'currency', 'netSettlementAmount', 'transferCount', 'state'];

/** A settlement's report as CSV, one participant account a line under a header, the net amount exact as the ledger holds it. */
export function reportCsv(lines: ReportLine[]): string {
  return csvDocument([COLUMNS, ...lines.map((line) => COLUMNS.map((column) => line[column]))]);
}
