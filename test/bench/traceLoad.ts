// `npm run bench:traces`: how long the operator's console takes to show a trace, where it is heaviest. A switch with
// its own Temporal dev server and a fresh SQLite database (or DATABASE_URL) carries a bulk of 1,000 transfers, and
// 100,000 transfer records are added beside a payer's real payment; then, in Debian's Chromium, the trace page of one
// bulk item (its bulk's messages carry every item) and the search by payer that finds the payment among 100,000 and
// its trace page, each loaded REPEAT times: the median and the slowest, until the page shows what it must.

import crypto from 'node:crypto';
import { TransferRecord } from '../../activities/hub/db/entities';
import { temporalCliPath } from '../../temporal/setup';
import { startDevServer } from '../../temporal/devServer';
import { answering } from '../helpers/bulkPayees';
import { chromiumPath, launchChromium } from '../helpers/chromium';
import { bulkItem, bulkTransferBody } from '../helpers/fspiopBodies';
import { QuotedPayments } from '../helpers/quotedPayments';
import { startSwitch } from '../helpers/switchHarness';

const REPEAT = 10;
const RECORDS = 100_000;
const log = (message: string) => process.stderr.write(`${message}\n`);
const say = (message: string) => process.stdout.write(`${message}\n`);

async function timed(times: number, work: () => Promise<void>): Promise<{ median: number; max: number }> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return { median: took[Math.floor(took.length / 2)], max: took[took.length - 1] };
}

const ms = ({ median, max }: { median: number; max: number }) => `median ${median.toFixed(0)} ms, slowest ${max.toFixed(0)} ms`;

async function main(): Promise<void> {
  const temporal = await startDevServer({ cliPath: await temporalCliPath(log), ui: false, log });
  process.env.TEMPORAL_ADDRESS = temporal.address;
  const hub = await startSwitch();
  const browser = await launchChromium(chromiumPath(log));
  try {
    const page = await browser.newPage();
    const trace = async (transferId: string, messages: number) => {
      await page.goto(`${hub.admin.url}/console#/transfers/${transferId}`);
      await page.getByRole('heading', { name: `Messages (${messages})` }).waitFor({ timeout: 60_000 });
      await page.goto('about:blank');
    };

    // A bulk of 1,000 items, every one fulfilled.
    const payer = await hub.provision({ netDebitCap: 1_000_000, fundsIn: 1_000_000 });
    const payee = await hub.provision();
    const items = Array.from({ length: 1_000 }, () => bulkItem('1'));
    const fulfilments = new Map(items.map((item) => [item.transfer.transferId, item.fulfilment]));
    answering(hub, payee, (transferId) => ({ fulfilment: fulfilments.get(transferId)! }));
    const body = bulkTransferBody(payer.name, payee.name, items, { expiresInMs: 120_000 });
    await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body });
    await payer.waitFor((r) => r.method === 'PUT' && r.path === `/bulkTransfers/${body.bulkTransferId}`, 120_000);
    const item = items[500].transfer.transferId;
    // The switch logs a delivery once its answer is in: the bulk's four messages (POST and PUT, in and out).
    let bulkMessages = 0;
    for (let attempt = 0; bulkMessages < 4 && attempt < 50; attempt++) {
      await hub.hub.messageLog!.flush();
      bulkMessages = (await hub.admin.call('GET', `/transfers/${item}/trace`)).body.messages.length;
      if (bulkMessages < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    say(`# a bulk of 1,000 transfers: the trace of one item (${bulkMessages} messages of the bulk, each body with every item)`);
    say(`  GET /transfers/{id}/trace: ${ms(await timed(REPEAT, async () => void (await hub.admin.call('GET', `/transfers/${item}/trace`))))}`);
    say(`  the trace page in Chromium: ${ms(await timed(REPEAT, () => trace(item, bulkMessages)))}`);

    // One real payment of a payer among 100,000 records, most of them of other payers.
    const payments = new QuotedPayments(hub);
    const searched = await hub.provision();
    payments.quotes(payee);
    const { transferId } = await payments.pay(searched, payee, '7');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await hub.hub.messageLog!.flush();
    const names = Array.from({ length: 50 }, () => `bench${crypto.randomBytes(4).toString('hex')}`);
    const started = Date.now();
    for (let at = 0; at < RECORDS; at += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, i) =>
        Object.assign(new TransferRecord(), {
          transferId: crypto.randomUUID(),
          payerFsp: (at + i) % 1_000 === 0 ? searched.name : names[(at + i) % names.length],
          payeeFsp: payee.name,
          amount: '1',
          currency: 'USD',
          ilpCondition: 'x'.repeat(43),
          ilpPacket: null,
          expiration: new Date(started + 60_000),
          requestHash: 'bench',
          transferState: 'COMMITTED',
          fulfilment: null,
          completedTimestamp: new Date(started),
          errorCode: null,
          errorDescription: null,
          payeeWantsNotification: false,
          createdDate: new Date(started - RECORDS + at + i),
        }),
      );
      await hub.services.db.transaction((manager) => manager.insert(TransferRecord, rows));
    }
    // The inserts outlast the admin server's keep-alive: the client's idle connection is gone, its first reuse reset.
    await hub.admin.call('GET', '/health').catch(() => undefined);
    say(`# a payer's payment among ${RECORDS.toLocaleString('en')} transfer records (inserted directly, ${RECORDS / 1_000} of them the payer's)`);
    say(`  GET /transfers?payerFsp=…: ${ms(await timed(REPEAT, async () => void (await hub.admin.call('GET', `/transfers?payerFsp=${searched.name}`))))}`);
    say(
      `  the search page in Chromium, to its first result: ${ms(
        await timed(REPEAT, async () => {
          await page.goto(`${hub.admin.url}/console#/transfers?payerFsp=${searched.name}`);
          await page.getByRole('link', { name: transferId }).waitFor({ timeout: 60_000 });
          await page.goto('about:blank');
        }),
      )}`,
    );
    say(`  its trace page in Chromium: ${ms(await timed(REPEAT, () => trace(transferId, 8)))}`);
  } finally {
    await browser.close();
    await hub.close();
    await temporal.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`bench:traces: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
