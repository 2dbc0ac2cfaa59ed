import { In, type EntityManager } from 'typeorm';
import type { LiquidityHistory, SchemeGlance } from '../../shared/contracts/glance';
import type { Database } from '../db/database';
import { Participant, ParticipantAccount, ParticipantLimit } from '../db/entities';
import { Decimal, MONEY_SCALE, formatAmount } from '../db/money';
import { reportedValue } from '../ledger/limits';
import { NET_DEBIT_CAP } from '../ledger/rules';
import { ClosedMinutes } from './closedMinutes';
import {
  capShare,
  historyPoints,
  MINUTE_MS,
  minuteFigures,
  paymentMinutes,
  PERCENTILES,
  positionsAt,
  type DecidedCount,
  type MinuteFigures,
} from './glanceSeries';

/** Positions charted at most: the participants nearest their cap, so the chart keeps a few lines and its query a few accounts. */
export const LIQUIDITY_SHOWN = 8;

/** The longest windows a caller may ask for (api/admin/glanceRoutes.ts), and so the longest the minutes are kept. */
export const MAX_MINUTES = 180;
export const MAX_HOURS = 24;

/** Windows kept: a few currencies' (the console asks for all, or one), and the accounts charted lately. */
const KEPT_CURRENCIES = 8;
const KEPT_ACCOUNTS = 4 * LIQUIDITY_SHOWN;

export interface GlanceRequest {
  /** Minutes of payments, the last the one under way. */
  minutes: number;
  /** Hours of positions. */
  hours: number;
  currency?: string;
}

/**
 * The scheme at a glance, read from the hub's own tables, every read bounded by its window and served by an index:
 * decided transfers by the time of their decision (transfer.completedTimestamp, IDX_transfer_completed), and positions'
 * journals by time (IDX_journal_entry_account_created). Grouped and ranked by the database, so an answer is a few rows
 * per minute however many transfers the window holds; and each minute, once over, is read once and kept
 * (closedMinutes.ts), so a refresh reads the last few minutes only.
 */
export class SchemeGlances {
  /** Per currency asked for (or all), the decided transfers of each minute over. */
  private readonly decided = new ClosedMinutes<MinuteFigures>(KEPT_CURRENCIES, MAX_MINUTES);
  /** Per position account, the journal's changes of each minute over. */
  private readonly journals = new ClosedMinutes<Decimal>(KEPT_ACCOUNTS, MAX_HOURS * 60);

  constructor(private readonly db: Database) {}

  async read(request: GlanceRequest, now = new Date()): Promise<SchemeGlance> {
    const nowMinute = Math.floor(now.getTime() / MINUTE_MS);
    const first = nowMinute - request.minutes + 1;
    // One transaction, one snapshot on MySQL: the positions now and their journals agree.
    return this.db.transaction(async (manager) => ({
      at: now.getTime(),
      ...(request.currency && { currency: request.currency }),
      payments: paymentMinutes(
        first,
        request.minutes,
        await this.decided.window(request.currency ?? '', first, nowMinute, (from) => this.minuteFigures(manager, from, request.currency)),
      ),
      liquidity: await this.liquidity(manager, nowMinute, request.hours, now, request.currency),
    }));
  }

  /** The transfers decided from the epoch minute `from` on, grouped and ranked per minute by the database. */
  private async minuteFigures(manager: EntityManager, from: number, currency?: string): Promise<Map<number, MinuteFigures>> {
    const sql = dialect(this.db.isMysql);
    const minute = sql.minute('completedTimestamp');
    const took = sql.millisBetween('createdDate', 'completedTimestamp');
    const where = `completedTimestamp >= ? AND transferState IN ('COMMITTED', 'ABORTED')${currency ? ' AND currency = ?' : ''}`;
    const parameters = [sqlTime(new Date(from * MINUTE_MS)), ...(currency ? [currency] : [])];
    const decided: Array<Record<string, string | number | null>> = await manager.query(
      `SELECT ${minute} AS m, transferState AS state, errorCode AS code, COUNT(*) AS n FROM transfer WHERE ${where} GROUP BY m, transferState, errorCode`,
      parameters,
    );
    // Only the rows at a percentile's rank leave the database: two a minute.
    const atPercentiles = PERCENTILES.map((p) => `(r * 100 >= n * ${p} AND (r - 1) * 100 < n * ${p})`).join(' OR ');
    const ranked: Array<Record<string, string | number>> = await manager.query(
      `SELECT m, r, n, took FROM (
         SELECT ${minute} AS m, ${took} AS took, ROW_NUMBER() OVER (PARTITION BY ${minute} ORDER BY ${took}) AS r, COUNT(*) OVER (PARTITION BY ${minute}) AS n
         FROM transfer WHERE ${where}
       ) ranked WHERE ${atPercentiles}`,
      parameters,
    );
    return minuteFigures(
      decided.map((row) => ({ minute: Number(row.m), state: row.state as DecidedCount['state'], errorCode: row.code as string | null, count: Number(row.n) })),
      ranked.map((row) => ({ minute: Number(row.m), rank: Number(row.r), of: Number(row.n), took: Number(row.took) })),
    );
  }

