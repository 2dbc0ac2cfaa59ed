import type { EntityManager } from 'typeorm';
import { insertRows } from '../db/batches';
import type { Database } from '../db/database';
import { Notification, Participant, ParticipantEndpoint } from '../db/entities';
import { LedgerCheckpoint, LedgerCheckRecord } from '../db/ledgerCheckEntities';
import {
  committedMovementsOf,
  committedSums,
  grossTerms,
  type JournalAmounts,
  JOURNAL_PAGE,
  journalPages,
  type JournalRow,
  JournalSums,
  ledgerAccounts,
  type LedgerAccount,
  ledgerViolations,
  type LedgerReport,
  namedMovementViolations,
  openMovements,
  verdictsOf,
  type Violation,
} from './invariants';
import { addTo, minorUnits, textOf } from './minorUnits';
import { addCommitted, reservedSums } from './movementInvariants';

/** The endpoint type at which the Hub participant's operator hears of a broken invariant. */
export const LEDGER_ALARM_EMAIL = 'LEDGER_INVARIANT_VIOLATION_EMAIL';

/** How often the scheduled check reads the whole ledger instead of the journal since its checkpoint. */
export const FULL_CHECK_EVERY_MS = 24 * 60 * 60_000;

/**
 * On MySQL an auto-increment ID is taken as a row is inserted but seen when its transaction commits, so a row below the
 * checkpoint could still be on its way. A checkpoint only ever takes rows older than twice this margin, which holds
 * while no ledger step's transaction lasts longer than it (each lasts milliseconds; InnoDB gives up a lock wait after
 * 50 seconds). SQLite has one writer at a time, committing its IDs in order: no margin is needed there.
 */
export const MYSQL_CHECKPOINT_MARGIN_MS = 60_000;

/** One check of the ledger, as POST /ledger/checks and GET /ledger/checks/latest answer it. */
export interface LedgerCheck extends Omit<LedgerReport, 'journalRows'> {
  /** Read the whole ledger (journal and movements) rather than the journal since the checkpoint. */
  full: boolean;
  /** The journal rows read are those with an ID above checkedFrom, up to checkedTo. */
  checkedFrom: number;
  checkedTo: number;
  journalRows: number;
  /** The journal row ID the checkpoint reaches after this check. */
  checkpoint: number;
  durationMs: number;
}

/** The sums a checkpoint keeps per account. */
interface Sums {
  value: Map<number, bigint>;
  reservedValue: Map<number, bigint>;
  moved: Map<number, bigint>;
}

/**
 * The highest journal row ID the checkpoint may take: the last of the rows read (in ID order) before the first one made
 * less than `2 × margin` ago. Any row with a lower ID that was not yet committed when they were read was inserted
 * before that last row, so made more than a margin ago: it has committed, and was read.
 */
export function checkpointCut(rows: Array<Pick<JournalRow, 'id' | 'createdDate'>>, from: number, now: Date, marginMs: number): number {
  let cut = from;
  for (const row of rows) {
    if (new Date(row.createdDate).getTime() > now.getTime() - 2 * marginMs) break;
    cut = Number(row.id);
  }
  return cut;
}

/**
 * The ledger checking itself: each run compares every account's balances with its checkpoint's sums and the journal rows
 * and committed movements since, and its reservations with the open movements (an index on their state); once a day
 * (or when asked) the whole ledger is read instead. The outcome is kept as the alarm the console shows until a later
 * check finds the ledger whole, and a violation not in the check before is e-mailed to the hub's operator.
 */
export class LedgerChecks {
  constructor(
    private readonly db: Database,
    private readonly hubName: string,
    private readonly marginMs = db.isMysql ? MYSQL_CHECKPOINT_MARGIN_MS : 0,
    private readonly pageLength = JOURNAL_PAGE,
  ) {}

  /** Checks now: from the checkpoint, or the whole ledger when `full` or when the last full check is a day old. */
  async run(options: { full?: boolean } = {}): Promise<LedgerCheck> {
    const started = Date.now();
    const previous = await this.db.read((manager) => manager.findOneBy(LedgerCheckRecord, { name: 'latest' }));
    const full = options.full ?? (!previous?.lastFullDate || started - previous.lastFullDate.getTime() >= FULL_CHECK_EVERY_MS);
    const { check, checkpoint } = await this.db.snapshot((manager) => this.checkIn(manager, full));
    await this.db.transaction((manager) => advance(manager, this.db.isMysql, check.checkedFrom, full, checkpoint));
    const outcome = { ...check, durationMs: Date.now() - started };
    await this.db.transaction((manager) => this.record(manager, outcome));
    return outcome;
  }

