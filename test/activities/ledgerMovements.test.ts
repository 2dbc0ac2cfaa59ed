import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { In } from 'typeorm';
import { BulkTransfers } from '../../activities/hub/conversations/bulkTransfers';
import { Transfers } from '../../activities/hub/conversations/transfers';
import { JournalEntry, LedgerTransfer, ParticipantAccount } from '../../activities/hub/db/entities';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { isCommitMovement, movementRule } from '../../activities/hub/ledger/rules';
import { HubError } from '../../activities/shared/platform/hubError';
import { deferredNetModelBody, immediateGrossModelBody } from '../helpers/adminBodies';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { bulkItem, bulkTransferBody, ilpPair, transferBody } from '../helpers/fspiopBodies';
import { closingWindowsInTurn } from '../helpers/settlementCycle';

// Every caller of the ledger, driven at random: transfers and bulks (prepare, commit), funds in and out (commit,
// abort), initial positions above and below zero, the currency moved between an immediate gross and a deferred net
// model at any point, windows closed and net settlements walked to SETTLED. Whatever the sequence, no movement is
// refused as one the hub does not make, every movement and every gross settlement in the ledger is a row of its table
// (rules.ts), and each payment is settled exactly once: when every window is settled, each position is back where it
// started. CVE is paid by no other test, so the models act on this file's participants alone on a shared database.

const CURRENCY = 'CVE';
const MODELS = { gross: immediateGrossModelBody('MOVEMENTSGROSSCVE', CURRENCY), net: deferredNetModelBody('MOVEMENTSNETCVE', CURRENCY) };

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
  for (const model of Object.values(MODELS))
    await admin.services.settlementModels.create(model).catch((error) => assert.match(String(error), /already exists/));
});
test.after.always(async () => {
  await admin?.close();
});

type Operation =
  | { op: 'pay'; between: number[]; amount: number }
  | { op: 'bulk'; between: number[]; amounts: number[] }
  | { op: 'fundsIn'; dfsp: number; amount: number }
  | { op: 'fundsOut'; dfsp: number; amount: number; commit: boolean }
  | { op: 'model'; to: 'gross' | 'net' }
  | { op: 'settle' };

