// `--mode settlement --seed-direct`: the open settlement window filled with committed payments written straight into
// the hub's database, as the ledger and the switch would have written them, so that a window of a million transfers
// can be settled without the 14 hours it takes to send them over FSPIOP here. Not a figure of the hub.

import crypto from 'node:crypto';
import { In } from 'typeorm';
import { insertRows } from '../../activities/hub/db/batches';
import type { Database } from '../../activities/hub/db/database';
import { JournalEntry, LedgerTransfer, Participant, ParticipantAccount, SettlementModel } from '../../activities/hub/db/entities';
import { Decimal, formatAmount } from '../../activities/hub/db/money';
import { TransferRecord } from '../../activities/hub/db/switchEntities';
import { PAYMENT_KIND } from '../../activities/hub/ledger/ledger';
import { openWindowIdIn } from '../../activities/hub/settlement/openWindow';
import type { WindowFill } from './settlement';

/** Payments written per transaction: a short hold of SQLite's write lock, beside a hub that may want it. */
const BATCH = 10_000;
/** A transfer's expiration after it was sent, as the bench's own transfers ask. */
const EXPIRY_MS = 60_000;

/** Where a participant's payments go in the ledger: its POSITION account in the currency. */
interface PositionAccount {
  participant: string;
  accountId: number;
}

/** What a batch writes: the ledger's rows, the switch's records, and what each position account moved by. */
interface Batch {
  ledger: LedgerTransfer[];
  journal: Array<Omit<JournalEntry, 'id'>>;
  records: TransferRecord[];
  moved: Map<number, Decimal>;
}

/**
 * Writes `transfers` committed payments between random pairs of `participants` (random amounts of 1.00 to 1,000.00)
 * into the open window under `modelName`, a batch per transaction: for each the ledger's transfer (COMMITTED, stamped
 * with the window and the model, as Ledger.resolveEach stamps it), its three journal rows (RESERVE, then COMMIT on
 * both accounts), the switch's COMMITTED transfer record, and the position balances the rows add up to, so the
 * ledger's invariants hold afterwards.
 */
export async function seedWindow(
  db: Database,
  participants: string[],
  currency: string,
  modelName: string,
  transfers: number,
  log: (message: string) => void,
): Promise<void> {
  const { accounts, modelId } = await db.read(async (manager) => {
    const named = await manager.findBy(Participant, { name: In(participants) });
    const positions = await manager.findBy(ParticipantAccount, {
      participantId: In(named.map((p) => p.participantId)),
      currency,
      ledgerAccountType: 'POSITION',
    });
    const model = await manager.findOneByOrFail(SettlementModel, { name: modelName });
    const nameOf = new Map(named.map((p) => [p.participantId, p.name]));
    return {
      accounts: positions.map((account): PositionAccount => ({ participant: nameOf.get(account.participantId)!, accountId: account.id })),
      modelId: model.settlementModelId,
    };
  });
  if (accounts.length !== participants.length) throw new Error(`${participants.length} participants have ${accounts.length} ${currency} position accounts`);
  for (let written = 0; written < transfers; written += BATCH) {
    const count = Math.min(BATCH, transfers - written);
    await db.transaction(async (manager) => {
      const ids = accounts.map((account) => account.accountId).sort((a, b) => a - b);
      // Locked first, as the ledger locks them (ledger.ts's lockAccounts), before the balances are read.
      await manager.query(`UPDATE participant_account SET id = id WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
      const batch = paymentsOf(accounts, count, currency, await openWindowIdIn(manager), modelId);
      await insertRows(manager, LedgerTransfer, batch.ledger);
      await insertRows(manager, JournalEntry, batch.journal);
      await insertRows(manager, TransferRecord, batch.records);
      const now = new Date();
      for (const account of await manager.findBy(ParticipantAccount, { id: In(ids) })) {
        const value = formatAmount(batch.moved.get(account.id)?.plus(account.value) ?? account.value);
        await manager.update(ParticipantAccount, { id: account.id }, { value, changedDate: now });
      }
    });
    // better-sqlite3 answers at once: without a turn of the event loop the sockets the hub closed meanwhile (idle
    // keep-alive connections) would be taken for open by the next request.
    await new Promise((resolve) => setImmediate(resolve));
    if ((written + count) % 100_000 === 0 || written + count === transfers) log(`  seeded ${written + count} of ${transfers} transfers`);
  }
}

/** `count` committed payments between random pairs of distinct accounts, with the rows the ledger and switch keep. */
function paymentsOf(accounts: PositionAccount[], count: number, currency: string, settlementWindowId: number, settlementModelId: number): Batch {
  const batch: Batch = { ledger: [], journal: [], records: [], moved: new Map() };
  const now = new Date();
  const expiration = new Date(now.getTime() + EXPIRY_MS);
  const move = (accountId: number, by: Decimal) => batch.moved.set(accountId, by.plus(batch.moved.get(accountId) ?? 0));
  for (let i = 0; i < count; i++) {
    const payer = accounts[crypto.randomInt(accounts.length)];
    let payee = accounts[crypto.randomInt(accounts.length - 1)];
    if (payee === payer) payee = accounts[accounts.length - 1];
    const cents = new Decimal(crypto.randomInt(100, 100_001));
    const amount = formatAmount(cents.dividedBy(100));
    const transferId = crypto.randomUUID();
    batch.ledger.push({
      transferId,
      kind: PAYMENT_KIND,
      state: 'COMMITTED',
      debitAccountId: payer.accountId,
      creditAccountId: payee.accountId,
      amount,
      currency,
      externalReference: null,
      reason: null,
      createdDate: now,
      completedDate: now,
      expiresAt: expiration,
      settlementWindowId,
      settlementModelId,
    });
    const row = (accountId: number, phase: string, postedAmount: string, reservedAmount: string) =>
      batch.journal.push({ transferId, accountId, phase, postedAmount, reservedAmount, createdDate: now });
    row(payer.accountId, 'RESERVE', '0', amount);
    row(payer.accountId, 'COMMIT', amount, `-${amount}`);
    row(payee.accountId, 'COMMIT', `-${amount}`, '0');
    move(payer.accountId, new Decimal(amount));
    move(payee.accountId, new Decimal(amount).negated());
    batch.records.push(switchRecord(transferId, payer.participant, payee.participant, amount, currency, now, expiration));
  }
  return batch;
}

/** The switch's record of a transfer the payee fulfilled and the hub committed. */
function switchRecord(transferId: string, payerFsp: string, payeeFsp: string, amount: string, currency: string, now: Date, expiration: Date): TransferRecord {
  const fulfilment = crypto.randomBytes(32).toString('base64url');
  return {
    transferId,
    payerFsp,
    payeeFsp,
    amount,
    currency,
    ilpCondition: crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url'),
    ilpPacket: null,
    expiration,
    requestHash: crypto.randomBytes(32).toString('hex'),
    transferState: 'COMMITTED',
    fulfilment,
    completedTimestamp: now,
    errorCode: null,
    errorDescription: null,
    payeeWantsNotification: false,
    createdDate: now,
  };
}

/** A window filled by seedWindow: `transfers` between the named participants. */
export function seededFill(db: Database, participants: string[], currency: string, transfers: number, log: (message: string) => void): WindowFill {
  return async (model) => {
    await seedWindow(db, participants, currency, model, transfers, log);
    return { held: transfers, how: `seeded into the database between ${participants.length} DFSPs` };
  };
}
