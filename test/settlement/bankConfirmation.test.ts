import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { In } from 'typeorm';
import { ParticipantAccount, LedgerTransfer } from '../../activities/hub/db/entities';
import { Decimal } from '../../activities/hub/db/money';
import { Settlement, SettlementParticipantAccount } from '../../activities/hub/db/settlementEntities';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { loadConfig } from '../../activities/shared/platform/config';
import { startAdmin } from '../helpers/adminHarness';
import { answerBody } from '../helpers/http';
import { closingWindowsInTurn, deferredNetModel, type AdminCall } from '../helpers/settlementCycle';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// Finalisation against the bank: a settlement whose transfers are committed is settled by the settlement bank's
// confirmation (POST /v2/settlements/{id}/bankConfirmation), checked line by line before anything moves. Currencies no
// other test file settles keep the settlements to this file's participants on a shared database. Serial: each test
// closes the window the one before it left open.

let hub: SwitchHarness;
let payments: FulfillingPayees;
const models: Record<string, string> = {};

useSwitch(
  test,
  async (started) => {
    hub = started;
    payments = new FulfillingPayees(hub);
    const admin: AdminCall = (method, path, body) => hub.admin.call(method, path, body);
    for (const currency of ['SCR', 'CDF', 'BIF']) models[currency] = await deferredNetModel(admin, currency);
  },
  { namespace: `bank-confirmation-${crypto.randomUUID()}` },
);

const v2 = (method: string, path: string, body?: unknown) => hub.admin.call(method, `/v2${path}`, body);
const inTurn = (title: string, body: (t: ExecutionContext) => Promise<void>) => test.serial(title, (t) => closingWindowsInTurn(hub.services.db, () => body(t)));
const dfsp = async (currency: string) => payments.fulfils(await hub.provision({ currency, netDebitCap: 1_000, fundsIn: 10_000 }));

