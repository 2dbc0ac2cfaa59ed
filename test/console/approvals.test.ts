import path from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../activities/shared/platform/config';
import type { Hub } from '../../activities/hub/hubServices';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { chromiumPath, launchChromium } from '../helpers/chromium';
import { uniqueName } from '../helpers/database';
import { openTestHub, startWorker, type WorkerHarness } from '../helpers/worker';
import { screenshotsDir } from '../helpers/screenshots';

// Four eyes in the console, in a real browser: alice (finance) records a deposit, which is held; she cannot approve it
// herself; bob (finance) signs in, finds it on the Approvals page, approves it with a reason, and the money moves.
// Serial: the steps share one browser.

const SECRET = 'console-eyes-secret-0123456789';
const tokenOf = (who: string) => `${who}-${SECRET}`;

let hub: Hub;
let worker: WorkerHarness;
let admin: AdminHarness;
let browser: Browser;
let page: Page;
let dfsp: string;
let settlementAccount: number;
const violations: string[] = [];

test.before(async () => {
  hub = await openTestHub('Hub');
  worker = await startWorker(hub);
  admin = await startAdmin(hub.services, {
    access: loadConfig({ ADMIN_API_TOKENS: `alice:finance:${tokenOf('alice')},bob:finance:${tokenOf('bob')}`, ADMIN_FOUR_EYES: 'funds' }).adminAccess,
    temporal: { client: worker.client, taskQueue: worker.taskQueue },
  });
  dfsp = uniqueName();
  const { accounts } = await hub.services.participants.create(dfsp, 'USD');
  settlementAccount = accounts.find((account) => account.ledgerAccountType === 'SETTLEMENT')!.id;
  browser = await launchChromium(chromiumPath(() => undefined));
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
  });
});

test.after.always(async () => {
  await browser?.close();
  await admin?.close();
  await worker?.close();
  await hub?.close();
});

const consoleAt = (hash: string) => `${admin.url}/console${hash}`;

async function signInAs(who: string): Promise<void> {
  await page.goto(consoleAt('#/approvals'));
  if ((await page.getByLabel('Admin API token').count()) === 0) await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Admin API token').fill(tokenOf(who));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Approvals' }).waitFor();
}

async function balance(): Promise<string> {
  const account = (await hub.services.participants.accounts(dfsp)).find((candidate) => candidate.id === settlementAccount)!;
  return String(Number(account.value));
}

test.serial("alice's deposit in the console is held for a second person, and nothing moves", async (t) => {
  await signInAs('alice');
  await page.goto(consoleAt(`#/participants/${dfsp}`));
  await page.getByRole('heading', { name: dfsp }).waitFor();
  const funds = page.locator('form[data-form="funds"]');
  await funds.getByLabel('Amount').fill('75');
  await funds.getByLabel('Currency').fill('USD');
  await funds.getByRole('button', { name: 'Record' }).click();
  await page.getByText(/^Held for a second person: approval /).waitFor();
  t.is(await balance(), '0');
});

test.serial('alice finds it waiting on the Approvals page, and her own approval is refused', async (t) => {
  await page.getByRole('link', { name: 'Approvals' }).click();
  const row = page.locator('table[data-list="waiting"] tr', { hasText: `/participants/${dfsp}/accounts/${settlementAccount}` });
  await row.waitFor();
  t.true((await row.textContent())!.includes('alice'), 'who asked');
  t.true((await row.textContent())!.includes('recordFundsIn'), 'what');
  await page.screenshot({ path: path.join(screenshotsDir(), 'approvals.png'), fullPage: true });
  await row.getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/^Refused: .*alice asked for this change and cannot approve it/).waitFor();
  t.is(await balance(), '0');
  t.is(await page.getByRole('heading', { name: 'Approvals' }).count(), 1, 'the refusal is shown on the page, not as a sign-in');
});

test.serial('bob approves it with a reason: the money moves once, and it is listed as decided', async (t) => {
  await signInAs('bob');
  const row = page.locator('table[data-list="waiting"] tr', { hasText: `/participants/${dfsp}/accounts/${settlementAccount}` });
  await row.getByLabel('Reason').fill('bank statement 12');
  await row.getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/: APPROVED, done \(202\)$/).waitFor();
  t.is(await balance(), '-75');
  const decided = page.locator('table[data-list="decided"] tr', { hasText: `/participants/${dfsp}/accounts/${settlementAccount}` });
  await decided.waitFor();
  const text = (await decided.textContent())!;
  t.true(text.includes('APPROVED') && text.includes('bob') && text.includes('bank statement 12'), text);
  t.is(await page.locator('table[data-list="waiting"] tr', { hasText: `/participants/${dfsp}/` }).count(), 0, 'no longer waiting');
  t.deepEqual(violations, []);
});
