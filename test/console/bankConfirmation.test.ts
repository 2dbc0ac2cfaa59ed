import crypto from 'node:crypto';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../activities/shared/platform/config';
import { chromiumPath, launchChromium } from '../helpers/chromium';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel } from '../helpers/settlementCycle';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

// Finalisation against the bank in the console, in a real browser: the operator uploads the settlement bank's file on
// the settlement page; a wrong one is refused with its problems listed and nothing moves, the right one settles it.
// Serial: the steps share one browser and one settlement.

const TOKEN = crypto.randomBytes(24).toString('base64url');
/** A currency no other test settles, so this file's settlement holds only its own participants on a shared database. */
const CURRENCY = 'MGA';

let hub: SwitchHarness;
let guarded: AdminHarness;
let browser: Browser;
let page: Page;
let payer: SimulatedDfsp;
let payee: SimulatedDfsp;
let settlementId: number;
let model: string;
let payments: FulfillingPayees;
const violations: string[] = [];

useSwitch(
  test,
  async (started) => {
    hub = started;
    guarded = await startAdmin(hub.services, {
      access: { tokens: [{ role: 'admin', secret: TOKEN }] },
      temporal: { client: hub.worker.client, taskQueue: hub.worker.taskQueue },
    });
    model = await deferredNetModel(admin, CURRENCY);
    payments = new FulfillingPayees(hub);
    payer = payments.fulfils(await hub.provision({ currency: CURRENCY, netDebitCap: 1_000, fundsIn: 5_000 }));
    payee = payments.fulfils(await hub.provision({ currency: CURRENCY }));
    settlementId = await committedSettlement();
    browser = await launchChromium(chromiumPath(() => undefined));
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
    });
  },
  { namespace: `console-bank-${crypto.randomUUID()}` },
);
test.after.always(async () => {
  await browser?.close();
  await guarded?.close();
});

const admin = (method: string, path: string, body?: unknown) => hub.admin.call(method, path, body);

/** A payment from the payer to the payee, its window closed and settled up to PS_TRANSFERS_COMMITTED: the settlement's ID. */
function committedSettlement(): Promise<number> {
  return closingWindowsInTurn(hub.services.db, async () => {
    await payments.pay(payer, payee, '42.25', CURRENCY);
    const [open] = (await admin('GET', '/v2/settlementWindows?state=OPEN')).body;
    await admin('POST', `/v2/settlementWindows/${open.settlementWindowId}`, { state: 'CLOSED', reason: 'end of day' });
    const created = await admin('POST', '/v2/settlements', { settlementModel: model, reason: 'daily', settlementWindows: [{ id: open.settlementWindowId }] });
    for (const state of ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED']) {
      const participants = created.body.participants.map((participant: any) => ({
        id: participant.id,
        accounts: participant.accounts.map((account: any) => ({ id: account.id, state, reason: state })),
      }));
      await admin('PUT', `/v2/settlements/${created.body.id}`, { participants });
    }
    return created.body.id;
  });
}

const card = (id = settlementId) => page.locator(`article[data-settlement="${id}"]`);
const confirmation = (name: string, text: string) => ({ name, mimeType: name.endsWith('.csv') ? 'text/csv' : 'application/json', buffer: Buffer.from(text) });

async function choose(name: string, text: string, id = settlementId): Promise<void> {
  const form = card(id).locator('form[data-form="bankConfirmation"]');
  await form.getByLabel('Bank confirmation (CSV or JSON)').setInputFiles(confirmation(name, text));
  await form.getByRole('button', { name: 'Upload and settle' }).click();
}

test.serial('a wrong bank file is refused in the console with each problem listed, and the settlement stays where it was', async (t) => {
  await page.goto(`${guarded.url}/console#/settlement`);
  await page.getByLabel('Admin API token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await card().getByText('PS_TRANSFERS_COMMITTED').first().waitFor();

  await choose('bank.csv', `participant,currency,amount,reference\n${payer.name},${CURRENCY},42.20,BANK-1\n${payer.name},${CURRENCY},42.25,BANK-2\n`);
  const problems = card().getByRole('list', { name: 'Problems with the bank confirmation' }).getByRole('listitem');
  await problems.first().waitFor();
  t.deepEqual(
    (await problems.allTextContents()).sort(),
    [
      `${payee.name} ${CURRENCY}: missing expected -42.25, sent no line`,
      `${payer.name} ${CURRENCY}: amount expected 42.25, sent 42.20`,
      `${payer.name} ${CURRENCY}: duplicate expected one line, sent another line`,
    ].sort(),
  );
  t.is((await hub.admin.call('GET', `/v2/settlements/${settlementId}`)).body.state, 'PS_TRANSFERS_COMMITTED', 'nothing moved');
});

test.serial('the right file settles the settlement: the page shows it SETTLED', async (t) => {
  const lines = [
    { participant: payer.name, currency: CURRENCY, amount: '42.25', reference: 'BANK-1' },
    { participant: payee.name, currency: CURRENCY, amount: '-42.25', reference: 'BANK-2' },
  ];
  await choose('bank.json', JSON.stringify({ lines }));
  await page.getByText(`Settlement ${settlementId} → SETTLED`).waitFor();
  await card().locator('.state[data-state="SETTLED"]').waitFor();
  t.is(await card().locator('form[data-form="bankConfirmation"]').count(), 0, 'a settled settlement takes no other confirmation');
  const settled = (await hub.admin.call('GET', `/v2/settlements/${settlementId}`)).body;
  t.is(settled.state, 'SETTLED');
  t.deepEqual(
    settled.participants.flatMap((participant: any) => participant.accounts.map((account: any) => account.state)),
    ['SETTLED', 'SETTLED'],
  );
  t.deepEqual(violations, [], 'nothing the page does is refused by its Content-Security-Policy');
});

test.serial('under four eyes the uploaded confirmation is shown awaiting approval, and nothing is settled yet', async (t) => {
  const alice = `alice-${TOKEN}`;
  const eyes = await startAdmin(hub.services, {
    access: loadConfig({ ADMIN_API_TOKENS: `alice:finance:${alice}`, ADMIN_FOUR_EYES: 'settlements' }).adminAccess,
    temporal: { client: hub.worker.client, taskQueue: hub.worker.taskQueue },
  });
  try {
    const held = await committedSettlement();
    await page.goto(`${eyes.url}/console#/settlement`);
    await page.getByLabel('Admin API token').fill(alice);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await card(held).getByText('PS_TRANSFERS_COMMITTED').first().waitFor();
    const lines = [
      { participant: payer.name, currency: CURRENCY, amount: '42.25', reference: 'BANK-3' },
      { participant: payee.name, currency: CURRENCY, amount: '-42.25', reference: 'BANK-4' },
    ];
    await choose('bank.json', JSON.stringify({ lines }), held);
    await page.getByText(new RegExp(`^Bank confirmation of settlement ${held} awaiting approval `)).waitFor();
    t.is((await admin('GET', `/v2/settlements/${held}`)).body.state, 'PS_TRANSFERS_COMMITTED', 'held for a second person: nothing settled');
  } finally {
    await eyes.close();
  }
});