/** The bank's confirmation as CSV, as a bank's system sends it. */
async function uploadCsv(settlementId: number, csv: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${hub.admin.url}/v2/settlements/${settlementId}/bankConfirmation`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
  return { status: response.status, body: await answerBody(response) };
}

/** Payments in `currency`, the window closed, a settlement of it created and walked up to `until`. */
async function settlementUpTo(currency: string, dfsps: SimulatedDfsp[], pays: Array<[number, number, string]>, until: string): Promise<number> {
  for (const [payer, payee, amount] of pays) {
    const paid = await payments.pay(dfsps[payer], dfsps[payee], amount, currency);
    if (paid.state !== 'COMMITTED') throw new Error(`payment refused: ${JSON.stringify(paid)}`);
  }
  const [open] = (await v2('GET', '/settlementWindows?state=OPEN')).body;
  const closed = await v2('POST', `/settlementWindows/${open.settlementWindowId}`, { state: 'CLOSED', reason: 'end of day' });
  if (closed.status !== 200) throw new Error(JSON.stringify(closed.body));
  const created = await v2('POST', '/settlements', {
    settlementModel: models[currency],
    reason: 'daily',
    settlementWindows: [{ id: open.settlementWindowId }],
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED']) {
    const settlement = (await v2('GET', `/settlements/${created.body.id}`)).body;
    const participants = settlement.participants.map((participant: any) => ({
      id: participant.id,
      accounts: participant.accounts.map((account: any) => ({ id: account.id, state, reason: state })),
    }));
    const moved = await v2('PUT', `/settlements/${created.body.id}`, { participants });
    if (moved.status !== 200) throw new Error(JSON.stringify(moved.body));
    if (state === until) break;
  }
  return created.body.id;
}

/** Everything a confirmation could move: the accounts in the currency, the settlement and its accounts, the movements. */
async function snapshot(settlementId: number, currency: string) {
  return hub.services.db.read(async (manager) => ({
    accounts: (await manager.find(ParticipantAccount, { where: { currency }, order: { id: 'ASC' } })).map(({ id, value, reservedValue }) => ({
      id,
      value,
      reservedValue,
    })),
    settlement: await manager.findOneByOrFail(Settlement, { settlementId }),
    settlementAccounts: await manager.find(SettlementParticipantAccount, { where: { settlementId }, order: { id: 'ASC' } }),
    movements: await manager.countBy(LedgerTransfer, { currency }),
  }));
}

/** A DFSP's account of a type in a currency, from the database: its balance exactly. */
async function accountOf(dfsp: SimulatedDfsp, currency: string, ledgerAccountType: string): Promise<ParticipantAccount> {
  const accounts = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body;
  const id = accounts.find((account: any) => account.ledgerAccountType === ledgerAccountType && account.currency === currency).id;
  return hub.services.db.read((manager) => manager.findOneByOrFail(ParticipantAccount, { id }));
}

const problemsOf = (answer: { body: any }) =>
  (answer.body.errorInformation?.extensionList?.extension ?? []).map((entry: any) => `${entry.key}: ${entry.value}`);

inTurn(
  'a wrong confirmation is refused with each of its problems named and nothing moves; the right one settles every account and records the funds on the settlement accounts',
  async (t) => {
    const [a, b, c, d] = [await dfsp('SCR'), await dfsp('SCR'), await dfsp('SCR'), await dfsp('SCR')];
    // Net: a pays 100, b receives 35, c receives 45, d receives 20.
    const settlementId = await settlementUpTo(
      'SCR',
      [a, b, c, d],
      [
        [0, 1, '60'],
        [1, 2, '25'],
        [0, 2, '20'],
        [0, 3, '20'],
      ],
      'PS_TRANSFERS_RESERVED',
    );
    const right = [
      { participant: a.name, currency: 'SCR', amount: '100', reference: 'BANK-A-1' },
      { participant: b.name, currency: 'SCR', amount: '-35', reference: 'BANK-B-1' },
      { participant: c.name, currency: 'SCR', amount: '-45.0000', reference: 'BANK-C-1' },
      { participant: d.name, currency: 'SCR', amount: '-20', reference: 'BANK-D-1' },
    ];
    const wrong = [
      { participant: a.name, currency: 'SCR', amount: '99.99', reference: 'BANK-A-1' },
      { participant: b.name, currency: 'USD', amount: '-35', reference: 'BANK-B-1' },
      { participant: c.name, currency: 'SCR', amount: '-45', reference: 'BANK-C-1' },
      { participant: c.name, currency: 'SCR', amount: '-45', reference: 'BANK-C-2' },
      { participant: 'nobodyatall', currency: 'SCR', amount: '1', reference: 'BANK-X' },
    ];
    const untouched = await snapshot(settlementId, 'SCR');

    const early = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines: right });
    t.is(early.status, 400, 'the right file, but the transfers are not committed yet');
    t.is(early.body.errorInformation.errorCode, '3100');
    t.deepEqual(problemsOf(early), ['state: settlement: state expected PS_TRANSFERS_COMMITTED, sent settlement in PS_TRANSFERS_RESERVED']);
    const wrongEarly = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines: wrong });
    t.is(problemsOf(wrongEarly).length, 6, 'the wrong state and the five problems of the file, all at once');
    t.deepEqual(await snapshot(settlementId, 'SCR'), untouched, 'nothing moved');

    await v2('PUT', `/settlements/${settlementId}`, {
      participants: untouched.settlementAccounts.map((account) => ({
        id: account.participantId,
        accounts: [{ id: account.accountId, state: 'PS_TRANSFERS_COMMITTED', reason: 'committed' }],
      })),
    });
    const committed = await snapshot(settlementId, 'SCR');
    t.is(committed.settlement.state, 'PS_TRANSFERS_COMMITTED');

    const refused = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines: wrong });
    t.is(refused.status, 400);
    t.is(refused.body.errorInformation.errorCode, '3100');
    t.deepEqual(problemsOf(refused).sort(), [
      `amount: ${a.name} SCR: amount expected 100, sent 99.99`,
      `currency: ${b.name} USD: currency expected SCR, sent USD`,
      `duplicate: ${c.name} SCR: duplicate expected one line, sent another line`,
      `missing: ${d.name} SCR: missing expected -20, sent no line`,
      `unknown: nobodyatall SCR: unknown expected a participant of the settlement, sent nobodyatall`,
    ]);
    t.deepEqual(await snapshot(settlementId, 'SCR'), committed, 'a wrong file moves nothing: no balance, no state, no movement');

    const before = await Promise.all([a, b, c, d].map((dfsp) => accountOf(dfsp, 'SCR', 'SETTLEMENT')));
    const applied = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines: right });
    t.is(applied.status, 200, JSON.stringify(applied.body));
    t.is(applied.body.state, 'SETTLED');
    const settled = await snapshot(settlementId, 'SCR');
    t.true(
      settled.settlementAccounts.every((account) => account.state === 'SETTLED'),
      'every account is SETTLED',
    );
    t.deepEqual(
      settled.settlementAccounts.map((account) => account.externalReference).sort(),
      right.map((line) => line.reference),
      "each account keeps the bank's reference",
    );
    const after = await Promise.all([a, b, c, d].map((dfsp) => accountOf(dfsp, 'SCR', 'SETTLEMENT')));
    const moved = after.map((account, index) => new Decimal(account.value).minus(before[index].value).toString());
    t.deepEqual(moved, ['100', '-35', '-45', '-20'], 'each settlement account moved by exactly its net amount (a payer pays out, a receiver is paid in)');
    t.deepEqual((await checkLedger(hub.services.db)).violations, [], "the ledger's invariants hold");
    const window = (await v2('GET', `/settlements/${settlementId}`)).body.settlementWindows[0];
    t.is(window.content.find((row: any) => row.currencyId === 'SCR').state, 'SETTLED');

    const again = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines: right });
    t.is(again.status, 200, 'the same confirmation again is answered as applied');
    t.deepEqual(await snapshot(settlementId, 'SCR'), settled, '...and moves nothing twice');
    const other = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, {
      lines: right.map((line) => ({ ...line, reference: `${line.reference}-again` })),
    });
    t.is(other.status, 400, 'another confirmation of a settled settlement is refused');
    t.deepEqual(problemsOf(other), ['state: settlement: state expected PS_TRANSFERS_COMMITTED, sent settlement in SETTLED']);
  },
);

inTurn("the bank's CSV, its columns in any order and a quoted reference, settles the settlement as the JSON does", async (t) => {
  const [a, b] = [await dfsp('CDF'), await dfsp('CDF')];
  const settlementId = await settlementUpTo('CDF', [a, b], [[0, 1, '12.5']], 'PS_TRANSFERS_COMMITTED');
  const before = await Promise.all([a, b].map((dfsp) => accountOf(dfsp, 'CDF', 'SETTLEMENT')));

  const wrong = await uploadCsv(settlementId, `participant,currency,amount,reference\r\n${a.name},CDF,12.5,REF-1\r\n`);
  t.is(wrong.status, 400);
  t.deepEqual(problemsOf(wrong), [`missing: ${b.name} CDF: missing expected -12.5, sent no line`]);

  const csv = `reference,amount,participant,currency\n"BANK, batch 7",12.5,${a.name},CDF\n"BANK ""8""",-12.5,${b.name},CDF\n`;
  const applied = await uploadCsv(settlementId, csv);
  t.is(applied.status, 200, JSON.stringify(applied.body));
  t.is(applied.body.state, 'SETTLED');
  const after = await Promise.all([a, b].map((dfsp) => accountOf(dfsp, 'CDF', 'SETTLEMENT')));
  t.deepEqual(
    after.map((account, index) => new Decimal(account.value).minus(before[index].value).toString()),
    ['12.5', '-12.5'],
  );
  const references = await hub.services.db.read((manager) =>
    manager.find(SettlementParticipantAccount, { where: { settlementId }, order: { netAmount: 'DESC' } }),
  );
  t.deepEqual(
    references.map((account) => account.externalReference),
    ['BANK, batch 7', 'BANK "8"'],
  );
  const movements = await hub.services.db.read((manager) =>
    manager.findBy(LedgerTransfer, { transferId: In(references.map((account) => `settlement-${settlementId}-bank-${account.accountId}`)) }),
  );
  t.is(movements.length, 2, "one movement per account, carrying the bank's reference");
  t.true(movements.every((movement) => movement.state === 'COMMITTED' && ['BANK, batch 7', 'BANK "8"'].includes(movement.externalReference!)));
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

inTurn('a net payer whose deposits no longer cover what the bank says it paid out: refused as any withdrawal would be (4001), and nothing moves', async (t) => {
  const [a, b] = [await dfsp('SCR'), await dfsp('SCR')];
  const settlementId = await settlementUpTo('SCR', [a, b], [[0, 1, '30']], 'PS_TRANSFERS_COMMITTED');
  const deposit = await accountOf(a, 'SCR', 'SETTLEMENT');
  const withdrawn = await hub.admin.call('POST', `/participants/${a.name}/accounts/${deposit.id}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'most of it',
    action: 'recordFundsOut',
    reason: 'withdrawn before the bank settled',
    amount: { amount: '9980', currency: 'SCR' },
  });
  t.is(withdrawn.status, 202, JSON.stringify(withdrawn.body));
  const before = await snapshot(settlementId, 'SCR');
  const lines = [
    { participant: a.name, currency: 'SCR', amount: '30', reference: 'R-A' },
    { participant: b.name, currency: 'SCR', amount: '-30', reference: 'R-B' },
  ];
  const refused = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines });
  t.is(refused.status, 400);
  t.is(refused.body.errorInformation.errorCode, '4001');
  t.deepEqual(await snapshot(settlementId, 'SCR'), before, "the receiver's funds are not recorded without the payer's: one step, all or nothing");
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

