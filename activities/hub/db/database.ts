import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Mutex } from 'async-mutex';
import { DataSource, type DataSourceOptions, EntityManager } from 'typeorm';
import { isDeadlock } from './databaseErrors';
import { entities } from './entities';
import { Ledger1795000000000 } from './migrations/1795000000000-Ledger';
import { Switch1795000000100 } from './migrations/1795000000100-Switch';
import { TransactionRequests1795000000200 } from './migrations/1795000000200-TransactionRequests';
import { BulkQuotes1795000000300 } from './migrations/1795000000300-BulkQuotes';
import { BulkTransfers1795000000400 } from './migrations/1795000000400-BulkTransfers';
import { TransferIlpPacket1795000000500 } from './migrations/1795000000500-TransferIlpPacket';
import { Thirdparty1795000000600 } from './migrations/1795000000600-Thirdparty';
import { ParticipantJws1795000000700 } from './migrations/1795000000700-ParticipantJws';
import { ReservationExpiry1795000000800 } from './migrations/1795000000800-ReservationExpiry';
import { Settlement1795000000900 } from './migrations/1795000000900-Settlement';
import { Notifications1795000001000 } from './migrations/1795000001000-Notifications';
import { MessageLog1795000001100 } from './migrations/1795000001100-MessageLog';
import { PaymentSettlement1795000001200 } from './migrations/1795000001200-PaymentSettlement';
import { FundsOutExpiry1795000001250 } from './migrations/1795000001250-FundsOutExpiry';
import { NotificationAttempts1795000001400 } from './migrations/1795000001400-NotificationAttempts';
import { SchemeCounters1795000001600 } from './migrations/1795000001600-SchemeCounters';
import { Approvals1795000001700 } from './migrations/1795000001700-Approvals';
import { AuditTrail1795000001800 } from './migrations/1795000001800-AuditTrail';
import { GlanceIndexes1795000001900 } from './migrations/1795000001900-GlanceIndexes';
import { LedgerCheckpoint1795000002200 } from './migrations/1795000002200-LedgerCheckpoint';
import { WindowPaymentsInOrder1795000002600 } from './migrations/1795000002600-WindowPaymentsInOrder';
import { ParticipantFspiopVersion1795000002700 } from './migrations/1795000002700-ParticipantFspiopVersion';
import { seedHub } from './seed';

export const migrations = [
  Ledger1795000000000,
  Switch1795000000100,
  TransactionRequests1795000000200,
  BulkQuotes1795000000300,
  BulkTransfers1795000000400,
  TransferIlpPacket1795000000500,
  Thirdparty1795000000600,
  ParticipantJws1795000000700,
  ReservationExpiry1795000000800,
  Settlement1795000000900,
  Notifications1795000001000,
  MessageLog1795000001100,
  PaymentSettlement1795000001200,
  FundsOutExpiry1795000001250,
  NotificationAttempts1795000001400,
  SchemeCounters1795000001600,
  Approvals1795000001700,
  AuditTrail1795000001800,
  GlanceIndexes1795000001900,
  LedgerCheckpoint1795000002200,
  WindowPaymentsInOrder1795000002600,
  ParticipantFspiopVersion1795000002700,
];

/**
 * The hub's database: a TypeORM DataSource plus a `transaction` that is safe to call concurrently.
 *
 * TypeORM drives SQLite through a single shared connection, so two overlapping transactions would
 * silently nest as savepoints of one another; on SQLite they are therefore queued in-process, and
 * across processes SQLite's write lock serialises them. MySQL runs them concurrently on its pool.
 */
export class Database {
  private readonly sqliteQueue?: Mutex;
  /** SQLite's snapshot reads, one at a time on their own connection (opened at the first). */
  private readonly snapshotQueue = new Mutex();
  private snapshotSource?: Promise<DataSource>;

