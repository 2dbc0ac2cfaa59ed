import type { Context } from 'koa';
import type { BankConfirmationLine } from '../../activities/hub/settlement/bankConfirmation';
import { HttpError } from '../../activities/shared/platform/httpError';
import { readJsonBody, readTextBody } from '../http/body';

/** More lines than any scheme has participant accounts: a file past it is not a settlement's confirmation. */
const MAX_CONFIRMATION_LINES = 10_000;
/** Longest text a field may hold at the edge; the check names a reference over its column's length as a problem. */
const MAX_FIELD = 1_024;

const COLUMNS = ['participant', 'currency', 'amount', 'reference'] as const;

const refused = (detail: string) => new HttpError(400, 'validationError', detail);

/**
 * The settlement bank's confirmation as the request sends it: JSON `{ lines: [...] }`, or CSV (`text/csv`) with a header
 * naming participant, currency, amount and reference (accountId optional), in any order. Under the body reader's size
 * limit; a body of another shape is refused (3100, 3101) before anything reads the settlement.
 */
export async function bankConfirmationOf(ctx: Context): Promise<BankConfirmationLine[]> {
  const lines = ctx.is('text/csv') ? csvLines(await readTextBody(ctx)) : jsonLines((await readJsonBody(ctx)).body);
  if (lines.length === 0) throw refused('the confirmation has no lines');
  if (lines.length > MAX_CONFIRMATION_LINES) throw refused(`the confirmation has more than ${MAX_CONFIRMATION_LINES} lines`);
  return lines;
}

/** The lines of a JSON confirmation, `{ lines: [...] }`, each field of its type. */
export function jsonLines(body: unknown): BankConfirmationLine[] {
  const lines = (body as { lines?: unknown } | undefined)?.lines;
  if (!Array.isArray(lines)) throw new HttpError(400, 'missingElement', "lines must be an array of the bank confirmation's lines");
  return lines.map((line, index) => lineOf(line as Record<string, unknown>, `lines[${index}]`));
}

function lineOf(line: Record<string, unknown> | null, where: string): BankConfirmationLine {
  if (typeof line !== 'object' || line === null || Array.isArray(line)) throw refused(`${where} must be an object`);
  const text = (name: string, value: unknown) => {
    if (typeof value === 'number' && name === 'amount') throw refused(`${where}.amount must be a decimal string, not a number`);
    if (typeof value !== 'string' || value.length > MAX_FIELD) throw refused(`${where}.${name} must be a string of at most ${MAX_FIELD} characters`);
    return value;
  };
  const { accountId } = line;
  const account = accountId === undefined || accountId === '' ? undefined : Number(accountId);
  if (account !== undefined && (!Number.isInteger(account) || account < 0)) throw refused(`${where}.accountId must be an integer`);
  return {
    participant: text('participant', typeof line.participant === 'number' ? String(line.participant) : line.participant),
    ...(account !== undefined && { accountId: account }),
    currency: text('currency', line.currency),
    amount: text('amount', line.amount),
    reference: text('reference', line.reference ?? ''),
  };
}

/** The lines of a CSV confirmation, by its header's column names (any order, any case; a byte-order mark ignored). */
export function csvLines(text: string): BankConfirmationLine[] {
  const [header, ...rows] = csvRows(text.replace(/^\uFEFF/, '')).filter((row) => row.some((cell) => cell.trim() !== ''));
  const names = (header ?? []).map((name) => name.trim());
  const absent = COLUMNS.filter((column) => !names.some((name) => name.toLowerCase() === column));
  if (absent.length > 0) throw refused(`the CSV header lacks ${absent.join(', ')}`);
  return rows.map((row, index) => {
    const line: Record<string, string> = {};
    names.forEach((name, column) => {
      const key = name.toLowerCase();
      line[key === 'accountid' ? 'accountId' : key] = (row[column] ?? '').trim();
    });
    return lineOf(line, `CSV line ${index + 2}`);
  });
}

/** RFC 4180: fields separated by commas, a quoted field may hold commas, line breaks and doubled quotes. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[++i];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rows.push([...row, field]);
      [row, field] = [[], ''];
    } else field += c;
  }
  if (quoted) throw new HttpError(400, 'malformedSyntax', 'the CSV ends inside a quoted field');
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
