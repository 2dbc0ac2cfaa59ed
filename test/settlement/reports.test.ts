import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { Decimal, formatAmount } from '../../activities/hub/db/money';
import { dfspSettlement, dfspSettlementDetailPages } from '../../activities/hub/settlement/reports/dfspSettlement';
import { dfspStatement, statementMovements } from '../../activities/hub/settlement/reports/dfspStatement';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel, type AdminCall } from '../helpers/settlementCycle';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// The reports finance teams ask for (Mojaloop's reporting service: settlementInitiation, dfspSettlement,
// dfspSettlementDetail, dfspSettlementStatement), checked against the payments the test makes: three DFSPs pay each
// other in a currency no other test pays in, the window closes, a settlement is created, and each report must add up
// to exactly those payments, in JSON and in CSV.

let hub: SwitchHarness;
let payments: FulfillingPayees;
const CURRENCY = 'MGA';

/** What the tests share: the DFSPs, their payments, the settlement of the window that held them. */
const cycle = {
  startedAt: new Date(),
  names: { a: '', b: '', c: '' },
  paid: [] as Array<{ transferId: string; payer: string; payee: string; amount: string }>,
  windowId: 0,
  settlementId: 0,
};

useSwitch(
  test,
  async (started) => {
    hub = started;
    payments = new FulfillingPayees(hub);
    const admin: AdminCall = (method, path, body) => hub.admin.call(method, path, body);
    const model = await deferredNetModel(admin, CURRENCY);
    await closingWindowsInTurn(hub.services.db, () => paymentsSettled(model));
  },
  { namespace: `reports-${crypto.randomUUID()}` },
);

const get = (path: string) => hub.admin.call('GET', path);
const csvOf = async (path: string, headers: Record<string, string> = {}) => {
  const answer = await fetch(`${hub.admin.url}${path}`, { headers });
  return { type: answer.headers.get('content-type'), rows: (await answer.text()).trim().split('\r\n') };
};

/** a pays 100.25 and receives 10.0001 (net 90.2499 to pay); b is owed 34.5, c 55.7499. */
async function paymentsSettled(model: string): Promise<void> {
  const dfsp = async () => payments.fulfils(await hub.provision({ currency: CURRENCY, netDebitCap: 1_000, fundsIn: 10_000 }));
  const [a, b, c] = [await dfsp(), await dfsp(), await dfsp()];
  cycle.names = { a: a.name, b: b.name, c: c.name };
  const pay = async (payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string) => {
    const { transferId, state } = await payments.pay(payer, payee, amount, CURRENCY);
    if (state !== 'COMMITTED') throw new Error(`${payer.name} → ${payee.name} ${amount}: ${state}`);
    cycle.paid.push({ transferId, payer: payer.name, payee: payee.name, amount });
  };
  await pay(a, b, '60');
  await pay(b, c, '25.5');
  await pay(a, c, '40.25');
  await pay(c, a, '10.0001');
  const [open] = (await get('/v2/settlementWindows?state=OPEN')).body;
  cycle.windowId = open.settlementWindowId;
  await hub.admin.call('POST', `/v2/settlementWindows/${cycle.windowId}`, { state: 'CLOSED', reason: 'reports' });
  const created = await hub.admin.call('POST', '/v2/settlements', { settlementModel: model, reason: 'reports', settlementWindows: [{ id: cycle.windowId }] });
  if (created.status !== 200) throw new Error(`POST /v2/settlements: ${JSON.stringify(created.body)}`);
  cycle.settlementId = created.body.id;
}