  /** The latest check's outcome; undefined before the first. */
  async latest(): Promise<LedgerCheck | undefined> {
    const record = await this.db.read((manager) => manager.findOneBy(LedgerCheckRecord, { name: 'latest' }));
    return record ? (JSON.parse(record.outcome) as LedgerCheck) : undefined;
  }

  /**
   * The check on one snapshot (Database.snapshot: payments go on meanwhile), and the checkpoint it leaves. The journal since the checkpoint (all of
   * it, in a full check) is read a page at a time and folded into sums per account, so a check's memory is the
   * accounts and one page, however far behind the checkpoint is.
   */
  private async checkIn(manager: EntityManager, full: boolean): Promise<{ check: Omit<LedgerCheck, 'durationMs'>; checkpoint: NewCheckpoint }> {
    const now = new Date();
    const { from, sums } = full ? { from: 0, sums: emptySums() } : await checkpointOf(manager);
    const accounts = await ledgerAccounts(manager);
    const gross = await grossTerms(manager);
    const journal = new JournalSums().add(rowsOf(sums));
    const kept = copyOf(sums);
    const movedSince = new Map<number, bigint>();
    let [to, cut, journalRows, cutting] = [from, from, 0, true];
    for await (const page of journalPages(manager, from, this.pageLength)) {
      journal.add(page);
      journalRows += page.length;
      to = Number(page[page.length - 1].id);
      // The cut stops at the first row too recent to keep; the pages after it are read, not kept.
      if (cutting) cut = checkpointCut(page, cut, now, this.marginMs);
      cutting = cutting && cut === to;
      const [upToCut, sinceCut] = [page.filter((row) => Number(row.id) <= cut), page.filter((row) => Number(row.id) > cut)];
      addRows(kept, upToCut);
      addCommitted(kept.moved, await committedMovementsOf(manager, upToCut), accounts, gross);
      if (!full) addCommitted(movedSince, await committedMovementsOf(manager, sinceCut), accounts, gross);
    }
    const moved = full ? await committedSums(manager, accounts, gross, this.pageLength) : new Map(kept.moved);
    if (!full) for (const [accountId, units] of movedSince) addTo(moved, accountId, units);
    const violations = [...ledgerViolations(accounts, journal.rows()), ...namedMovementViolations(accounts, moved, reservedSums(await openMovements(manager)))];
    const check = { ...verdictsOf(violations), full, accounts: accounts.length, checkedFrom: from, checkedTo: to, journalRows, checkpoint: cut };
    return { check, checkpoint: { through: cut, sums: kept, accounts, takenDate: now } };
  }