const dfsp = fc.integer({ min: 0, max: 2 });
/** A payer and a payee, two of the three DFSPs. */
const between = fc.uniqueArray(dfsp, { minLength: 2, maxLength: 2 });
const amount = fc.integer({ min: 1, max: 150 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant('pay' as const), between, amount }),
  fc.record({ op: fc.constant('bulk' as const), between, amounts: fc.array(amount, { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant('fundsIn' as const), dfsp, amount }),
  fc.record({ op: fc.constant('fundsOut' as const), dfsp, amount, commit: fc.boolean() }),
  fc.record({ op: fc.constant('model' as const), to: fc.constantFrom('gross' as const, 'net' as const) }),
  fc.constant({ op: 'settle' as const }),
);

interface Dfsp {
  name: string;
  position: number;
  settlement: number;
  opening: number;
}

/** The currency settled by one model, the other inactive. */
async function settleBy(to: 'gross' | 'net'): Promise<void> {
  const { settlementModels } = admin.services;
  await settlementModels.setActive(MODELS[to === 'gross' ? 'net' : 'gross'].name, false);
  await settlementModels.setActive(MODELS[to].name, true);
}

async function participant(opening: number): Promise<Dfsp> {
  const { participants, limits, funds } = admin.services;
  const name = uniqueName();
  const { accounts } = await participants.create(name, CURRENCY);
  await participants.setActive(name, true);
  await limits.initialPositionAndLimits(name, { currency: CURRENCY, limit: { type: 'NET_DEBIT_CAP', value: '800' }, initialPosition: String(opening) });
  const accountOf = (type: string) => accounts.find((account) => account.ledgerAccountType === type)!.id;
  await funds.recordFundsIn(name, accountOf('SETTLEMENT'), { transferId: crypto.randomUUID(), externalReference: 'x', reason: 'opening', amount: '1000' });
  return { name, position: accountOf('POSITION'), settlement: accountOf('SETTLEMENT'), opening };
}

/** A refusal by a money rule (cover, cap, the deposit) is the ledger doing its job; anything else fails the property. */
async function unlessRefused(step: Promise<unknown>): Promise<void> {
  await step.catch((error) => {
    if (!(error instanceof HubError) || !['payerInsufficientLiquidity', 'payerLimitError'].includes(error.errorName)) throw error;
  });
}

async function apply(step: Operation, dfsps: Dfsp[]): Promise<void> {
  const { funds } = admin.services;
  if (step.op === 'pay') {
    const transfers = new Transfers(admin.services);
    const { fulfilment, condition } = ilpPair();
    const [payer, payee] = step.between.map((index) => dfsps[index].name);
    const body = transferBody(payer, payee, String(step.amount), { condition, currency: CURRENCY as 'USD' });
    await unlessRefused(
      transfers
        .prepare({ body, source: body.payerFsp, requestHash: 'h' })
        .then(() => transfers.commit({ transferId: body.transferId, fulfilment, payeeWantsNotification: false })),
    );
  } else if (step.op === 'bulk') {
    const bulks = new BulkTransfers(admin.services);
    const items = step.amounts.map((each) => bulkItem(String(each), CURRENCY as 'USD'));
    const [payer, payee] = step.between.map((index) => dfsps[index].name);
    const body = bulkTransferBody(payer, payee, items);
    await bulks.prepare({ body, source: body.payerFsp, destination: body.payeeFsp, requestHash: 'h' });
    await bulks.fulfil({
      bulkTransferId: body.bulkTransferId,
      results: items.map(({ transfer, fulfilment }) => ({ transferId: transfer.transferId, fulfilment })),
    });
  } else if (step.op === 'fundsIn') {
    const { name, settlement } = dfsps[step.dfsp];
    await funds.recordFundsIn(name, settlement, { transferId: crypto.randomUUID(), externalReference: 'x', reason: 'in', amount: String(step.amount) });
  } else if (step.op === 'fundsOut') {
    const { name, settlement } = dfsps[step.dfsp];
    const transferId = crypto.randomUUID();
    await unlessRefused(
      funds
        .recordFundsOutPrepareReserve(name, settlement, { transferId, externalReference: 'x', reason: 'out', amount: String(step.amount) })
        .then(() => (step.commit ? funds.recordFundsOutCommit(name, settlement, transferId) : funds.recordFundsOutAbort(name, settlement, transferId))),
    );
  } else if (step.op === 'model') {
    await settleBy(step.to);
  } else {
    await settleWindows();
  }
}

/** Closes the open window (unless it holds no payment) and settles every window's content in CVE to SETTLED. */
async function settleWindows(): Promise<void> {
  const { settlementWindows, settlements } = admin.services;
  const open = await settlementWindows.open();
  await settlementWindows.close(open.id, 'settle').catch((error) => assert.match(String(error), /is empty/));
  const windows = await settlementWindows.find({ currency: CURRENCY }).catch(() => []);
  const unsettled = windows.filter((window) =>
    window.content?.some((row) => row.currencyId === CURRENCY && row.settlementId === null && ['CLOSED', 'ABORTED'].includes(row.state)),
  );
  if (unsettled.length === 0) return;
  const created = await settlements.create({ settlementModel: MODELS.net.name, reason: 'settle', settlementWindows: unsettled.map(({ id }) => ({ id })) });
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED'] as const) {
    const participants = created.participants.map(({ id, accounts }) => ({ id, accounts: accounts.map((account) => ({ id: account.id, state })) }));
    await settlements.change(created.id, participants);
  }
}