test('settlement initiation: each participant, by name, pays or receives its net amount, and the totals balance to zero', async (t) => {
  const { status, body } = await get(`/reports/settlementInitiation?settlementId=${cycle.settlementId}`);
  t.is(status, 200, JSON.stringify(body));
  t.deepEqual(
    body.settlementWindows.map((window: any) => window.id),
    [cycle.windowId],
  );
  const line = (name: string) => body.lines.find((entry: any) => entry.participant === name);
  t.like(line(cycle.names.a), { currency: CURRENCY, netSettlementAmount: '90.2499', toPay: '90.2499', toReceive: '0', transferCount: 3 });
  t.like(line(cycle.names.b), { netSettlementAmount: '-34.5', toPay: '0', toReceive: '34.5', transferCount: 2 });
  t.like(line(cycle.names.c), { netSettlementAmount: '-55.7499', toPay: '0', toReceive: '55.7499', transferCount: 3 });
  t.deepEqual(body.totals, [{ currency: CURRENCY, toPay: '90.2499', toReceive: '90.2499', net: '0' }]);

  const csv = await csvOf(`/reports/settlementInitiation?settlementId=${cycle.settlementId}&format=csv`);
  t.is(csv.type, 'text/csv; charset=utf-8');
  t.is(csv.rows[0], 'participant,participantId,accountId,currency,netSettlementAmount,toPay,toReceive,transferCount,state');
  t.true(csv.rows.some((row) => row.startsWith(`${cycle.names.c},`) && row.endsWith(`,${CURRENCY},-55.7499,0,55.7499,3,PENDING_SETTLEMENT`)));
  t.is(csv.rows.at(-1), `TOTAL,,,${CURRENCY},0,90.2499,90.2499,,`);
});

test("DFSP settlement: a participant's sent and received totals in the settlement's window", async (t) => {
  const { status, body } = await get(`/reports/dfspSettlement?settlementId=${cycle.settlementId}&dfspId=${cycle.names.a}`);
  t.is(status, 200, JSON.stringify(body));
  t.is(body.participant.name, cycle.names.a);
  const flow = { currency: CURRENCY, sentAmount: '100.25', sentCount: 2, receivedAmount: '10.0001', receivedCount: 1, netAmount: '90.2499' };
  t.deepEqual(body.windows, [{ settlementWindowId: cycle.windowId, ...flow }]);
  t.deepEqual(body.totals, [flow]);

  const csv = await csvOf(`/reports/dfspSettlement?settlementId=${cycle.settlementId}&dfspId=${cycle.names.b}`, { accept: 'text/csv' });
  t.deepEqual(csv.rows, [
    'participant,settlementWindowId,currency,sentAmount,sentCount,receivedAmount,receivedCount,netAmount',
    `${cycle.names.b},${cycle.windowId},${CURRENCY},25.5,1,60,1,-34.5`,
    `${cycle.names.b},TOTAL,${CURRENCY},25.5,1,60,1,-34.5`,
  ]);
});

test('DFSP settlement detail: every payment of the participant in the settlement and no other, page by page and as CSV', async (t) => {
  const name = cycle.names.a;
  const own = cycle.paid.filter((payment) => payment.payer === name || payment.payee === name);
  const path = `/reports/dfspSettlementDetail?settlementId=${cycle.settlementId}&dfspId=${name}`;
  const first = await get(`${path}&limit=2`);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(first.body.transfers.length, 2);
  t.truthy(first.body.next, 'a full page says where the next starts');
  const second = await get(`${path}&limit=2&after=${first.body.next}`);
  t.is(second.body.next, undefined, 'the last page says none follows');
  const listed = [...first.body.transfers, ...second.body.transfers];
  const expected = own.map((payment) => ({
    transferId: payment.transferId,
    settlementWindowId: cycle.windowId,
    currency: CURRENCY,
    payer: payment.payer,
    payee: payment.payee,
    direction: payment.payer === name ? 'SENT' : 'RECEIVED',
    amount: payment.amount,
  }));
  const byId = (x: { transferId: string }, y: { transferId: string }) => x.transferId.localeCompare(y.transferId);
  t.deepEqual(
    listed.map(({ completedDate: _date, ...rest }) => rest),
    expected.sort(byId),
  );

  const csv = await csvOf(`${path}&format=csv`);
  t.is(csv.rows[0], 'transferId,settlementWindowId,completedDate,currency,payer,payee,direction,amount');
  t.deepEqual(
    csv.rows.slice(1).map((row) => row.split(',')[0]),
    expected.map((payment) => payment.transferId),
  );
  t.false(
    csv.rows.some((row) => row.includes(`${cycle.names.b},${cycle.names.c}`)),
    "b's payment to c is not a's",
  );
});

