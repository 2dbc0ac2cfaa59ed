import crypto from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import { MessageRecord } from '../../activities/hub/db/entities';
import { MessageLog } from '../../activities/hub/trace/messageLog';
import type { MessagePage, TransferTrace } from '../../activities/shared/contracts/trace';
import { ilpPair } from '../helpers/fspiopBodies';
import { fspiopAt, serveGateway, useSwitch, SwitchHarness } from '../helpers/switchHarness';

// What a participant can make the switch's message log keep: over real HTTP, on the database the run uses (with
// DATABASE_URL, MariaDB, where the headers' column holds 65,535 bytes).

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

/** A callback no conversation can take: its state is none the API has. */
const refusedBody = (n = 0) => ({ transferState: 'LOST', n });

const traceOf = async (transferId: string, query = ''): Promise<TransferTrace> => {
  const answer = await hub.admin.call('GET', `/transfers/${transferId}/trace${query}`);
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body as TransferTrace;
};

test('a refused 1 MiB message is kept cut to its first 4,096 characters, with a note of how many bytes were sent', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const transferId = crypto.randomUUID();
  const body = JSON.stringify({
    transferState: 'COMMITTED',
    completedTimestamp: new Date().toISOString(),
    extensionList: { extension: [{ key: 'padding', value: 'x'.repeat(1 << 20) }] },
  });
  for (let i = 0; i < 2; i++) {
    const answer = await hub.fspiop('PUT', `/transfers/${transferId}`, { source: payee.name, destination: payer.name, body });
    t.is(answer.status, 400, 'an extension value longer than the API allows');
  }
  await hub.hub.messageLog!.flush();
  const stored = await hub.services.db.read((manager) => manager.findBy(MessageRecord, { conversation: `transfers/${transferId}` }));
  t.is(stored.length, 2);
  const note = `… [cut: ${Buffer.byteLength(body)} bytes in all]`;
  for (const row of stored) t.is(row.body, body.slice(0, 4_096) + note);
  const { messages } = await traceOf(transferId);
  t.deepEqual(
    messages.map((message) => [message.status, message.body]),
    [
      [400, body.slice(0, 4_096) + note],
      [400, body.slice(0, 4_096) + note],
    ],
  );
});

/** How many entries the log dropped for `participant`'s messages, as the gateway at `url` reports them. */
/** The drops counted for a participant, as Prometheus scrapes them: on the admin port, where the hub's metrics are. */
async function dropped(participant: string): Promise<number> {
  const text = await (await fetch(`${hub.admin.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith('hub_message_log_dropped_total{') &&
        [`participant="${participant}"`, 'direction="in"', 'reason="share"'].every((label) => candidate.includes(label)),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

test("a participant past its share of the minute has its further entries dropped and counted on /metrics; another's are kept", async (t) => {
  // A gateway of the test's own whose log gives each participant 4 entries a minute, 2 of them refused messages.
  const minute = Date.now();
  const capped = new MessageLog(hub.services.db, pino({ level: 'silent' }), { share: { perMinute: 4, refusedPerMinute: 2 }, now: () => minute });
  const gateway = await serveGateway({ ...hub.hub, messageLog: capped, config: { taskQueue: hub.worker.taskQueue }, temporal: hub.worker.client });
  t.teardown(() => gateway.close());
  const [noisy, quiet] = [await hub.provision(), await hub.provision()];
  const transferId = crypto.randomUUID();
  const send = (method: string, source: string, body?: unknown) =>
    fspiopAt(gateway.url, method, `/transfers/${transferId}`, { source, destination: quiet.name, body });
  const before = { noisy: await dropped(noisy.name), unknown: await dropped('?') };

  for (let i = 0; i < 5; i++) t.is((await send('PUT', noisy.name, refusedBody(i))).status, 400);
  for (let i = 0; i < 3; i++) t.is((await send('GET', noisy.name)).status, 202, 'taken, and answered from the record');
  t.is((await send('PUT', quiet.name, refusedBody())).status, 400);
  // Senders the switch does not know share one share, however many names they make up.
  for (let i = 0; i < 3; i++) t.is((await send('PUT', `nobody${i}`, refusedBody())).status, 400);
  await capped.flush();

  const kept = await hub.services.db.read((manager) =>
    manager.find(MessageRecord, { where: { conversation: `transfers/${transferId}`, direction: 'in' }, order: { id: 'ASC' } }),
  );
  const from = (source: string) => kept.filter((row) => row.source === source).map((row) => `${row.method} ${row.status}`);
  t.deepEqual(from(noisy.name), ['PUT 400', 'PUT 400', 'GET 202', 'GET 202'], 'two refused, then what the minute has left');
  t.deepEqual(from(quiet.name), ['PUT 400']);
  t.is(kept.filter((row) => row.source?.startsWith('nobody')).length, 2);
  t.is((await dropped(noisy.name)) - before.noisy, 4, 'three refused and one taken, counted');
  t.is((await dropped('?')) - before.unknown, 1);
});

test('a header too long for its column is cut to fit, and every entry written beside it is kept', async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  const [answered, refused] = [crypto.randomUUID(), crypto.randomUUID()];
  // Under the 64 KiB the switch takes in headers, yet twice the column in JSON, where each quote is escaped.
  const tracestate = `a=${'"'.repeat(60_000)}`;
  const callback = { transferState: 'COMMITTED', completedTimestamp: new Date().toISOString(), fulfilment: ilpPair().fulfilment };
  const answers = await Promise.all([
    hub.fspiop('PUT', `/transfers/${answered}`, { source: payee.name, destination: payer.name, body: callback, headers: { tracestate } }),
    ...Array.from({ length: 199 }, (_, i) => hub.fspiop('PUT', `/transfers/${refused}`, { source: payee.name, destination: payer.name, body: refusedBody(i) })),
  ]);
  t.is(answers[0].status, 200, 'a callback about a transfer the switch does not know is taken, and answered with an error');
  t.true(answers.slice(1).every((answer) => answer.status === 400));
  await hub.hub.messageLog!.flush();

  const [received] = (await traceOf(answered)).messages.filter((message) => message.direction === 'in');
  t.truthy(received, 'the message with the long header is kept');
  t.true(Buffer.byteLength(JSON.stringify(received.headers)) <= 65_535);
  t.true(received.headers.tracestate.startsWith(`a=${'"'.repeat(20_000)}`));
  t.true(received.headers.tracestate.endsWith(`… [cut: ${tracestate.length} bytes in all]`));
  t.is(received.headers['fspiop-source'], payee.name);
  const others: MessagePage = await traceOf(refused, '?limit=1000');
  t.deepEqual(
    others.messages.map((message) => (message.body as { n: number }).n).sort((a, b) => a - b),
    [...Array(199).keys()],
  );
});
