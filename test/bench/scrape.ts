// `npm run bench:scrape`: what one Prometheus scrape of a gateway's scheme metrics costs once the transfer table is
// large. A fresh SQLite database (or DATABASE_URL, with unique participant names) gets PARTICIPANTS participants,
// each with a position and a Net Debit Cap, TRANSFERS transfer records inserted directly (nearly all decided, a few
// still open, as a switch's table is after months) and as many entries in the message log (deliveries, one in a
// hundred failed), then the scheme metrics (activities/hub/metrics/schemeMetrics.ts) are scraped SCRAPES times: the
// median and the slowest, and what a transfer lookup made during a scrape waits; printed, never asserted.
//
//   npm run bench:scrape [-- --transfers 1000000 --participants 100 --scrapes 20]
//
// With --transfers 0 and DATABASE_URL it scrapes what a database holds already (and times its migration).

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import client from 'prom-client';
import { openHubServices } from '../../activities/hub/hubServices';
import { MessageRecord, TransferRecord } from '../../activities/hub/db/entities';
import { registerSchemeMetrics } from '../../activities/hub/metrics/schemeMetrics';
import { countDeliveryFailures, countOutcomes } from '../../activities/hub/metrics/schemeCounters';
import { uniqueName } from '../helpers/database';

const BATCH = 1_000;
const DAY_MS = 86_400_000;
const say = (message: string) => process.stdout.write(`${message}\n`);
const ms = (took: number[]) => {
  const sorted = [...took].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms`;
};

function options(): { transfers: number; participants: number; scrapes: number } {
  const { values } = parseArgs({
    options: {
      transfers: { type: 'string', default: '1000000' },
      participants: { type: 'string', default: '100' },
      scrapes: { type: 'string', default: '20' },
    },
  });
  return { transfers: Number(values.transfers), participants: Number(values.participants), scrapes: Number(values.scrapes) };
}

/** One batch of transfer records between the participants: one in a thousand still open (RESERVED), one in ten ABORTED, the rest COMMITTED. */
function transferRows(names: string[], from: number, count: number, spread: { now: number; total: number }): TransferRecord[] {
  return Array.from({ length: count }, (_, offset) => {
    const at = from + offset;
    const state = at % 1_000 === 0 ? 'RESERVED' : at % 10 === 0 ? 'ABORTED' : 'COMMITTED';
    // Spread over the last day, as a steady switch's are: the last five minutes hold one in 288.
    const created = new Date(spread.now - DAY_MS + Math.floor((at * DAY_MS) / spread.total));
    return Object.assign(new TransferRecord(), {
      transferId: crypto.randomUUID(),
      payerFsp: names[at % names.length],
      payeeFsp: names[(at + 1) % names.length],
      amount: '1',
      currency: 'USD',
      ilpCondition: 'x'.repeat(43),
      ilpPacket: null,
      expiration: new Date(spread.now + 3_600_000),
      requestHash: 'bench',
      transferState: state,
      fulfilment: null,
      completedTimestamp: state === 'RESERVED' ? null : new Date(created.getTime() + 200 + (at % 800)),
      errorCode: null,
      errorDescription: null,
      payeeWantsNotification: false,
      createdDate: created,
    });
  });
}

/** The log entry of the hub's delivery of a transfer's PUT to its payer, a failed one in a hundred. */
function messageOf(transfer: TransferRecord, index: number): MessageRecord {
  const failed = index % 100 === 0;
  return Object.assign(new MessageRecord(), {
    conversation: `transfers/${transfer.transferId}`,
    direction: 'out',
    method: 'PUT',
    target: `/transfers/${transfer.transferId}`,
    source: 'Hub',
    destination: transfer.payerFsp,
    headers: '{}',
    body: null,
    status: failed ? null : 200,
    error: failed ? 'connect ECONNREFUSED' : null,
    traceId: null,
    createdDate: transfer.completedTimestamp ?? transfer.createdDate,
    durationMs: 3,
  });
}

async function main(): Promise<void> {
  const { transfers, participants, scrapes } = options();
  const databaseUrl = process.env.DATABASE_URL || `sqlite:${path.join(os.tmpdir(), `hub-bench-scrape-${process.pid}.sqlite`)}`;
  const opening = Date.now();
  const services = await openHubServices({ databaseUrl, hubParticipantName: 'Hub', newParticipantsActive: true });
  // With --transfers 0 on a database an older hub filled, this is its migration's time, counting what it holds.
  say(`# database opened and migrated in ${((Date.now() - opening) / 1000).toFixed(1)} s`);
  try {
    const names = Array.from({ length: participants }, () => uniqueName('scrape'));
    for (const name of names) {
      await services.participants.create(name, 'USD');
      await services.limits.initialPositionAndLimits(name, { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: '100000' }, initialPosition: '0' });
    }
    const started = Date.now();
    for (let at = 0; at < transfers; at += BATCH) {
      const rows = transferRows(names, at, Math.min(BATCH, transfers - at), { now: started, total: transfers });
      const messages = rows.map(messageOf);
      // Counted as the switch counts them when it decides them and logs their messages.
      await services.db.transaction(async (manager) => {
        await manager.insert(TransferRecord, rows);
        await manager.insert(MessageRecord, messages);
        await countOutcomes(
          manager,
          rows.filter((row) => row.transferState !== 'RESERVED'),
        );
        await countDeliveryFailures(manager, messages);
      });
      if ((at / BATCH) % 100 === 99) process.stderr.write(`  ${(at + BATCH).toLocaleString('en')} transfers inserted\n`);
    }
    say(
      `# ${databaseUrl.split(':')[0]}: ${transfers.toLocaleString('en')} transfers and as many logged messages inserted in ${((Date.now() - started) / 1000).toFixed(0)} s, ${participants} participants`,
    );

    const registry = new client.Registry();
    registerSchemeMetrics(registry, services);
    const took: number[] = [];
    for (let i = 0; i < scrapes; i++) {
      const start = performance.now();
      await registry.metrics();
      took.push(performance.now() - start);
    }
    say(`  a scrape of the scheme metrics (${scrapes} in a row): ${ms(took)}`);
    // On SQLite a gateway's reads queue behind the scrape's (Database.read): what one transfer lookup waits meanwhile.
    const waited: number[] = [];
    const lookedUp = (await services.db.read((manager) => manager.find(TransferRecord, { select: { transferId: true }, take: 1 })))[0].transferId;
    for (let i = 0; i < scrapes; i++) {
      const scrape = registry.metrics();
      const start = performance.now();
      await services.db.read((manager) => manager.findOneBy(TransferRecord, { transferId: lookedUp }));
      waited.push(performance.now() - start);
      await scrape;
    }
    say(`  a transfer lookup made during a scrape: ${ms(waited)}`);
  } finally {
    await services.db.close();
    if (!process.env.DATABASE_URL) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${databaseUrl.slice('sqlite:'.length)}${suffix}`, { force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:scrape: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