  constructor(readonly dataSource: DataSource) {
    if (!this.isMysql) this.sqliteQueue = new Mutex();
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Runs `work` in one transaction. On MySQL a transaction that InnoDB chose as a deadlock's victim was rolled back
   * whole, so it is run again (a few times): concurrent registrations of one party, for instance, lock the same range.
   * `work` must therefore keep its effects inside the transaction.
   */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.sqliteQueue) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.dataSource.transaction(work);
        } catch (error) {
          if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
          // Apart, at random, so that the two that deadlocked do not meet again at once.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        }
      }
    }
    return this.sqliteQueue.runExclusive(async () => {
      // BEGIN IMMEDIATE takes SQLite's write lock up front (waiting through the busy timeout), so a
      // transaction that reads before it writes cannot fail on a snapshot another process made stale.
      const runner = this.dataSource.createQueryRunner();
      await runner.query('BEGIN IMMEDIATE');
      try {
        const result = await work(runner.manager);
        await runner.query('COMMIT');
        return result;
      } catch (error) {
        await runner.query('ROLLBACK');
        throw error;
      }
    });
  }

  /** A read on SQLite must not observe a queued transaction half done on the shared connection. */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sqliteQueue ? this.sqliteQueue.runExclusive(() => work(this.manager)) : work(this.manager);
  }

  /**
   * Runs `work` on one consistent snapshot of the database without holding up its writers: what a check of millions
   * of rows needs, neither stopping payments for its seconds nor seeing one half done. On MySQL it is a transaction
   * (InnoDB's repeatable read); on SQLite a read transaction on a connection of the check's own, since WAL lets a
   * reader keep its snapshot while the hub's one connection writes (an in-memory database has no second connection:
   * it is read as `read` reads).
   */
  async snapshot<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isMysql) return this.dataSource.transaction('REPEATABLE READ', work);
    if (this.dataSource.options.database === ':memory:') return this.read(work);
    return this.snapshotQueue.runExclusive(async () => {
      this.snapshotSource ??= new DataSource({ ...this.dataSource.options, migrationsRun: false, synchronize: false } as DataSourceOptions)
        .initialize()
        .catch((error: unknown) => {
          this.snapshotSource = undefined;
          throw error;
        });
      const runner = (await this.snapshotSource).createQueryRunner();
      await runner.query('BEGIN');
      try {
        return await work(runner.manager);
      } finally {
        await runner.query('COMMIT');
        await runner.release();
      }
    });
  }

  /** Throws unless the database answers; health checks call it. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  async close(): Promise<void> {
    await (await this.snapshotSource)?.destroy();
    await this.dataSource.destroy();
  }
}

const DEADLOCK_ATTEMPTS = 5;

function dataSourceFor(databaseUrl: string): DataSource {
  if (databaseUrl.startsWith('mysql://')) {
    return new DataSource({
      type: 'mysql',
      url: databaseUrl,
      entities,
      migrations,
      timezone: 'Z',
      // DECIMAL columns arrive as strings; never let the driver turn money into doubles.
      supportBigNumbers: true,
      bigNumberStrings: true,
      extra: { connectionLimit: 20, decimalNumbers: false },
    });
  }
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    return new DataSource({
      type: 'better-sqlite3',
      database: file,
      entities,
      migrations,
      enableWAL: true,
      // Gateways and workers are separate processes writing one file: wait for the lock, don't fail.
      timeout: 15000,
    });
  }
  throw new Error(`DATABASE_URL must start with sqlite: or mysql://, got "${databaseUrl}"`);
}

/**
 * Applies pending migrations once, even when several processes (gateways, workers, test files) start
 * against a new database together: MySQL serialises them with a named lock; on SQLite the loser of the
 * race tries again until it finds them applied.
 */
async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type === 'mysql') {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query("SELECT GET_LOCK('hub_migrations', 120)");
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query("SELECT RELEASE_LOCK('hub_migrations')");
      await runner.release();
    }
    return;
  }
  // SQLite has no named lock, and TypeORM checks for a table before creating it, so the loser of the race fails on
  // "already exists". Its attempt is one transaction and rolled back: try again until the winner's work is visible.
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.runMigrations({ transaction: 'all' });
      return;
    } catch (error) {
      if (!(await dataSource.showMigrations())) return;
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Connects. On a new SQLite file, switching it to WAL needs the file to itself and ignores the busy timeout, so a
 * process that starts beside another (worker and gateway under `npm start`) waits its turn and tries again.
 */
async function connect(databaseUrl: string): Promise<DataSource> {
  for (let attempt = 1; ; attempt++) {
    const dataSource = dataSourceFor(databaseUrl);
    try {
      return await dataSource.initialize();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Connects, applies pending migrations and makes sure the Hub participant exists. */
export async function openDatabase(databaseUrl: string, hubParticipantName: string): Promise<Database> {
  const dataSource = await connect(databaseUrl);
  const db = new Database(dataSource);
  await migrate(dataSource);
  await db.transaction((manager) => seedHub(manager, hubParticipantName));
  return db;
}
