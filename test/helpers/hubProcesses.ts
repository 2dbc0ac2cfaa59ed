import crypto from 'node:crypto';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';
import { startDevServer, type DevServer } from '../../temporal/devServer';
import { freePort } from '../../temporal/ports';
import { temporalCliPath } from '../../temporal/setup';
import { stopChildren } from '../../worker/children';
import { waitUntilReady } from '../../worker/readiness';
import { hubNodeFlags } from '../../worker/nodeFlags';
import { endpointsOf } from './dfsp';
import { answerBody } from './http';

type Log = (message: string) => void;

/** A hub run as `npm start` runs it: a Temporal dev server, and the worker and both gateways in one process. */
export interface HubProcesses {
  switchUrl: string;
  adminUrl: string;
  temporal: DevServer;
  /** The settings its processes run with, for another process of the same hub. */
  env: NodeJS.ProcessEnv;
  /** Where each process writes its output. */
  logDir: string;
  stop(): Promise<void>;
}

/** Starts a Node entry point of dist/ as a child process whose output goes to `<logDir>/<name>.log`. */
export function startProcess(entry: string, name: string, env: NodeJS.ProcessEnv, logDir: string): ChildProcess {
  fs.mkdirSync(logDir, { recursive: true });
  const out = fs.openSync(path.join(logDir, `${name}.log`), 'w');
  return spawn(process.execPath, [...hubNodeFlags(env), path.join(repoRoot, 'dist', entry)], { env, stdio: ['ignore', out, out] });
}

/** The last lines a child started by `startProcess` wrote, for a failure message a CI log can show. */
export function logTail(logDir: string, name: string, lines = 20): string {
  const file = path.join(logDir, `${name}.log`);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd() : '';
  return `last output (${file}):\n  ${text.split('\n').slice(-lines).join('\n  ')}`;
}

/**
 * The settings of a hub's worker and gateway bound to `host`: its database, its Temporal server (namespace `default`),
 * and a switch port and an admin port of their own, two different free ports.
 */
export async function hubProcessSettings(options: { databaseUrl: string; temporalAddress: string; host: string }): Promise<{
  env: NodeJS.ProcessEnv;
  switchUrl: string;
  adminUrl: string;
}> {
  const { databaseUrl, temporalAddress, host } = options;
  const adminPort = await freePort(host);
  let switchPort = await freePort(host);
  while (switchPort === adminPort) switchPort = await freePort(host);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    HOST: host,
    ADMIN_PORT: String(adminPort),
    SWITCH_PORT: String(switchPort),
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  return { env, switchUrl: `http://${host}:${switchPort}`, adminUrl: `http://${host}:${adminPort}` };
}

/**
 * A hub of its own for a suite or the demo: a Temporal dev server (in memory; with its Web UI when `ui`), a fresh
 * SQLite file, and central-ledger's behaviour of making new participants active; `env` adds settings.
 */
export async function startHubProcesses(options: { log: Log; logDir: string; ui?: boolean; env?: NodeJS.ProcessEnv }): Promise<HubProcesses> {
  const temporal = await startDevServer({ cliPath: await temporalCliPath(options.log), ui: options.ui ?? false, log: options.log });
  const [switchPort, adminPort] = await Promise.all([freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `hub-${crypto.randomBytes(4).toString('hex')}`,
    DATABASE_URL: process.env.DATABASE_URL || `sqlite:${path.join(os.tmpdir(), `hub-${process.pid}-${Date.now()}.sqlite`)}`,
    SWITCH_PORT: String(switchPort),
    ADMIN_PORT: String(adminPort),
    NEW_PARTICIPANTS_ACTIVE: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    // The console links each conversation to the UI of this dev server.
    ...(temporal.uiUrl && { TEMPORAL_UI_URL: temporal.uiUrl }),
    ...options.env,
  };
  const hub = startProcess('worker/hub.js', 'hub', env, options.logDir);
  await waitUntilReady({
    healthUrl: `http://127.0.0.1:${adminPort}/health`,
    temporalAddress: temporal.address,
    namespace: 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE!,
    timeoutMs: 120_000,
    failed: () => (hub.exitCode !== null ? `the hub process exited during start-up; ${logTail(options.logDir, 'hub')}` : undefined),
  });
  return {
    switchUrl: `http://127.0.0.1:${switchPort}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    temporal,
    env,
    logDir: options.logDir,
    async stop() {
      await stopChildren([hub]);
      await temporal.stop();
    },
  };
}

/** One call to the hub's admin API. */
export async function adminCall(adminUrl: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${adminUrl}${urlPath}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await answerBody(response) };
}

/** A participant's position in a currency, as the admin API reports it. */
export async function positionOf(adminUrl: string, name: string, currency: string): Promise<number> {
  return (await adminCall(adminUrl, 'GET', `/participants/${name}/positions?currency=${currency}`)).body.value;
}

/**
 * Onboards a participant as Mojaloop's onboarding collections do: create (no activation step), the Net Debit Cap and
 * opening position as numeric strings, every callback endpoint at `callbackBase`, then a deposit whose amount is a
 * string. A PISP moves no money of its own: it gets no deposit.
 */
export async function onboardParticipant(
  adminUrl: string,
  name: string,
  callbackBase: string,
  {
    currency,
    role = 'dfsp',
    deposit = '5000',
    thirdpartyCallbackBase = callbackBase,
  }: { currency: string; role?: 'dfsp' | 'pisp'; deposit?: string; thirdpartyCallbackBase?: string },
): Promise<void> {
  const endpoints = endpointsOf(role, callbackBase, thirdpartyCallbackBase);
  const steps: Array<[string, string, unknown, number]> = [
    ['POST', '/participants', { name, currency }, 200],
    ['POST', `/participants/${name}/initialPositionAndLimits`, { currency, limit: { type: 'NET_DEBIT_CAP', value: '10000' }, initialPosition: '0' }, 201],
    ...endpoints.map((endpoint): [string, string, unknown, number] => ['POST', `/participants/${name}/endpoints`, endpoint, 201]),
  ];
  for (const [method, urlPath, body, expected] of steps) {
    const answer = await adminCall(adminUrl, method, urlPath, body);
    if (answer.status !== expected) throw new Error(`${method} ${urlPath} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  if (role === 'pisp') return;
  const accounts = (await adminCall(adminUrl, 'GET', `/participants/${name}/accounts`)).body;
  const settlement = accounts.find((account: any) => account.ledgerAccountType === 'SETTLEMENT' && account.currency === currency).id;
  const funded = await adminCall(adminUrl, 'POST', `/participants/${name}/accounts/${settlement}`, {
    transferId: crypto.randomUUID(),
    externalReference: 'onboarding',
    action: 'recordFundsIn',
    reason: 'opening deposit',
    amount: { amount: deposit, currency },
  });
  if (funded.status !== 202) throw new Error(`recordFundsIn answered ${funded.status} ${JSON.stringify(funded.body)}`);
}