/** The participant's accounts as the admin API reports them, by type. */
async function balances(name: string): Promise<Record<string, number>> {
  const accounts = (await get(`/participants/${name}/accounts`)).body.filter((account: any) => account.currency === CURRENCY);
  return Object.fromEntries(accounts.map((account: any) => [account.ledgerAccountType, account.value]));
}

/** An account's opening balance plus its listed movements is its closing balance, exactly. */
function sums(t: ExecutionContext, account: any, movements: any[]): void {
  const own = movements.filter((movement) => movement.accountId === account.accountId);
  const total = own.reduce((sum, movement) => sum.plus(movement.amount), new Decimal(account.openingBalance));
  t.is(formatAmount(total), account.closingBalance, `${account.ledgerAccountType}: opening + movements = closing`);
}

test("DFSP statement: the participant's position and settlement accounts over a period, opening + movements = closing = the balance the admin API reports", async (t) => {
  const name = cycle.names.a;
  const end = new Date(Date.now() + 3_600_000).toISOString();
  const { status, body } = await get(
    `/reports/dfspSettlementStatement?dfspId=${name}&startDate=${cycle.startedAt.toISOString()}&endDate=${end}&currency=${CURRENCY}`,
  );
  t.is(status, 200, JSON.stringify(body));
  const now = await balances(name);
  const position = body.accounts.find((account: any) => account.ledgerAccountType === 'POSITION');
  const settlement = body.accounts.find((account: any) => account.ledgerAccountType === 'SETTLEMENT');
  t.like(position, { openingBalance: '0', closingBalance: '90.2499', movements: '90.2499' });
  t.is(Number(position.closingBalance), now.POSITION);
  t.is(settlement.openingBalance, '0', 'the account was opened in the period');
  t.is(Number(settlement.closingBalance), now.SETTLEMENT);
  for (const account of body.accounts) sums(t, account, body.movements);
  t.deepEqual(
    body.movements.filter((movement: any) => movement.kind === 'TRANSFER' && movement.accountId === position.accountId).map((movement: any) => movement.amount),
    ['60', '40.25', '-10.0001'],
    'each payment moves the payer position up, the payee position down',
  );

  const statementPath = `/reports/dfspSettlementStatement?dfspId=${name}&startDate=${cycle.startedAt.toISOString()}&endDate=${end}&currency=${CURRENCY}`;
  const rest = await get(`${statementPath}&after=${body.movements[0].entryId}`);
  t.deepEqual(rest.body.movements, body.movements.slice(1), 'from a cursor on, the movements after it');

  const later = await get(`/reports/dfspSettlementStatement?dfspId=${name}&startDate=${new Date().toISOString()}&endDate=${end}`);
  const quiet = later.body.accounts.find((account: any) => account.ledgerAccountType === 'POSITION' && account.currency === CURRENCY);
  t.like(quiet, { openingBalance: '90.2499', movements: '0', closingBalance: '90.2499' }, 'a period without movements opens where the last closed');

  const csv = await csvOf(
    `/reports/dfspSettlementStatement?dfspId=${name}&startDate=${cycle.startedAt.toISOString()}&endDate=${end}&currency=${CURRENCY}&format=csv`,
  );
  t.is(csv.rows[0], 'accountId,ledgerAccountType,currency,createdDate,transferId,kind,phase,amount,balance');
  const positionRows = csv.rows.filter((row) => row.startsWith(`${position.accountId},`));
  t.true(positionRows[0].endsWith(',OPENING BALANCE,,,0'));
  t.true(positionRows.at(-1)!.endsWith(',CLOSING BALANCE,,,90.2499'));
  t.true(positionRows.at(-2)!.endsWith(',90.2499'), 'the last movement leaves the closing balance');
});

