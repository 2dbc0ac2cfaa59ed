import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { AuditSearch, AuditTrail } from '../../../activities/hub/audit/auditTrail';
import type { AuditEntry } from '../../../activities/shared/contracts/audit';
import { csvDocument } from '../../../activities/shared/contracts/csv';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { needs } from '../access/permissions';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/** A CSV export is written a page at a time, so a long search never sits in memory whole. */
const EXPORT_PAGE = 500;

/**
 * The audit trail (docs/security.md, "Audit trail"): GET /audit finds entries by actor, action and time, newest first,
 * `limit` at a time (`cursor`: the previous page's nextCursor), as JSON or (`format=csv`) a CSV file of every match;
 * GET /audit/verify walks the hash chain and answers whether it is intact, or where it is first broken.
 */
export function auditRoutes({ audit: given }: { audit?: AuditTrail }): Router {
  const router = new Router();
  // Only a benchmark's baseline (test/bench/auditCost.ts) builds the admin API without a trail.
  const trail = () => given ?? raise(new HttpError(501, 'notImplemented', 'this admin API keeps no audit trail'));
  router.get('/audit', needs('audit'), async (ctx) => {
    const audit = trail();
    const search = searchOf(ctx);
    const format = text(ctx, 'format');
    if (format !== undefined && format !== 'csv' && format !== 'json') throw new HttpError(400, 'malformedSyntax', 'format must be json or csv');
    if (format !== 'csv') {
      ctx.body = await audit.search(search);
      return;
    }
    ctx.type = 'text/csv';
    ctx.attachment('audit.csv');
    ctx.body = Readable.from(csvPages(audit, { ...search, limit: EXPORT_PAGE }));
  });
  router.get('/audit/verify', needs('audit'), async (ctx) => {
    ctx.body = await trail().verify();
  });
  return router;
}

function raise(error: Error): never {
  throw error;
}

const COLUMNS = [
  'sequence',
  'at',
  'actor',
  'roles',
  'credential',
  'action',
  'method',
  'route',
  'target',
  'permission',
  'status',
  'errorCode',
  'approvalId',
  'detail',
  'bodyDigest',
  'before',
  'after',
  'address',
  'userAgent',
  'reference',
  'previousHash',
  'hash',
] as const satisfies ReadonlyArray<keyof AuditEntry>;

/** A cell's text: lists joined, snapshots as JSON; every cell neutralised by csvCell against formula injection. */
function cell(entry: AuditEntry, column: (typeof COLUMNS)[number]): string | number {
  const value = entry[column];
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(' ');
  return typeof value === 'object' ? JSON.stringify(value) : (value as string | number);
}

async function* csvPages(audit: AuditTrail, search: AuditSearch): AsyncGenerator<string> {
  yield csvDocument([[...COLUMNS]]);
  for (let page = await audit.search(search); ; page = await audit.search({ ...search, before: Number(page.nextCursor) })) {
    yield csvDocument(page.entries.map((entry) => COLUMNS.map((column) => cell(entry, column))));
    if (!page.nextCursor) return;
  }
}

/** One query parameter's value, if it has one; several, or one too long, are refused (3101). */
function text(ctx: Context, name: string, max = 128): string | undefined {
  const value = ctx.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max) throw new HttpError(400, 'malformedSyntax', `${name} must be one value of at most ${max} characters`);
  return value;
}

function date(ctx: Context, name: string): Date | undefined {
  const value = text(ctx, name, 64);
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw new HttpError(400, 'malformedSyntax', `${name} must be a date and time (ISO 8601)`);
  return parsed;
}

function searchOf(ctx: Context): AuditSearch {
  const limit = text(ctx, 'limit');
  if (limit !== undefined && !(/^[1-9]\d{0,3}$/.test(limit) && Number(limit) <= MAX_LIMIT)) {
    throw new HttpError(400, 'malformedSyntax', `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  const cursor = text(ctx, 'cursor');
  if (cursor !== undefined && !/^[1-9]\d{0,15}$/.test(cursor)) throw new HttpError(400, 'malformedSyntax', "cursor must be a page's nextCursor");
  return {
    actor: text(ctx, 'actor'),
    action: text(ctx, 'action'),
    from: date(ctx, 'fromDateTime'),
    to: date(ctx, 'toDateTime'),
    before: cursor === undefined ? undefined : Number(cursor),
    limit: limit === undefined ? DEFAULT_LIMIT : Number(limit),
  };
}
