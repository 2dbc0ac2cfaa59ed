import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { Participant, ParticipantAccount } from '../../activities/hub/db/entities';
import { openHubServices } from '../../activities/hub/hubServices';
import { launchChromium } from '../helpers/chromium';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';

// The console's alarms page in a real browser (Debian's Chromium, driven by playwright-core) when the ledger check
// finds a balance changed behind the ledger: the page names the account until a check finds the ledger whole. On a
// database of its own (SQLite): the check reads the whole ledger, and no other file may see the damage.

let admin: AdminHarness;
let browser: Browser;
let page: Page;

test.before(async () => {
  const databaseUrl = `sqlite:${path.join(os.tmpdir(), `hub-ledger-alarm-${crypto.randomUUID()}.sqlite`)}`;
  admin = await startAdmin(await openHubServices({ databaseUrl, hubParticipantName: HUB_NAME, newParticipantsActive: true }));
  browser = await launchChromium(process.env.CHROMIUM_PATH);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});

test.after.always(async () => {
  await browser?.close();
  await admin?.close();
  await admin?.services.db.close();
});

const check = async () => {
  const { status, body } = await admin.call('POST', '/ledger/checks', {});
  if (status !== 200) throw new Error(`POST /ledger/checks answered ${status}`);
  return body as { holds: boolean };
};

test.serial("a balance changed behind the ledger is on the alarms page, naming the participant's account, until the ledger is whole again", async (t) => {
  const name = uniqueName();
  await admin.services.participants.create(name, 'USD');
  const accountId = await admin.services.db.read(async (manager) => {
    const { participantId } = await manager.findOneByOrFail(Participant, { name });
    return (await manager.findOneByOrFail(ParticipantAccount, { participantId, ledgerAccountType: 'SETTLEMENT' })).id;
  });
  t.true((await check()).holds);
  await admin.services.db.transaction((manager) => manager.query('UPDATE participant_account SET value = ? WHERE id = ?', ['-1000', accountId]));
  t.false((await check()).holds);

  await page.goto(`${admin.url}/console#/alarms`);
  const alarm = page.locator('ul[data-alarms="ledger"] li', { hasText: 'settlementAccountsMatchFunds' });
  await alarm.waitFor();
  t.is(
    (await alarm.textContent())!.trim(),
    `settlementAccountsMatchFunds: ${name} SETTLEMENT USD (account ${accountId}) value is -1000.0000, should be 0.0000`,
  );
  t.is(await alarm.getByRole('link', { name }).getAttribute('href'), `#/participants/${name}`);

  await admin.services.db.transaction((manager) => manager.query('UPDATE participant_account SET value = ? WHERE id = ?', ['0', accountId]));
  t.true((await check()).holds);
  await page.reload();
  await page.locator('ul[data-alarms="ledger"] li', { hasText: 'None.' }).waitFor();
  t.is(await page.locator('ul[data-alarms="ledger"]').textContent(), 'None.', 'the alarm is gone once a check finds the ledger whole');
});