inTurn('payments that cancel out: a confirmation of zero for each settles the settlement and records no funds', async (t) => {
  const [a, b] = [await dfsp('CDF'), await dfsp('CDF')];
  const settlementId = await settlementUpTo(
    'CDF',
    [a, b],
    [
      [0, 1, '5'],
      [1, 0, '5'],
    ],
    'PS_TRANSFERS_COMMITTED',
  );
  const before = await snapshot(settlementId, 'CDF');
  const lines = [a, b].map((dfsp, index) => ({ participant: dfsp.name, currency: 'CDF', amount: '0', reference: `ZERO-${index}` }));
  const applied = await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines });
  t.is(applied.status, 200, JSON.stringify(applied.body));
  t.is(applied.body.state, 'SETTLED');
  const after = await snapshot(settlementId, 'CDF');
  t.deepEqual(after.accounts, before.accounts, 'no balance moved');
  t.is(after.movements, before.movements, 'no movement recorded');
  t.is((await v2('POST', `/settlements/${settlementId}/bankConfirmation`, { lines })).status, 200, 'the same confirmation again is answered as applied');
});

test('a body that is no confirmation is refused before anything is read: no lines, an amount as a number, a CSV without its columns', async (t) => {
  const none = await v2('POST', '/settlements/1/bankConfirmation', {});
  t.is(none.status, 400);
  t.is(none.body.errorInformation.errorCode, '3102');
  const number = await v2('POST', '/settlements/1/bankConfirmation', { lines: [{ participant: 'x', currency: 'SCR', amount: 10, reference: 'r' }] });
  t.is(number.status, 400);
  t.regex(number.body.errorInformation.errorDescription, /amount must be a decimal string/);
  const columns = await uploadCsv(1, 'participant,amount\nx,1\n');
  t.is(columns.status, 400);
  t.regex(columns.body.errorInformation.errorDescription, /lacks currency, reference/);
  const unknown = await v2('POST', '/settlements/987654/bankConfirmation', { lines: [{ participant: 'x', currency: 'SCR', amount: '1', reference: 'r' }] });
  t.is(unknown.status, 400);
});

