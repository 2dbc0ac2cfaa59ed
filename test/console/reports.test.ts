import crypto from 'node:crypto';
import fs from 'node:fs';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel } from '../helpers/settlementCycle';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// The console's Reports page and the participants' names on its settlement page, in a real browser (Debian's
// Chromium, driven by playwright-core): two DFSPs pay each other in a currency no other test pays in (MVR), the
// window closes and is settled, and the operator reads the reports of that settlement. Serial: one browser page.

const CURRENCY = 'MVR';

let hub: SwitchHarness;
let browser: Browser;
let page: Page;
let a: SimulatedDfsp;
let b: SimulatedDfsp;
let settlementId: number;
const paid: string[] = [];

useSwitch(
  test,
  async (started) => {
    hub = started;
    const payments = new FulfillingPayees(hub);
    const model = await deferredNetModel((method, urlPath, body) => hub.admin.call(method, urlPath, body), CURRENCY);
    a = payments.fulfils(await hub.provision({ currency: CURRENCY, netDebitCap: 1_000, fundsIn: 5_000 }));
    b = payments.fulfils(await hub.provision({ currency: CURRENCY, netDebitCap: 1_000, fundsIn: 5_000 }));
    // The payments and the close in turn with other tests that close windows: on a database every test file shares
    // (MariaDB), another file's close would otherwise take this file's payments into its window.
    settlementId = await closingWindowsInTurn(hub.services.db, async () => {
      paid.push((await payments.pay(a, b, '12.5', CURRENCY)).transferId);
      paid.push((await payments.pay(b, a, '0.25', CURRENCY)).transferId);
      const [open] = (await hub.admin.call('GET', '/v2/settlementWindows?state=OPEN')).body;
      await hub.admin.call('POST', `/v2/settlementWindows/${open.settlementWindowId}`, { state: 'CLOSED', reason: 'console reports' });
      const settlement = { settlementModel: model, reason: 'console reports', settlementWindows: [{ id: open.settlementWindowId }] };
      const created = await hub.admin.call('POST', '/v2/settlements', settlement);
      if (created.status !== 200) throw new Error(`POST /v2/settlements: ${JSON.stringify(created.body)}`);
      return created.body.id as number;
    });
    browser = await launchChromium(process.env.CHROMIUM_PATH);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  },
  { namespace: `console-reports-${crypto.randomUUID()}` },
);
test.after.always(async () => {
  await browser?.close();
});

// No credential configured: on loopback the admin API is open, and the console opens without a sign-in.
const consoleAt = (hash = '') => `${hub.admin.url}/console${hash}`;

test.serial("the settlement page names each participant of a settlement, its ID in the cell's tooltip", async (t) => {
  await page.goto(consoleAt('#/settlement'));
  const card = page.locator(`article[data-settlement="${settlementId}"]`);
  const cell = card.locator('td.participant', { hasText: a.name });
  await cell.waitFor();
  const settlement = (await hub.admin.call('GET', `/v2/settlements/${settlementId}`)).body;
  const accounts = (await hub.admin.call('GET', `/participants/${a.name}/accounts`)).body;
  const position = accounts.find((account: any) => account.ledgerAccountType === 'POSITION' && account.currency === CURRENCY).id;
  const participant = settlement.participants.find((entry: any) => entry.accounts.some((account: any) => account.id === position));
  t.is(await cell.getAttribute('title'), `participant ID ${participant.id}`);
  t.is(await card.locator('td.participant', { hasText: b.name }).count(), 1);
});

test.serial('from the nav, the Reports page shows a settlement initiation by name with totals that balance, and downloads it as CSV', async (t) => {
  await page.goto(consoleAt('#/home'));
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('heading', { name: 'Reports' }).waitFor();
  const form = page.locator('form[data-form="report"]');
  await form.locator(`select[name="settlementId"] option[value="${settlementId}"]`).waitFor({ state: 'attached' });
  await form.locator('select[name="report"]').selectOption('settlementInitiation');
  await form.locator('select[name="settlementId"]').selectOption(String(settlementId));
  await form.getByRole('button', { name: 'Show' }).click();
  const lines = page.locator('table[data-table="lines"]');
  await lines.waitFor();
  const cells = await lines.locator('tr', { hasText: a.name }).locator('td').allTextContents();
  t.deepEqual([cells[0], ...cells.slice(2)], [a.name, CURRENCY, '12.25', '0', '2', 'PENDING_SETTLEMENT'], 'a pays 12.25 net, by name');
  t.deepEqual(await page.locator('table[data-table="totals"] tbody td').allTextContents(), [CURRENCY, '12.25', '12.25', '0']);

  const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download CSV' }).click()]);
  t.is(download.suggestedFilename(), 'settlementInitiation.csv');
  const rows = fs
    .readFileSync((await download.path())!, 'utf-8')
    .trim()
    .split('\r\n');
  t.is(rows[0], 'participant,participantId,accountId,currency,netSettlementAmount,toPay,toReceive,transferCount,state');
  t.true(rows.some((row) => row.startsWith(`${b.name},`) && row.includes(`,${CURRENCY},-12.25,0,12.25,2,`)));
});

test.serial("the Reports page lists a participant's transfers in the settlement, picked by name", async (t) => {
  const form = page.locator('form[data-form="report"]');
  await form.locator('select[name="report"]').selectOption('dfspSettlementDetail');
  await form.locator('select[name="dfspId"]').selectOption(b.name);
  await form.getByRole('button', { name: 'Show' }).click();
  const transfers = page.locator('table[data-table="transfers"] tbody tr');
  await transfers.first().waitFor();
  t.deepEqual((await transfers.locator('td:first-child').allTextContents()).sort(), [...paid].sort());
  t.is(await transfers.filter({ hasText: paid[0] }).locator('td').nth(3).textContent(), a.name, 'the payer by name');
});

test.serial("the Reports page shows a participant's statement for today: its position opens at zero and closes at what it owes", async (t) => {
  const form = page.locator('form[data-form="report"]');
  await form.locator('select[name="report"]').selectOption('dfspSettlementStatement');
  await form.locator('select[name="dfspId"]').selectOption(a.name);
  await form.locator('input[name="currency"]').fill(CURRENCY);
  await form.getByRole('button', { name: 'Show' }).click();
  const position = page.locator('table[data-table="accounts"] tbody tr', { hasText: 'POSITION' });
  await position.waitFor();
  const cells = await position.locator('td').allTextContents();
  t.deepEqual(cells.slice(1), ['POSITION', CURRENCY, '0', '12.25', '12.25']);
  t.deepEqual(
    await page.locator('table[data-table="movements"] tbody tr', { hasText: 'POSITION' }).locator('td:nth-child(6)').allTextContents(),
    ['12.5', '-0.25'],
    "each payment's movement of the position",
  );
});
