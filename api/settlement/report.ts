import type { ReportLine } from '../../activities/hub/settlement/settlements';

const COLUMNS: Array<keyof ReportLine> = ['participant', 'participantId', 'accountId', 'currency', 'netSettlementAmount', 'transferCount', 'state'];

/** A field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break, its quotes doubled. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A settlement's report as CSV, one participant account a line under a header, the net amount exact as the ledger holds it. */
export function reportCsv(lines: ReportLine[]): string {
  return [COLUMNS.join(','), ...lines.map((line) => COLUMNS.map((column) => field(line[column])).join(','))].join('\r\n') + '\r\n';
}