  private async liquidity(manager: EntityManager, nowMinute: number, hours: number, now: Date, currency?: string): Promise<LiquidityHistory> {
    const points = historyPoints(nowMinute, hours);
    const times = points.map((point) => Math.min(point * MINUTE_MS, now.getTime()));
    const caps = await manager.find(ParticipantLimit, { where: { type: NET_DEBIT_CAP } });
    if (caps.length === 0) return { times, positions: [] };
    const accounts = await manager.find(ParticipantAccount, {
      where: { id: In(caps.map((cap) => cap.accountId)), ledgerAccountType: 'POSITION', ...(currency && { currency }) },
    });
    const capOf = new Map(caps.map((cap) => [cap.accountId, new Decimal(cap.value)]));
    const shown = accounts
      .map((account) => ({ account, position: new Decimal(reportedValue(account)), cap: capOf.get(account.id)! }))
      .map((entry) => ({ ...entry, share: capShare(entry.position, entry.cap) }))
      .sort((a, b) => b.share - a.share || a.account.id - b.account.id)
      .slice(0, LIQUIDITY_SHOWN);
    if (shown.length === 0) return { times, positions: [] };
    const names = new Map(
      (await manager.find(Participant, { where: { participantId: In(shown.map(({ account }) => account.participantId)) } })).map((participant) => [
        participant.participantId,
        participant.name,
      ]),
    );
    const changes = new Map<number, Map<number, Decimal>>();
    for (const { account } of shown)
      changes.set(account.id, await this.journals.window(String(account.id), points[0], nowMinute, (from) => this.journalChanges(manager, account.id, from)));
    return {
      times,
      positions: shown.map(({ account, position, cap }) => ({
        participant: names.get(account.participantId) ?? String(account.participantId),
        currency: account.currency,
        netDebitCap: formatAmount(cap),
        position: formatAmount(position),
        used: positionsAt(points, position, changes.get(account.id) ?? new Map()).map((at) => capShare(at, cap)),
      })),
    };
  }

  /** Per epoch minute from `from` on, the sum of the journal's changes to the position `accountId` (posted and reserved). */
  private async journalChanges(manager: EntityManager, accountId: number, from: number): Promise<Map<number, Decimal>> {
    const minute = dialect(this.db.isMysql).minute('createdDate');
    const rows: Array<Record<string, string | number>> = await manager.query(
      `SELECT ${minute} AS m, SUM(postedAmount) AS posted, SUM(reservedAmount) AS reserved FROM journal_entry
       WHERE accountId = ? AND createdDate >= ? GROUP BY m`,
      [accountId, sqlTime(new Date(from * MINUTE_MS))],
    );
    // MySQL sums DECIMALs exactly; SQLite, which keeps amounts as text, sums them as doubles: back to the ledger's scale.
    return new Map(rows.map((row) => [Number(row.m), new Decimal(String(row.posted)).plus(String(row.reserved)).toDecimalPlaces(MONEY_SCALE)]));
  }
}

/** A time as both databases store a DATETIME(3) in UTC, so that it compares as the column does. */
function sqlTime(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/** The two SQL expressions that differ between MySQL and SQLite; both read the stored UTC time, whatever the session's zone. */
function dialect(isMysql: boolean) {
  return {
    minute: (column: string) => (isMysql ? `TIMESTAMPDIFF(MINUTE, '1970-01-01 00:00:00', ${column})` : `(CAST(strftime('%s', ${column}) AS INTEGER) / 60)`),
    millisBetween: (from: string, to: string) =>
      isMysql ? `(TIMESTAMPDIFF(MICROSECOND, ${from}, ${to}) / 1000)` : `((julianday(${to}) - julianday(${from})) * 86400000.0)`,
  };
}
