import crypto from 'node:crypto';
import test from 'ava';
import { In, type EntityManager } from 'typeorm';
import type { Database } from '../../activities/hub/db/database';
import { LedgerTransfer, Notification } from '../../activities/hub/db/entities';
import { SettlementWindowContent, type SettlementState } from '../../activities/hub/db/settlementEntities';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { Ledger, PAYMENT_KIND } from '../../activities/hub/ledger/ledger';
import { ledgerNotices } from '../../activities/hub/notifications/ledgerNotices';
import { StaleStep } from '../../activities/hub/settlement/accountSteps';
import { BankConfirmationRefused } from '../../activities/hub/settlement/bankConfirmation';
import { ledgerTerms } from '../../activities/hub/settlement/ledgerTerms';
import { Settlements } from '../../activities/hub/settlement/settlements';
import type { SettlementView } from '../../activities/hub/settlement/settlementViews';
import { SettlementWindows } from '../../activities/hub/settlement/windows';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { onboardParticipant } from '../helpers/hubProcesses';
import { closingWindowsInTurn, deferredNetModel } from '../helpers/settlementCycle';

// A settlement step (a change of its accounts, an abort, a window's close) that stalls between what it read and its
// transaction — a worker paused or cut off from Temporal, its step tried again elsewhere meanwhile — must not write
// what it decided from a state that is gone. Each test holds a step there, lets other steps run, then lets it go on.
// KMF is paid by no other test, so the settlements here hold this file's payments alone.

const CURRENCY = 'KMF';
let admin: AdminHarness;
let model: string;

test.before(async () => {
  admin = await startAdmin();
  model = await deferredNetModel((method, path, body) => admin.call(method, path, body), CURRENCY);
});
test.after.always(async () => {
  await admin?.close();
});

/**
 * The database as a step sees it when it stalls after its reads: they go through, its transaction waits until
 * `resume`; `stalled` settles once it waits there.
 */
