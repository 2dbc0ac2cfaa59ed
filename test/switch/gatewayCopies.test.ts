import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openDatabase } from '../../activities/hub/db/database';
import { childPids } from '../bench/breakdown';
import { testDatabaseUrl } from '../helpers/database';
import { hubProcessSettings, logTail, startProcess } from '../helpers/hubProcesses';
import { pollUntil } from '../helpers/polling';
import { temporalAddress } from '../helpers/worker';

const logDir = path.join(os.tmpdir(), `gateway-copies-${process.pid}`);

/** The settings of a gateway with `copies` processes on two free ports, its database migrated beforehand. */
async function gatewaySettings(copies: number): Promise<{ env: NodeJS.ProcessEnv; adminPort: number }> {
  const databaseUrl = testDatabaseUrl();
  await (await openDatabase(databaseUrl, 'Hub')).close();
  const { env } = await hubProcessSettings({ databaseUrl, temporalAddress: temporalAddress(), host: '127.0.0.1' });
  return { env: { ...env, GATEWAY_PROCESSES: String(copies) }, adminPort: Number(env.ADMIN_PORT) };
}

/** /health on a connection of its own, so that each ask may reach another copy: its status and the answering process's start time. */
function health(port: number): Promise<{ status: number; startTime?: string }> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, startTime: JSON.parse(Buffer.concat(chunks).toString()).startTime }));
    });
    request.on('error', () => resolve({ status: 0 }));
  });
}

test('GATEWAY_PROCESSES=2 serves one address from two processes, replaces one that is killed, and stops both on SIGTERM', async (t) => {
  const { env, adminPort } = await gatewaySettings(2);
  const gateway = startProcess('api/main.js', 'gateway-copies', env, logDir);
  t.teardown(() => void gateway.kill('SIGKILL'));
  const copies = await pollUntil(
    async () => ((await health(adminPort)).status === 200 ? childPids(gateway.pid!) : []),
    (pids) => pids.length === 2,
    60_000,
  );
  t.is(copies.length, 2, logTail(logDir, 'gateway-copies'));

  // A forked copy takes connections only once it listens, which on a busy machine may be well after the first copy
  // answered; from then on the supervisor hands connections out in turn, so both start times show up.
  const startTimes = new Set<string>();
  await pollUntil(
    async () => {
      const answer = await health(adminPort);
      if (answer.status === 200 && answer.startTime) startTimes.add(answer.startTime);
      return startTimes;
    },
    (seen) => seen.size === 2,
    60_000,
  );
  t.is(startTimes.size, 2, 'both copies answered');

  process.kill(copies[0], 'SIGKILL');
  const replaced = await pollUntil(
    async () => childPids(gateway.pid!),
    (pids) => pids.length === 2 && !pids.includes(copies[0]),
    30_000,
  );
  t.false(replaced.includes(copies[0]));
  t.is(replaced.length, 2);
  t.is(
    (
      await pollUntil(
        () => health(adminPort),
        (answer) => answer.status === 200,
      )
    ).status,
    200,
  );

  gateway.kill('SIGTERM');
  const [code] = await once(gateway, 'exit');
  t.is(code, 0);
  for (const pid of replaced) t.throws(() => process.kill(pid, 0), undefined, `copy ${pid} outlived the gateway`);
});

test('a copy that cannot start (its port is taken) stops the gateway with exit code 1 instead of restarting for ever', async (t) => {
  const { env, adminPort } = await gatewaySettings(2);
  const squatter = net.createServer().listen(adminPort, '127.0.0.1');
  await once(squatter, 'listening');
  t.teardown(() => void squatter.close());
  const gateway = startProcess('api/main.js', 'gateway-copies-refused', env, logDir);
  t.teardown(() => void gateway.kill('SIGKILL'));
  const [code] = await once(gateway, 'exit');
  t.is(code, 1, logTail(logDir, 'gateway-copies-refused'));
});