/** Every movement and gross settlement of the participants' accounts that is not a row of the ledger's table. */
async function outsideTheTable(dfsps: Dfsp[]): Promise<string[]> {
  return admin.services.db.read(async (manager) => {
    const own = dfsps.flatMap((each) => [each.position, each.settlement]);
    const movements = await manager.find(LedgerTransfer, { where: [{ debitAccountId: In(own) }, { creditAccountId: In(own) }] });
    const rows = await manager.findBy(JournalEntry, {
      transferId: In(movements.map((movement) => movement.transferId)),
      phase: In(['GROSS_SETTLEMENT', 'POSITION_RESET']),
    });
    const accounts = await manager.findBy(ParticipantAccount, {
      id: In([...new Set([...movements.flatMap((m) => [m.debitAccountId, m.creditAccountId]), ...rows.map((row) => row.accountId)])]),
    });
    const typeOf = (id: number) => accounts.find((account) => account.id === id)!.ledgerAccountType;
    const outside = movements
      .filter((movement) => movementRule(movement.kind, typeOf(movement.debitAccountId), typeOf(movement.creditAccountId)) === undefined)
      .map((movement) => `${movement.kind} ${typeOf(movement.debitAccountId)} → ${typeOf(movement.creditAccountId)}`);
    for (const movement of movements) {
      for (const phase of ['GROSS_SETTLEMENT', 'POSITION_RESET']) {
        const posted = rows.filter((row) => row.transferId === movement.transferId && row.phase === phase);
        if (posted.length === 0) continue;
        const debit = posted.find((row) => !row.postedAmount.startsWith('-'))!;
        const credit = posted.find((row) => row.postedAmount.startsWith('-'))!;
        if (!isCommitMovement(phase, movement.kind, typeOf(debit.accountId), typeOf(credit.accountId))) outside.push(`${phase} of a ${movement.kind}`);
      }
    }
    return outside;
  });
}

test('whatever the ledger is asked, by any caller and under any change of model, it moves money only as its table says, and settles each payment once', async (t) => {
  const openings = fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 3, maxLength: 3 });
  const run = async (initial: 'gross' | 'net', opening: number[], steps: Operation[]) => {
    await settleBy(initial);
    const dfsps = [];
    for (const each of opening) dfsps.push(await participant(each));
    for (const step of steps) await apply(step, dfsps);
    await settleBy('net');
    await settleWindows();
    assert.deepEqual(await outsideTheTable(dfsps), []);
    for (const { name, position, opening: start } of dfsps) {
      const account = await admin.services.db.read((manager) => manager.findOneByOrFail(ParticipantAccount, { id: position }));
      assert.deepEqual([account.value, account.reservedValue].map(Number), [start, 0], `${name}'s position is back at its opening ${start}`);
    }
  };
  await closingWindowsInTurn(admin.services.db, () =>
    fc.assert(fc.asyncProperty(fc.constantFrom('gross' as const, 'net' as const), openings, fc.array(operation, { maxLength: 16, size: 'medium' }), run), {
      numRuns: 25,
    }),
  );
  t.deepEqual((await checkLedger(admin.services.db)).violations, []);
});

test('the ledger refuses a movement its table does not name, whoever asks it: 2001, and nothing moves', async (t) => {
  const [payer, payee] = [await participant(0), await participant(0)];
  const { ledger, db } = admin.services;
  const reconciliation = await db.read((manager) =>
    manager.findOneByOrFail(ParticipantAccount, { ledgerAccountType: 'HUB_RECONCILIATION', currency: CURRENCY }),
  );
  const movement = (kind: string, debitAccountId: number, creditAccountId: number, amount: string) => ({
    transferId: crypto.randomUUID(),
    kind,
    debitAccountId,
    creditAccountId,
    amount,
    currency: CURRENCY,
  });
  const unknown = [
    movement('TRANSFER', payer.position, payee.settlement, '5000'),
    movement('POSITION_RESET', payer.position, payee.position, '5000'),
    movement('FUNDS_IN', payer.settlement, reconciliation.id, '1'),
  ];
  for (const asked of unknown) {
    for (const step of [ledger.reserve(asked), ledger.post(asked)]) {
      const refused = await t.throwsAsync<HubError>(step, { instanceOf: HubError, message: new RegExp(`makes no ${asked.kind} movement`) });
      t.is(refused?.errorInformation.errorCode, '2001');
    }
  }
  const moved = await db.read((manager) => manager.countBy(LedgerTransfer, { transferId: In(unknown.map((asked) => asked.transferId)) }));
  t.is(moved, 0);
  const balances = await db.read((manager) =>
    manager.findBy(ParticipantAccount, { id: In([payer.position, payer.settlement, payee.position, payee.settlement]) }),
  );
  t.deepEqual(
    balances.map((account) => Number(account.value)).sort((a, b) => a - b),
    [-1000, -1000, 0, 0],
    'each deposited 1000, and no position moved',
  );
});