  /** Keeps the outcome as the latest, and e-mails the hub's operator the violations the check before did not find. */
  private async record(manager: EntityManager, outcome: LedgerCheck): Promise<void> {
    const previous = await manager.findOne(LedgerCheckRecord, {
      where: { name: 'latest' },
      ...(this.db.isMysql ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    const checkedAt = new Date(outcome.checkedAt);
    // A check that ran beside a later one (the schedule's and an operator's) leaves the later one's outcome standing.
    if (previous && previous.checkedAt > checkedAt) return;
    const known = new Set(previous ? (JSON.parse(previous.outcome) as LedgerCheck).violations.map(alarmKey) : []);
    const fresh = outcome.violations.filter((violation) => !known.has(alarmKey(violation)));
    if (fresh.length > 0) await this.mailOperator(manager, outcome, fresh);
    const record = {
      checkedAt,
      holds: outcome.holds,
      outcome: JSON.stringify(outcome),
      lastFullDate: outcome.full ? checkedAt : (previous?.lastFullDate ?? null),
    };
    // An upsert: two first checks at once (the schedule's and an operator's) both find no row to lock.
    await manager.upsert(LedgerCheckRecord, { name: 'latest', ...record }, ['name']);
  }

  private async mailOperator(manager: EntityManager, outcome: LedgerCheck, fresh: Violation[]): Promise<void> {
    const hub = await manager.findOneBy(Participant, { name: this.hubName });
    if (!hub || !(await manager.existsBy(ParticipantEndpoint, { participantId: hub.participantId, type: LEDGER_ALARM_EMAIL }))) return;
    await manager.insert(Notification, {
      participantId: hub.participantId,
      endpointType: LEDGER_ALARM_EMAIL,
      aboutParticipantId: null,
      currency: null,
      subject: 'LEDGER INVARIANT VIOLATED',
      body: [
        `The ledger check of ${outcome.checkedAt} found the ledger broken:`,
        fresh.map(describeViolation).join('\n'),
        'The console lists them on its alarms page until a check finds the ledger whole again.',
        'This is an automatically generated email message.',
      ].join('\n\n'),
      createdDate: new Date(),
      sentDate: null,
    });
  }
}

/** One line an operator reads: which invariant, which account, what it holds against what it should. */
export function describeViolation(violation: Violation): string {
  if (violation.invariant === 'currenciesSumToZero') return `${violation.invariant}: ${violation.currency} accounts sum to ${violation.sum}, not zero`;
  const account = `${violation.participant} ${violation.ledgerAccountType} ${violation.currency} (account ${violation.accountId})`;
  if (violation.invariant === 'amountsExact') return `${violation.invariant}: ${account} holds ${violation.held} in its ${violation.in}`;
  const expected = 'journal' in violation ? violation.journal : violation.expected;
  return `${violation.invariant}: ${account} ${violation.balance} is ${violation.held}, expected ${expected}`;
}

/** What makes a violation the same alarm from one check to the next, whatever its amounts. */
function alarmKey(violation: Violation): string {
  if (violation.invariant === 'currenciesSumToZero') return `${violation.invariant}/${violation.currency}`;
  return `${violation.invariant}/${violation.accountId}/${'balance' in violation ? violation.balance : violation.in}`;
}

interface NewCheckpoint {
  through: number;
  sums: Sums;
  accounts: LedgerAccount[];
  takenDate: Date;
}

const emptySums = (): Sums => ({ value: new Map(), reservedValue: new Map(), moved: new Map() });

/** The checkpoint: the journal row it reaches, and its sums per account (none before the first). */
async function checkpointOf(manager: EntityManager): Promise<{ from: number; sums: Sums }> {
  const rows = await manager
    .createQueryBuilder(LedgerCheckpoint, 'c')
    .select('c.accountId', 'accountId')
    .addSelect('c.throughJournalId', 'throughJournalId')
    .addSelect('c.journalValue', 'journalValue')
    .addSelect('c.journalReservedValue', 'journalReservedValue')
    .addSelect('c.movedValue', 'movedValue')
    .getRawMany<{ accountId: number; throughJournalId: number; journalValue: string; journalReservedValue: string; movedValue: string }>();
  const sums = emptySums();
  for (const row of rows) {
    const accountId = Number(row.accountId);
    sums.value.set(accountId, minorUnits(row.journalValue) ?? 0n);
    sums.reservedValue.set(accountId, minorUnits(row.journalReservedValue) ?? 0n);
    sums.moved.set(accountId, minorUnits(row.movedValue) ?? 0n);
  }
  return { from: rows.length > 0 ? Number(rows[0].throughJournalId) : 0, sums };
}

const copyOf = (sums: Sums): Sums => ({ value: new Map(sums.value), reservedValue: new Map(sums.reservedValue), moved: new Map(sums.moved) });

/** Carries the checkpoint's sums on with the journal rows up to its new cut. */
function addRows(sums: Sums, rows: JournalRow[]): void {
  for (const row of rows) {
    addTo(sums.value, Number(row.accountId), minorUnits(row.postedAmount) ?? 0n);
    addTo(sums.reservedValue, Number(row.accountId), minorUnits(row.reservedAmount) ?? 0n);
  }
}

/** The checkpoint's sums as journal rows, one per account, for ledgerViolations to add the rows since to. */
function rowsOf(sums: Sums): JournalAmounts[] {
  return [...sums.value.keys()].map((accountId) => ({
    accountId,
    postedAmount: textOf(sums.value.get(accountId) ?? 0n),
    reservedAmount: textOf(sums.reservedValue.get(accountId) ?? 0n),
  }));
}

/**
 * Moves the checkpoint to `checkpoint.through`, unless another check moved it since this one read it (then that one's
 * stands): a full check may also move it from anywhere below.
 */
async function advance(manager: EntityManager, locking: boolean, from: number, full: boolean, checkpoint: NewCheckpoint): Promise<void> {
  const current = await manager.find(LedgerCheckpoint, {
    select: { accountId: true, throughJournalId: true },
    ...(locking ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  const at = current[0]?.throughJournalId ?? 0;
  if (checkpoint.through <= at || (!full && at !== from)) return;
  await manager.createQueryBuilder().delete().from(LedgerCheckpoint).execute();
  const { sums, accounts, through, takenDate } = checkpoint;
  const rows = accounts.map(({ id }) => ({
    accountId: Number(id),
    throughJournalId: through,
    journalValue: textOf(sums.value.get(Number(id)) ?? 0n),
    journalReservedValue: textOf(sums.reservedValue.get(Number(id)) ?? 0n),
    movedValue: textOf(sums.moved.get(Number(id)) ?? 0n),
    takenDate,
  }));
  await insertRows(manager, LedgerCheckpoint, rows);
}