/** Everything an async generator of pages yields, flattened. */
async function allOf<T, P>(pages: AsyncGenerator<P>, items: (page: P) => T[]): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...items(page));
  return all;
}

test('read a payment or a journal entry at a time, the reports add up the same as in their whole pages', async (t) => {
  const { db } = hub.services;
  const name = cycle.names.c;
  const whole = (await get(`/reports/dfspSettlement?settlementId=${cycle.settlementId}&dfspId=${name}`)).body;
  t.deepEqual(await dfspSettlement(db, cycle.settlementId, name, 1), whole);
  const listed = (await get(`/reports/dfspSettlementDetail?settlementId=${cycle.settlementId}&dfspId=${name}`)).body.transfers;
  t.deepEqual(await allOf(await dfspSettlementDetailPages(db, cycle.settlementId, name, 1), (page) => page), listed);

  const period = { dfspId: name, startDate: cycle.startedAt, endDate: new Date(Date.now() + 3_600_000), currency: CURRENCY };
  const query = `dfspId=${name}&startDate=${period.startDate.toISOString()}&endDate=${period.endDate.toISOString()}&currency=${CURRENCY}`;
  const statement = (await get(`/reports/dfspSettlementStatement?${query}`)).body;
  const { statement: paged, scope } = await dfspStatement(db, period, 1);
  t.deepEqual(paged.accounts, statement.accounts);
  const ids = paged.accounts.map((account) => account.accountId);
  t.deepEqual(await allOf(statementMovements(db, scope, ids), (page) => page.movements), statement.movements);
  t.true(statement.movements.length > 2, 'more movements than one page of one');
});

test('reports refuse what they cannot answer: an unknown settlement or participant, a bad or unbounded period', async (t) => {
  const refusal = async (path: string, status: number, errorCode: string) => {
    const answer = await get(path);
    t.is(answer.status, status, path);
    t.is(answer.body.errorInformation?.errorCode, errorCode, path);
  };
  await refusal('/reports/settlementInitiation?settlementId=999999999', 400, '3100');
  await refusal('/reports/settlementInitiation', 400, '3102');
  await refusal('/reports/settlementInitiation?settlementId=abc', 400, '3101');
  await refusal(`/reports/dfspSettlement?settlementId=${cycle.settlementId}&dfspId=nobody`, 400, '3100');
  await refusal(`/reports/dfspSettlementDetail?settlementId=${cycle.settlementId}&dfspId=nobody&format=csv`, 400, '3100');
  await refusal(`/reports/dfspSettlementDetail?settlementId=${cycle.settlementId}&dfspId=${cycle.names.a}&limit=1000000`, 400, '3101');
  await refusal('/reports/dfspSettlementStatement?dfspId=nobody&startDate=2026-01-01T00:00:00Z&endDate=2026-02-01T00:00:00Z', 400, '3100');
  await refusal(`/reports/dfspSettlementStatement?dfspId=${cycle.names.a}&startDate=2026-01-01T00:00:00Z&endDate=2026-02-01T00:00:00Z&after=x`, 400, '3101');
  await refusal(`/reports/dfspSettlementStatement?dfspId=${cycle.names.a}&startDate=yesterday&endDate=2026-02-01T00:00:00Z`, 400, '3101');
  await refusal(`/reports/dfspSettlementStatement?dfspId=${cycle.names.a}&startDate=2024-01-01T00:00:00Z&endDate=2026-01-01T00:00:00Z`, 400, '3101');
  await refusal(`/reports/dfspSettlementStatement?dfspId=${cycle.names.a}&startDate=2026-02-01T00:00:00Z&endDate=2026-01-01T00:00:00Z`, 400, '3101');
});
