import crypto from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import test from 'ava';
import { ParticipantShares } from '../../api/fspiop/participantShares';
import { startFollowUp } from '../../api/fspiop/conversationRoutes';
import type { FollowUp } from '../../activities/shared/contracts/followUps';
import { pollUntil } from '../helpers/polling';
import { connectClient } from '../helpers/worker';
import { fspiopAt, serveGateway, useSwitch, type SwitchHarness } from '../helpers/switchHarness';
import { LookupQueue } from '../../api/fspiop/lookupQueue';
import pino from 'pino';

let hub: SwitchHarness;
useSwitch(test, (started) => {
  hub = started;
});

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function refused(take: () => void): string | undefined {
  try {
    take();
    return undefined;
  } catch (error) {
    const { status, errorInformation } = error as { status: number; errorInformation: { errorCode: string } };
    return `${status} ${errorInformation.errorCode}`;
  }
}

test('a participant gets its burst at once, then its rate: beyond it, 503 with 2005 Server busy', (t) => {
  const time = clock();
  const shares = new ParticipantShares({ perSecond: 2, burst: 3 }, time.now);
  for (let i = 0; i < 3; i++)
    t.is(
      refused(() => shares.take('flooder', 'GETs')),
      undefined,
    );
  t.is(
    refused(() => shares.take('flooder', 'GETs')),
    '503 2005',
  );
  time.advance(499);
  t.is(
    refused(() => shares.take('flooder', 'GETs')),
    '503 2005',
    'half a place is no place',
  );
  time.advance(1);
  t.is(
    refused(() => shares.take('flooder', 'GETs')),
    undefined,
    'two a second: one place back after half a second',
  );
  time.advance(60_000);
  for (let i = 0; i < 3; i++)
    t.is(
      refused(() => shares.take('flooder', 'GETs')),
      undefined,
      'an idle participant gets back no more than its burst',
    );
  t.is(
    refused(() => shares.take('flooder', 'GETs')),
    '503 2005',
  );
});

test("one participant's share spent leaves every other participant's whole", (t) => {
  const time = clock();
  const shares = new ParticipantShares({ perSecond: 1, burst: 2 }, time.now);
  shares.take('flooder', 'GETs');
  shares.take('flooder', 'GETs');
  t.is(
    refused(() => shares.take('flooder', 'GETs')),
    '503 2005',
  );
  t.is(
    refused(() => shares.take('payer', 'GETs')),
    undefined,
  );
  t.is(
    refused(() => shares.take('payer', 'GETs')),
    undefined,
  );
});

test('the same follow-up asked again while the first is still in hand starts no second workflow; another requester gets its own', async (t) => {
  // No worker polls this task queue: every follow-up started stays running until the test ends it.
  const { client, close } = await connectClient(`idle-${crypto.randomUUID()}`);
  t.teardown(close);
  const transferId = crypto.randomUUID();
  const get = (source: string): FollowUp => ({
    kind: 'transferStatus',
    transferId,
    requester: { source, version: '1.1', headers: { 'fspiop-source': source, date: new Date(Date.now() + crypto.randomInt(1e6)).toUTCString() } },
  });
  for (let i = 0; i < 5; i++) await startFollowUp(client, `idle-${transferId}`, 'transfers', transferId, get('flooder'));
  await startFollowUp(client, `idle-${transferId}`, 'transfers', transferId, get('payer'));

  const list = async () => {
    const found: string[] = [];
    const query = `WorkflowType = 'followUp' AND WorkflowId STARTS_WITH 'followUp/transfers/${transferId}/'`;
    for await (const execution of client.workflow.list({ query })) found.push(execution.workflowId);
    return found;
  };
  // Visibility lags the starts a little: once two are seen, give any further one the time to show.
  await pollUntil(list, (found) => found.length >= 2);
  await setTimeout(1_000);
  const started = await list();
  t.is(started.length, 2, 'one for the flooder, sent five times with other dates, and one for the payer');
  for (const workflowId of started) await client.workflow.getHandle(workflowId).terminate('test over');
});

test("a participant asking for transfers in a loop is refused 503 with 2005 beyond its share, while another participant's GET is taken", async (t) => {
  const config = { taskQueue: hub.worker.taskQueue, followUpShare: { perSecond: 1, burst: 2 } };
  const gateway = await serveGateway({ ...hub.hub, config, temporal: hub.worker.client });
  t.teardown(() => gateway.close());
  const [flooder, other] = [await hub.provision(), await hub.provision()];
  const get = (dfsp: { name: string }) => fspiopAt(gateway.url, 'GET', `/transfers/${crypto.randomUUID()}`, { source: dfsp.name });

  t.is((await get(flooder)).status, 202);
  t.is((await get(flooder)).status, 202);
  const refused = await get(flooder);
  t.is(refused.status, 503);
  t.is(refused.body.errorInformation.errorCode, '2005');
  t.is(refused.headers.get('content-type'), 'application/vnd.interoperability.transfers+json;version=1.1');
  t.is((await get(other)).status, 202, 'the other participant has its own share');
  t.is(
    (await flooder.waitFor((r) => r.method === 'PUT' && r.path.endsWith('/error'), 15_000)).body.errorInformation.errorCode,
    '3208',
    'what was taken is answered',
  );
});

test('lookups waiting run in turn, one participant after another, and one participant holds no more than its share of the places', async (t) => {
  const queue = new LookupQueue({ concurrency: 1, queue: 10, perParticipant: 3 }, pino({ level: 'silent' }));
  const ran: string[] = [];
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const lookup = (name: string) => async () => {
    ran.push(name);
    await gate;
  };
  queue.take('flooder', lookup('flooder 1'), 'lookup');
  queue.take('flooder', lookup('flooder 2'), 'lookup');
  queue.take('flooder', lookup('flooder 3'), 'lookup');
  t.is(
    refused(() => queue.take('flooder', lookup('flooder 4'), 'lookup')),
    '503 2005',
    'beyond its share',
  );
  queue.take('payer', lookup('payer 1'), 'lookup');
  queue.take('payee', lookup('payee 1'), 'lookup');
  openGate();
  await pollUntil(
    async () => ran.length,
    (count) => count === 5,
  );
  t.deepEqual(ran, ['flooder 1', 'flooder 2', 'payer 1', 'payee 1', 'flooder 3']);
});
