import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { DataSource } from 'typeorm';
import { migrations, openDatabase } from '../../activities/hub/db/database';
import { entities, TransferRecord } from '../../activities/hub/db/entities';
import { TransferOutcome } from '../../activities/hub/db/metricsEntities';
import { SchemeCounters1795000001600 } from '../../activities/hub/db/migrations/1795000001600-SchemeCounters';

/** A transfer record of `payerFsp` decided (or not) `seconds` after its POST. */
function decided(payerFsp: string, transferState: TransferRecord['transferState'], seconds?: number): TransferRecord {
  const createdDate = new Date('2025-03-01T10:00:00.000Z');
  return Object.assign(new TransferRecord(), {
    transferId: crypto.randomUUID(),
    payerFsp,
    payeeFsp: 'payee',
    amount: '1',
    currency: 'USD',
    ilpCondition: 'x'.repeat(43),
    ilpPacket: null,
    expiration: new Date(createdDate.getTime() + 600_000),
    requestHash: 'h',
    transferState,
    fulfilment: null,
    completedTimestamp: seconds === undefined ? null : new Date(createdDate.getTime() + seconds * 1000),
    errorCode: null,
    errorDescription: null,
    payeeWantsNotification: false,
    createdDate,
  });
}

// The count is SQL of each database's own (julianday, TIMESTAMPDIFF); MySQL's is run by the migration of a database that
// already holds transfers, which a test here cannot make apart from the one every test file shares.
(process.env.DATABASE_URL?.startsWith('mysql') ? test.skip : test)(
  'the transfers decided before the counters existed are counted when the database is migrated: per payer, state and bucket of their time',
  async (t) => {
    const file = path.join(os.tmpdir(), `hub-counters-${process.pid}-${crypto.randomUUID()}.sqlite`);
    const before = new DataSource({
      type: 'better-sqlite3',
      database: file,
      entities,
      migrations: migrations.filter((m) => m !== SchemeCounters1795000001600),
    });
    await before.initialize();
    await before.runMigrations();
    await before.manager.insert(TransferRecord, [
      decided('payerA', 'COMMITTED', 0.05),
      decided('payerA', 'COMMITTED', 3),
      decided('payerA', 'COMMITTED', 4),
      decided('payerA', 'ABORTED', 400),
      decided('payerB', 'COMMITTED', 0.3),
      decided('payerB', 'RESERVED'),
    ]);
    await before.destroy();
    const db = await openDatabase(`sqlite:${file}`, 'Hub');
    t.teardown(async () => {
      await db.close();
      fs.rmSync(file, { force: true });
    });
    const counted = await db.read((manager) => manager.find(TransferOutcome, { order: { payerFsp: 'ASC', transferState: 'ASC', le: 'ASC' } }));
    t.deepEqual(
      counted.map(({ payerFsp, transferState, le, transfers, seconds }) => ({
        payerFsp,
        transferState,
        le,
        transfers: Number(transfers),
        seconds: Math.round(seconds * 1000) / 1000,
      })),
      [
        { payerFsp: 'payerA', transferState: 'ABORTED', le: '+Inf', transfers: 1, seconds: 400 },
        { payerFsp: 'payerA', transferState: 'COMMITTED', le: '0.1', transfers: 1, seconds: 0.05 },
        { payerFsp: 'payerA', transferState: 'COMMITTED', le: '5', transfers: 2, seconds: 7 },
        { payerFsp: 'payerB', transferState: 'COMMITTED', le: '0.5', transfers: 1, seconds: 0.3 },
      ],
    );
  },
);
