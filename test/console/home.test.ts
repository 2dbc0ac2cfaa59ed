import crypto from 'node:crypto';
import path from 'node:path';
import test from 'ava';
import { In } from 'typeorm';
import type { Browser, Page } from 'playwright-core';
import { ilpFor, transactionObjectOf } from '../../activities/dfsp/fspiop/ilp';
import { TransferRecord } from '../../activities/hub/db/entities';
import type { SchemeGlance } from '../../activities/shared/contracts/glance';
import { nearestRank } from '../../activities/hub/metrics/glanceSeries';
import { launchChromium } from '../helpers/chromium';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { QuotedPayments } from '../helpers/quotedPayments';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';
import { screenshotsDir } from '../helpers/screenshots';
import { expirationAt } from '../../activities/shared/contracts/expiry';

// The console's home page in a real browser (Debian's Chromium, driven by playwright-core) over a switch that carries
// real payments: committed, refused past the payer's Net Debit Cap, and rejected by the payee. BTN is paid by no other
// test, so on a database every test file shares (MariaDB) the page narrowed to BTN shows this file's payments, and
// those of an earlier run of it in the last hour (counted before it pays). Serial: the steps share one browser and one hub.

const CURRENCY = 'BTN';
/** UPDATE_SCREENSHOTS=1 writes the picture docs/console.md shows; otherwise it is taken (the page renders) and thrown away. */
const SCREENSHOTS = screenshotsDir();

let hub: SwitchHarness;
let admin: AdminHarness;
let browser: Browser;
let page: Page;
let payments: QuotedPayments;
let payer: SimulatedDfsp;
let payee: SimulatedDfsp;
let rejecting: SimulatedDfsp;
const decided: string[] = [];
/** What the page counted before this run paid: on a database kept from an earlier run, that run's payments. */
let before: SchemeGlance['payments'];
/** What Chromium refused the page under the admin API's Content-Security-Policy. */
const violations: string[] = [];

/** `dfsp` quotes what it is asked, then rejects each transfer of its quotes (5104). */
function rejects(dfsp: SimulatedDfsp): SimulatedDfsp {
  dfsp.react(async (request) => {
    if (request.method === 'POST' && request.path === '/quotes') {
      const answer = { transferAmount: request.body.amount, expiration: expirationAt(Date.now() + 60_000) };
      const { ilpPacket, condition } = ilpFor(transactionObjectOf(request.body, answer), 'rejecting payee');
      const destination = request.body.payer.partyIdInfo.fspId;
      await hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, { source: dfsp.name, destination, body: { ...answer, ilpPacket, condition } });
    }
    if (request.method === 'POST' && request.path === '/transfers') {
      const body = { errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected transaction' } };
      await hub.fspiop('PUT', `/transfers/${request.body.transferId}/error`, { source: dfsp.name, destination: request.body.payerFsp, body });
    }
  });
  return dfsp;
}

/** `payer` pays `amount` to `to`, and the switch tells it `state` or, in an error callback, `errorCode`. */
async function pay(to: SimulatedDfsp, amount: string, state: string | undefined, errorCode?: string): Promise<void> {
  const paid = await payments.pay(payer, to, amount, undefined, CURRENCY);
  if (paid.state !== state || paid.errorCode !== errorCode) throw new Error(`paying ${amount} ended ${JSON.stringify(paid)}`);
  decided.push(paid.transferId);
}

useSwitch(
  test,
  async (started) => {
    hub = started;
    payments = new QuotedPayments(hub);
    // No credential configured: on loopback the admin API is open, and the console opens without a sign-in.
    admin = await startAdmin(hub.services);
    payer = await hub.provision({ currency: CURRENCY, netDebitCap: 1_000, fundsIn: 5_000 });
    payee = payments.quotes(await hub.provision({ currency: CURRENCY }));
    rejecting = rejects(await hub.provision({ currency: CURRENCY }));
    before = ((await admin.call('GET', `/scheme/glance?currency=${CURRENCY}`)).body as SchemeGlance).payments;
    await pay(payee, '125', 'COMMITTED');
    await pay(payee, '75', 'COMMITTED');
    await pay(rejecting, '10', undefined, '5104');
    const pastCap = await payments.pay(payer, payee, '2000', undefined, CURRENCY);
    if (!pastCap.errorCode?.startsWith('4')) throw new Error(`a payment past the cap ended ${JSON.stringify(pastCap)}`);
    decided.push(pastCap.transferId);
    browser = await launchChromium(process.env.CHROMIUM_PATH);
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
    });
  },
  { namespace: `home-${crypto.randomUUID()}` },
);
test.after.always(async () => {
  await browser?.close();
  await admin?.close();
});