function stallingBeforeWrites(db: Database): { db: Database; stalled: Promise<void>; resume: () => void } {
  let resume!: () => void;
  let stalledNow!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  const stalled = new Promise<void>((resolve) => (stalledNow = resolve));
  const transaction = async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
    stalledNow();
    await resumed;
    return db.transaction(work);
  };
  const held = new Proxy(db, {
    get: (target, key) => {
      if (key === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: held, stalled, resume };
}

/** A participant in KMF with funds, whose operator is e-mailed when a settlement changes its position. */
async function participant(): Promise<{ name: string; position: number }> {
  const name = uniqueName();
  await onboardParticipant(admin.url, name, 'http://127.0.0.1:9', { currency: CURRENCY });
  await admin.call('POST', `/participants/${name}/endpoints`, { type: 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL', value: `${name}@dfsp.example` });
  const accounts = (await admin.call('GET', `/participants/${name}/accounts`)).body;
  return { name, position: accounts.find((account: any) => account.ledgerAccountType === 'POSITION').id };
}

/** A payment the ledger commits from one participant's position to another's: it belongs to the open window. */
async function pay(from: { position: number }, to: { position: number }, amount: string): Promise<void> {
  const transferId = crypto.randomUUID();
  const movement = { transferId, kind: PAYMENT_KIND, debitAccountId: from.position, creditAccountId: to.position, amount, currency: CURRENCY };
  await admin.services.ledger.reserve(movement);
  await admin.services.ledger.commit(transferId);
}

/** A payment between two new participants, its window closed, and a settlement of it moved through `steps`. */
async function settlementThrough(steps: SettlementState[]): Promise<SettlementView> {
  const { settlementWindows, settlements, db } = admin.services;
  const settlement = await closingWindowsInTurn(db, async () => {
    await pay(await participant(), await participant(), '25');
    const { settlementWindowId } = await settlementWindows.open();
    await settlementWindows.close(settlementWindowId, 'stale steps');
    return settlements.create({ settlementModel: model, reason: 'stale steps', settlementWindows: [{ id: settlementWindowId }] });
  });
  for (const state of steps) await everyAccountTo(settlements, settlement, state);
  return settlement;
}

/** The step that moves every account of the settlement to `state`, as the operator's PUT asks it. */
function everyAccountTo(settlements: Settlements, settlement: SettlementView, state: SettlementState): Promise<SettlementView> {
  return settlements.change(
    settlement.id,
    settlement.participants.map(({ id, accounts }) => ({ id, accounts: accounts.map((account) => ({ id: account.id, state, reason: state })) })),
  );
}

/** The e-mails queued to tell the settlement's participants of a position change. */
async function positionChangeMails(settlement: SettlementView): Promise<number> {
  const participantIds = settlement.participants.map((entry) => entry.id);
  return admin.services.db.read((manager) => manager.countBy(Notification, { participantId: In(participantIds), subject: 'Settlement Position Change' }));
}

/** A copy of the hub's settlement steps on the stalling database, as a stalled worker runs them. */
function stalledSettlements(db: Database): Settlements {
  return new Settlements(db, new Ledger(db, ledgerTerms, ledgerNotices(HUB_NAME)), HUB_NAME);
}

test.serial('a step to RESERVED that read the settlement before it was reserved and committed writes nothing: no account moves back', async (t) => {
  const settlement = await settlementThrough(['PS_TRANSFERS_RECORDED']);
  const stall = stallingBeforeWrites(admin.services.db);
  const stalled = stalledSettlements(stall.db);
  const late = everyAccountTo(stalled, settlement, 'PS_TRANSFERS_RESERVED').then(
    () => 'written',
    (error: unknown) => error,
  );
  await stall.stalled;
  await everyAccountTo(admin.services.settlements, settlement, 'PS_TRANSFERS_RESERVED');
  await everyAccountTo(admin.services.settlements, settlement, 'PS_TRANSFERS_COMMITTED');
  stall.resume();

  t.true((await late) instanceof StaleStep, 'the stalled step fails, to be tried again');
  const after = await admin.services.settlements.get(settlement.id);
  t.is(after.state, 'PS_TRANSFERS_COMMITTED');
  t.deepEqual(
    after.participants.flatMap((entry) => entry.accounts.map((account) => account.state)),
    ['PS_TRANSFERS_COMMITTED', 'PS_TRANSFERS_COMMITTED'],
    'every account stays committed',
  );
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);

  const retried = await everyAccountTo(stalled, settlement, 'PS_TRANSFERS_RESERVED');
  t.true(
    retried.participants.every((entry) => entry.accounts.every((account) => account.errorInformation?.errorCode === '3000')),
    'tried again, it is refused from where the settlement stands',
  );
});

test.serial('a commit step repeated by a stalled attempt after the commit queues no second e-mail', async (t) => {
  const settlement = await settlementThrough(['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED']);
  const stall = stallingBeforeWrites(admin.services.db);
  const stalled = stalledSettlements(stall.db);
  const late = everyAccountTo(stalled, settlement, 'PS_TRANSFERS_COMMITTED').then(
    () => 'written',
    (error: unknown) => error,
  );
  await stall.stalled;
  await everyAccountTo(admin.services.settlements, settlement, 'PS_TRANSFERS_COMMITTED');
  t.is(await positionChangeMails(settlement), 2, 'each participant is told of its position once');
  stall.resume();

  t.true((await late) instanceof StaleStep, 'the stalled attempt fails, to be tried again');
  t.is(await positionChangeMails(settlement), 2, 'the stalled attempt queued no e-mail');
  const retried = await everyAccountTo(stalled, settlement, 'PS_TRANSFERS_COMMITTED');
  t.is(retried.state, 'PS_TRANSFERS_COMMITTED', 'tried again, it finds the accounts committed and answers so');
  t.is(await positionChangeMails(settlement), 2, 'and queues no e-mail either');
});

test.serial(
  'a finalisation against the bank that read the settlement committed, stalled while its accounts were settled by hand, records no funds',
  async (t) => {
    const settlement = await settlementThrough(['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED']);
    const lines = settlement.participants.flatMap(({ id, accounts }) =>
      accounts.map((account) => ({ participant: String(id), currency: CURRENCY, amount: String(account.netSettlementAmount.amount), reference: `bank-${id}` })),
    );
    const stall = stallingBeforeWrites(admin.services.db);
    const late = stalledSettlements(stall.db)
      .finalise(settlement.id, lines)
      .then(
        () => 'written',
        (error: unknown) => error,
      );
    await stall.stalled;
    await everyAccountTo(admin.services.settlements, settlement, 'SETTLED');
    stall.resume();

    t.true((await late) instanceof StaleStep, 'the stalled step fails, to be tried again');
    const funds = await admin.services.db.read((manager) => manager.countBy(LedgerTransfer, { kind: 'SETTLEMENT_FUNDS', currency: CURRENCY }));
    t.is(funds, 0, 'its movements went with its transaction: no funds recorded for a settlement it did not settle');
    t.deepEqual((await checkLedger(admin.services.db)).violations, []);
    await t.throwsAsync(
      admin.services.settlements.finalise(settlement.id, lines),
      { instanceOf: BankConfirmationRefused },
      'tried again, it is refused: the settlement is SETTLED already',
    );
  },
);

test.serial('an abort decided while the settlement was reserved does not abort it once it is committed', async (t) => {
  const settlement = await settlementThrough(['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED']);
  const stall = stallingBeforeWrites(admin.services.db);
  const late = stalledSettlements(stall.db)
    .abort(settlement.id, 'bank rejected')
    .then(
      () => 'written',
      (error: unknown) => error,
    );
  await stall.stalled;
  await everyAccountTo(admin.services.settlements, settlement, 'PS_TRANSFERS_COMMITTED');
  stall.resume();

  t.true((await late) instanceof StaleStep, 'the stalled abort fails, to be tried again');
  t.is((await admin.services.settlements.get(settlement.id)).state, 'PS_TRANSFERS_COMMITTED');
  const content = await admin.services.db.read((manager) => manager.findBy(SettlementWindowContent, { settlementId: settlement.id }));
  t.is(content.length, 1, "the window's content stays with the committed settlement, not freed to be settled twice");
  await t.throwsAsync(admin.services.settlements.abort(settlement.id, 'bank rejected'), { message: /not allowed/ }, 'tried again, the abort is refused');
});

test.serial('a close that read the window open before another attempt closed it answers that close, and opens no second window', async (t) => {
  const { settlementWindows, db } = admin.services;
  await closingWindowsInTurn(db, async () => {
    await pay(await participant(), await participant(), '5');
    const { settlementWindowId } = await settlementWindows.open();
    const stall = stallingBeforeWrites(db);
    const late = new SettlementWindows(stall.db).close(settlementWindowId, 'stalled');
    await stall.stalled;
    const first = await settlementWindows.close(settlementWindowId, 'end of day');
    stall.resume();
    t.deepEqual(await late, first);
    t.deepEqual(
      (await settlementWindows.find({ state: 'OPEN' })).map((window) => window.id),
      [first.opened.id],
    );
  });
});