inTurn(
  'under four eyes the confirmation is checked before it is held: a wrong one is refused at once, the right one waits for a second person and settles on approval',
  async (t) => {
    const secret = 'bank-eyes-secret-0123456789';
    const tokens = ['alice', 'bob'].map((who) => `${who}:finance:${who}-${secret}`).join(',');
    const eyes = await startAdmin(hub.services, {
      access: loadConfig({ ADMIN_API_TOKENS: tokens, ADMIN_FOUR_EYES: 'settlements' }).adminAccess,
      temporal: { client: hub.worker.client, taskQueue: hub.worker.taskQueue },
    });
    const as = async (who: 'alice' | 'bob', method: string, path: string, body: unknown): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${eyes.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${who}-${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await answerBody(response) };
    };
    try {
      const [a, b] = [await dfsp('BIF'), await dfsp('BIF')];
      const settlementId = await settlementUpTo('BIF', [a, b], [[0, 1, '7']], 'PS_TRANSFERS_COMMITTED');
      const lines = [
        { participant: a.name, currency: 'BIF', amount: '7', reference: 'EYES-1' },
        { participant: b.name, currency: 'BIF', amount: '-7', reference: 'EYES-2' },
      ];
      const wrong = await as('alice', 'POST', `/v2/settlements/${settlementId}/bankConfirmation`, { lines: [lines[0]] });
      t.is(wrong.status, 400, 'a wrong file is not held for anyone to approve');
      t.deepEqual(problemsOf(wrong), [`missing: ${b.name} BIF: missing expected -7, sent no line`]);

      const held = await as('alice', 'POST', `/v2/settlements/${settlementId}/bankConfirmation`, { lines });
      t.is(held.status, 202);
      t.is(held.body.state, 'PENDING');
      t.is((await v2('GET', `/settlements/${settlementId}`)).body.state, 'PS_TRANSFERS_COMMITTED', 'held, nothing is settled');

      const approved = await as('bob', 'PUT', `/approvals/${held.body.approvalId}`, { decision: 'APPROVED' });
      t.is(approved.status, 200, JSON.stringify(approved.body));
      t.true(approved.body.outcome.performed, JSON.stringify(approved.body.outcome));
      t.is(approved.body.outcome.answer.body.state, 'SETTLED');
      t.is((await v2('GET', `/settlements/${settlementId}`)).body.state, 'SETTLED');
    } finally {
      await eyes.close();
    }
  },
);
