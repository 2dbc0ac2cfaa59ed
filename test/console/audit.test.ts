import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { loadConfig } from '../../activities/shared/platform/config';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { screenshotsDir } from '../helpers/screenshots';

// The console's Audit page in a real browser (Debian's Chromium, driven by playwright-core), as an auditor uses it: a
// change made on the console is found there with who made it and what it changed, a refused sign-in too, the chain
// verifies, and the search downloads as CSV. Serial: the steps share one browser page.

const TOKEN = crypto.randomBytes(24).toString('base64url');
/** This browser's own, which its entries show: on a database other test files share (MariaDB), theirs are there too. */
const USER_AGENT = `Mozilla/5.0 (console audit test ${crypto.randomUUID()})`;
/** UPDATE_SCREENSHOTS=1 writes the picture docs/console.md shows; otherwise it is taken (the page renders) and thrown away. */
const SCREENSHOTS = screenshotsDir();

let admin: AdminHarness;
let browser: Browser;
let page: Page;
let name: string;
const violations: string[] = [];

test.before(async () => {
  admin = await startAdmin(undefined, { access: loadConfig({ ADMIN_API_TOKENS: `olivia:admin:${TOKEN}` }).adminAccess });
  name = uniqueName();
  await admin.services.participants.create(name, 'USD');
  browser = await launchChromium(process.env.CHROMIUM_PATH);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true, userAgent: USER_AGENT });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
  });
});

test.after.always(async () => {
  await browser?.close();
  await admin?.close();
});

const consoleAt = (hash = '') => `${admin.url}/console${hash}`;

test.serial('a change made on the console is on the Audit page: who made it, with what credential, the state before and after', async (t) => {
  await page.goto(consoleAt('#/participants'));
  await page.getByLabel('Admin API token').fill('a-token-this-hub-never-gave');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That token was refused.').waitFor();
  await page.getByLabel('Admin API token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const row = page.locator(`tr[data-participant="${name}"]`);
  await row.getByRole('button', { name: 'inactive — activate' }).click();
  await row.getByRole('button', { name: 'active — deactivate' }).waitFor();

  await page.goto(consoleAt('#/audit'));
  await page.getByRole('heading', { name: 'Audit' }).waitFor();
  await page.getByLabel('Actor').fill('olivia');
  await page.getByLabel('Action').fill('participant.activation');
  await page.getByRole('button', { name: 'Search' }).click();
  const entry = page.locator('table.audit tbody tr', { hasText: `/participants/${name}` });
  await entry.waitFor();
  t.deepEqual((await entry.locator('td').allTextContents()).slice(1, 6), [
    'olivia (admin), token',
    'participant.activation',
    `/participants/${name}`,
    '200',
    '127.0.0.1',
  ]);
  await entry.getByText('before → after').click();
  const [before, after] = await entry.locator('details pre').allTextContents();
  t.deepEqual([JSON.parse(before), JSON.parse(after)], [{ isActive: false }, { isActive: true }]);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'audit.png'), fullPage: true });
});

test.serial('the refused sign-in is there too, with no one named: the token it tried is not', async (t) => {
  await page.getByLabel('Actor').fill('');
  await page.getByLabel('Action').fill('GET /console/settings');
  await page.getByRole('button', { name: 'Search' }).click();
  const refused = page.locator('table.audit tbody tr', { hasText: USER_AGENT }).filter({ hasText: '403 3000' });
  await refused.waitFor();
  t.is(await refused.locator('td').nth(1).textContent(), 'no accepted credential');
  t.false((await page.locator('main').textContent())!.includes('a-token-this-hub-never-gave'));
});

test.serial('Verify chain finds the trail intact, and Export CSV downloads the search', async (t) => {
  await page.getByRole('button', { name: 'Verify chain' }).click();
  const verdict = await page.getByText(/^Chain (intact|broken)/).textContent();
  t.regex(verdict!, /^Chain intact: \d+ entries verified\.$/);
  await page.getByLabel('Action').fill('participant.activation');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('table.audit tbody tr', { hasText: `/participants/${name}` }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  t.is(download.suggestedFilename(), 'audit.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf-8');
  const lines = csv.trim().split('\r\n');
  t.true(lines[0].startsWith('sequence,at,actor'));
  t.true(
    lines.slice(1).every((line) => line.includes('participant.activation')),
    'only what the search finds',
  );
  t.true(lines.some((line) => line.includes(`/participants/${name}`)));
  t.deepEqual(violations, []);
});
