import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Database } from '../../activities/hub/db/database';
import { dfspSettlement, dfspSettlementDetail, dfspSettlementDetailPages, PAYMENT_PAGE } from '../../activities/hub/settlement/reports/dfspSettlement';
import { dfspStatement, statementMovements, type StatementPeriod } from '../../activities/hub/settlement/reports/dfspStatement';
import { settlementInitiation } from '../../activities/hub/settlement/reports/settlementInitiation';
import { HttpError } from '../../activities/shared/platform/httpError';
import { needs } from '../admin/access/permissions';
import { wantsCsv } from './report';
import { detailCsv, dfspSettlementCsv, initiationCsv, statementCsv } from './reportCsv';

/** The longest period a statement covers: a year, leap day included. */
const MAX_STATEMENT_DAYS = 366;

function text(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(ctx: Context, name: string): string {
  const value = text(ctx, name);
  if (value === undefined) throw new HttpError(400, 'missingElement', `${name} is required`);
  return value;
}

function settlementIdOf(ctx: Context): number {
  const value = Number(required(ctx, 'settlementId'));
  if (!Number.isInteger(value) || value < 0) throw new HttpError(400, 'malformedSyntax', 'settlementId must be an integer');
  return value;
}

function dateOf(ctx: Context, name: string): Date {
  const value = new Date(required(ctx, name));
  if (Number.isNaN(value.getTime())) throw new HttpError(400, 'malformedSyntax', `${name} must be a date and time (ISO 8601)`);
  return value;
}

/** The statement's period: startDate (inclusive) before endDate (exclusive), at most MAX_STATEMENT_DAYS apart. */
function periodOf(ctx: Context): StatementPeriod {
  const [startDate, endDate] = [dateOf(ctx, 'startDate'), dateOf(ctx, 'endDate')];
  if (startDate >= endDate) throw new HttpError(400, 'malformedSyntax', 'startDate must be before endDate');
  if (endDate.getTime() - startDate.getTime() > MAX_STATEMENT_DAYS * 86_400_000) {
    throw new HttpError(400, 'malformedSyntax', `a statement covers at most ${MAX_STATEMENT_DAYS} days`);
  }
  const currency = text(ctx, 'currency');
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw new HttpError(400, 'malformedSyntax', 'currency must be an ISO 4217 code');
  return { dfspId: required(ctx, 'dfspId'), startDate, endDate, ...(currency !== undefined && { currency }) };
}

/** A page's size (`limit`, at most a page of PAYMENT_PAGE) and where it starts (`after`, the previous page's `next`). */
function pageOf(ctx: Context): { after?: string; limit: number } {
  const limit = Number(text(ctx, 'limit') ?? PAYMENT_PAGE);
  if (!Number.isInteger(limit) || limit < 1 || limit > PAYMENT_PAGE)
    throw new HttpError(400, 'malformedSyntax', `limit must be an integer from 1 to ${PAYMENT_PAGE}`);
  return { after: text(ctx, 'after'), limit };
}

function csvAnswer(ctx: Context, name: string, body: string | Readable): void {
  ctx.type = 'text/csv';
  ctx.attachment(name);
  ctx.body = body;
}

/**
 * The reports finance teams ask for (Mojaloop's reporting service's names and parameters): a settlement's initiation,
 * a DFSP's settlement and its detail, a DFSP's statement over a period. JSON, or CSV (`format=csv`, or Accept:
 * text/csv); participants by name, amounts exact. What grows with the traffic (a DFSP's payments, a statement's
 * movements) is read a page at a time: JSON answers one page with the cursor of the next, a CSV streams every page.
 */
export function reportRoutes(db: Database): Router {
  const router = new Router({ prefix: '/reports' });
  router.get('/settlementInitiation', needs('read'), async (ctx) => {
    const report = await settlementInitiation(db, settlementIdOf(ctx));
    if (wantsCsv(ctx)) csvAnswer(ctx, `settlement-initiation-${report.settlementId}.csv`, initiationCsv(report));
    else ctx.body = report;
  });
  router.get('/dfspSettlement', needs('read'), async (ctx) => {
    const report = await dfspSettlement(db, settlementIdOf(ctx), required(ctx, 'dfspId'));
    if (wantsCsv(ctx)) csvAnswer(ctx, `dfsp-settlement-${report.settlementId}-${report.participant.name}.csv`, dfspSettlementCsv(report));
    else ctx.body = report;
  });
  router.get('/dfspSettlementDetail', needs('read'), async (ctx) => {
    const [settlementId, dfspId] = [settlementIdOf(ctx), required(ctx, 'dfspId')];
    if (!wantsCsv(ctx)) {
      ctx.body = await dfspSettlementDetail(db, settlementId, dfspId, pageOf(ctx));
      return;
    }
    const pages = await dfspSettlementDetailPages(db, settlementId, dfspId);
    csvAnswer(ctx, `dfsp-settlement-detail-${settlementId}-${dfspId}.csv`, Readable.from(detailCsv(pages)));
  });
  router.get('/dfspSettlementStatement', needs('read'), async (ctx) => {
    const after = Number(text(ctx, 'after') ?? 0);
    if (!Number.isInteger(after) || after < 0) throw new HttpError(400, 'malformedSyntax', 'after must be an integer');
    const { statement, scope } = await dfspStatement(db, periodOf(ctx));
    if (wantsCsv(ctx)) {
      csvAnswer(
        ctx,
        `dfsp-statement-${statement.participant.name}.csv`,
        Readable.from(statementCsv(statement, (accountId) => statementMovements(db, scope, [accountId]))),
      );
      return;
    }
    const first = await statementMovements(
      db,
      scope,
      statement.accounts.map((account) => account.accountId),
      after,
    ).next();
    ctx.body = { ...statement, movements: first.value?.movements ?? [], ...(first.value?.next !== undefined && { next: first.value.next }) };
  });
  return router;
}
