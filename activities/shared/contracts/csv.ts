/** A plain decimal number as the ledger writes one (`-10.5`, `12`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * What a spreadsheet takes for the start of a formula (OWASP, CSV Injection): `=`, `+`, `-`, `@`, a tab or a carriage
 * return as a cell's first character.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as RFC 4180 writes it (quoted when it holds a comma, a quote or a line break, its quotes doubled), and, when
 * it would start a formula, neutralised as OWASP advises: a leading `'` makes the spreadsheet show it as text. A plain
 * number is left as it is, so a negative amount stays a number a finance team can add up.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as a CSV document: every cell through csvCell, CRLF after each row (RFC 4180). */
export function csvDocument(rows: Array<Array<string | number>>): string {
  return rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}