/** The p50 and p95 of the times from POST to decision of the payments decided in the latest minute, from their records. */
async function latestPercentiles(): Promise<[number, number]> {
  const records = await hub.services.db.read((manager) => manager.findBy(TransferRecord, { transferId: In(decided) }));
  const minuteOf = (record: TransferRecord) => Math.floor(record.completedTimestamp!.getTime() / 60_000);
  const latest = Math.max(...records.map(minuteOf));
  const took = records
    .filter((record) => minuteOf(record) === latest)
    .map((record) => record.completedTimestamp!.getTime() - record.createdDate.getTime())
    .sort((a, b) => a - b);
  return [took[nearestRank(took.length, 50) - 1], took[nearestRank(took.length, 95) - 1]];
}

/** The percentiles the page prints beside the latency chart. */
async function printedPercentiles(): Promise<[number, number]> {
  const text = await figure('latency').locator('[data-figures="latency"]').textContent();
  const [, p50, p95] = /: p50 (\d+) ms, p95 (\d+) ms\.$/.exec(text!) ?? [];
  return [Number(p50), Number(p95)];
}

const figure = (name: string) => page.locator(`figure[data-chart="${name}"]`);

test.serial('the home page charts the payments of the last hour, the aborts by code, the decision latency and the liquidity used', async (t) => {
  await page.goto(`${admin.url}/console#/home?currency=${CURRENCY}`);
  await page.getByRole('heading', { name: `The scheme at a glance (${CURRENCY})` }).waitFor();
  await page.getByText(`Last 60 minutes: ${before.total.committed + 2} committed, ${before.total.aborted + 2} aborted.`).waitFor();
  for (const name of ['payments', 'aborts', 'latency', 'liquidity']) {
    await figure(name).locator('canvas').waitFor();
    t.truthy(await figure(name).getByRole('img').getAttribute('aria-label'), `the ${name} chart is described for a screen reader`);
  }
  t.deepEqual(await figure('payments').locator('.u-legend .u-label').allTextContents(), ['Time', 'committed', 'aborted'], 'its lines are named');

  const codes = await figure('aborts')
    .locator('[data-figures="aborts"] tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
  const pastCap = (await hub.services.db.read((manager) => manager.findOneByOrFail(TransferRecord, { transferId: decided[3] }))).errorCode!;
  const earlier = (code: string) => before.abortsByCode.find((counted) => counted.errorCode === code)?.total ?? 0;
  t.deepEqual(codes.sort(), [
    [pastCap, String(earlier(pastCap) + 1)],
    ['5104', String(earlier('5104') + 1)],
  ]);

  t.deepEqual(await printedPercentiles(), await latestPercentiles(), 'those of the latest minute with decisions');

  const position = figure('liquidity').locator(`[data-figures="liquidity"] tr[data-participant="${payer.name}"] td`);
  t.deepEqual(await position.allTextContents(), [payer.name, CURRENCY, '200', '1000', '20%'], 'paid 125 and 75 of a cap of 1000');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'home.png'), fullPage: true });
});

test.serial('the charts refresh live: a payment made while the page is open shows up, drawn on the same charts', async (t) => {
  const canvas = await figure('payments').locator('canvas').elementHandle();
  await pay(payee, '50', 'COMMITTED');
  await page.getByText(`Last 60 minutes: ${before.total.committed + 3} committed, ${before.total.aborted + 2} aborted.`).waitFor();
  await figure('liquidity').locator(`[data-figures="liquidity"] tr[data-participant="${payer.name}"] td`, { hasText: '25%' }).waitFor();
  t.true(await canvas!.evaluate((element) => element.isConnected), 'the chart took the new figures, it was not made again');
  const [p50, p95] = await latestPercentiles();
  await figure('latency')
    .locator('[data-figures="latency"]', { hasText: `: p50 ${p50} ms, p95 ${p95} ms.` })
    .waitFor();
  t.deepEqual(violations, [], 'nothing on the page broke the Content-Security-Policy');
});

test.serial('the home page is the console’s first page: its empty address and the first link of the menu open it', async (t) => {
  await page.goto(`${admin.url}/console`);
  await page.getByRole('heading', { name: 'The scheme at a glance' }).waitFor();
  t.is(await page.locator('nav a').first().textContent(), 'Home');
  t.is(await page.locator('nav a.here').textContent(), 'Home', 'marked as the page shown');
  await page.getByRole('link', { name: 'Participants' }).click();
  await page.getByRole('heading', { name: 'Participants' }).waitFor();
  await page.getByRole('link', { name: 'Home' }).click();
  await page.getByRole('heading', { name: 'The scheme at a glance' }).waitFor();
  t.is(await page.locator('nav a.here').textContent(), 'Home');
});
