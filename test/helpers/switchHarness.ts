import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestFn } from 'ava';
import crypto from 'node:crypto';
import type https from 'node:https';
import type { JwsConfig, SmtpConfig, TlsConfig } from '../../activities/shared/platform/config';
import type { Tracing } from '../../activities/shared/platform/tracing';
import type { ApiType } from '../../activities/shared/contracts/apiType';
import type { Hub, HubServices } from '../../activities/hub/hubServices';
import { createSwitchApp, type SwitchDependencies } from '../../api/fspiop/switchApp';
import { switchResources } from '../../api/fspiop/switchResources';
import { AdminHarness, HUB_NAME, startAdmin } from './adminHarness';
import { testDatabaseUrl, uniqueName } from './database';
import { endpointsOf, SimulatedDfsp } from './dfsp';
import { ClientTls, httpsRequest } from './http';
import { connectClient, openTestHub, startWorker, WorkerHarness } from './worker';
import { gatewayTls, serve } from '../../api/http/serve';

/** The hub's identity: its participant name and the FSPIOP-Source of what it originates. */
export const HUB_ID = HUB_NAME;

export interface FspiopCall {
  source: string;
  destination?: string;
  body?: unknown;
  /** Headers to add or (with undefined) remove from the standard set. */
  headers?: Record<string, string | undefined>;
  version?: string;
  /** Over HTTPS: the CA the participant trusts and its client certificate. */
  tls?: ClientTls;
}

export interface SwitchHarness {
  url: string;
  admin: AdminHarness;
  /** The hub's own wiring (services, directory, sender), for tests that build a gateway of their own. */
  hub: Hub;
  services: HubServices;
  worker: WorkerHarness;
  dfsps: SimulatedDfsp[];
  /** A DFSP created, activated, given endpoints at a simulator, a Net Debit Cap and deposited funds. */
  provision(options?: ProvisionOptions): Promise<SimulatedDfsp>;
  /** A participant created, activated, given every endpoint at `endpointsAt`, a Net Debit Cap and funds, as an operator does. */
  onboard(name: string, endpointsAt: string, options?: ProvisionOptions): Promise<void>;
  fspiop(method: string, path: string, call: FspiopCall): Promise<{ status: number; body: any; headers: Headers }>;
  /** A DFSP's position in a currency, as the admin API reports it (reservations included). */
  position(participant: { name: string }, currency?: string): Promise<number>;
  close(): Promise<void>;
}

export interface ProvisionOptions {
  /** A PISP registers no endpoint for consent requests (endpointsOf). */
  role?: 'dfsp' | 'pisp';
  currency?: string;
  netDebitCap?: number;
  fundsIn?: number;
  name?: string;
  /** The simulated DFSP serves HTTPS with these options (mutual TLS with `requestCert`). */
  serverTls?: https.ServerOptions;
}

/** The resource of a path, as FSPIOP media types name it (`/transfers/x` → `transfers`). */
const resourceOf = (path: string) => path.split('/')[1].split('?')[0];
const THIRDPARTY_PATHS = ['accounts', 'consentRequests', 'consents', 'thirdpartyRequests', 'services'];

/**
 * The switch as it runs in production, over real HTTP: the FSPIOP gateway and admin API against the
 * real database, a worker on the real Temporal dev server, and DFSPs as real HTTP servers. With `tls`, the
 * switch serves HTTPS (mutual TLS with `switchClientCaPath`) and the hub calls participants with its client certificate.
 */
export async function startSwitch(
  options: {
    databaseUrl?: string;
    externalWorkerTaskQueue?: string;
    /** The namespace of that external worker (a worker process of a test's own, in a namespace of its own). */
    externalWorkerNamespace?: string;
    tls?: TlsConfig;
    jws?: JwsConfig;
    /** Participants' e-mails go through this SMTP server (SMTP_URL). */
    smtp?: SmtpConfig;
    /**
     * A Temporal namespace of the test file's own: settlement windows and settlements have workflow IDs their database
     * numbers (settlementWindow/1), which another test file's would meet in the shared default namespace.
     */
    namespace?: string;
    /** The worker and the gateway on Temporal's time-skipping test server, for tests of timers (test/helpers/timeSkipping.ts). */
    timeSkipping?: TestWorkflowEnvironment;
    /** Rewires the hub before the worker and the gateway run on it (a test's own sender). */
    adapt?: (hub: Hub) => Hub;
    /** OpenTelemetry tracing of the worker and the gateway's Temporal client. */
    tracing?: Tracing;
    /** API_TYPE: `iso20022` for a hub in ISO 20022 mode. */
    apiType?: ApiType;
  } = {},
): Promise<SwitchHarness> {
  const { jws, smtp, apiType } = options;
  const opened = await openTestHub(HUB_ID, options.databaseUrl ?? testDatabaseUrl(), { tls: options.tls, jws, smtp, apiType });
  const hub = options.adapt?.(opened) ?? opened;
  const { services } = hub;
  const worker = options.externalWorkerTaskQueue
    ? await connectClient(options.externalWorkerTaskQueue, options.externalWorkerNamespace)
    : await startWorker(hub, { namespace: options.namespace, timeSkipping: options.timeSkipping, tracing: options.tracing });
  const admin = await startAdmin(services, { temporal: { client: worker.client, taskQueue: worker.taskQueue } });
  const tls = options.tls && gatewayTls(options.tls, options.tls.switchClientCaPath, 'required');
  // A test file's few participants send far more than their production share of GETs and refused messages (the fuzz
  // suite, hundreds a second): the share has tests of its own (participantShares.test.ts).
  const config = { taskQueue: worker.taskQueue, followUpShare: { perSecond: 10_000, burst: 10_000 }, apiType };
  const gateway = await serveGateway({ ...hub, config, temporal: worker.client }, tls);
  const { url } = gateway;
  const dfsps: SimulatedDfsp[] = [];
  const onboard: SwitchHarness['onboard'] = async (name, endpointsAt, { role = 'dfsp', currency = 'USD', netDebitCap = 10_000, fundsIn = 10_000 } = {}) => {
    const created = await admin.call('POST', '/participants', { name, currency });
    if (created.status !== 200) throw new Error(`could not create ${name}: ${JSON.stringify(created.body)}`);
    await admin.call('PUT', `/participants/${name}`, { isActive: true });
    for (const endpoint of endpointsOf(role, endpointsAt)) await admin.call('POST', `/participants/${name}/endpoints`, endpoint);
    await admin.call('POST', `/participants/${name}/initialPositionAndLimits`, {
      currency,
      limit: { type: 'NET_DEBIT_CAP', value: netDebitCap },
      initialPosition: 0,
    });
    if (fundsIn > 0) {
      const settlement = created.body.accounts.find((a: any) => a.ledgerAccountType === 'SETTLEMENT' && a.currency === currency).id;
      await admin.call('POST', `/participants/${name}/accounts/${settlement}`, {
        transferId: crypto.randomUUID(),
        externalReference: 'opening deposit',
        action: 'recordFundsIn',
        reason: 'test',
        amount: { amount: fundsIn, currency },
      });
    }
  };

  return {
    url,
    admin,
    hub,
    services,
    worker,
    dfsps,
    async provision(options = {}) {
      const dfsp = await SimulatedDfsp.start(options.name ?? uniqueName(), options.serverTls);
      dfsps.push(dfsp);
      await onboard(dfsp.name, dfsp.url, options);
      return dfsp;
    },
    onboard,
    ...switchAt(url),
    async position(participant, currency = 'USD') {
      return (await admin.call('GET', `/participants/${participant.name}/positions?currency=${currency}`)).body.value;
    },
    async close() {
      await gateway.close();
      await Promise.all(dfsps.map((dfsp) => dfsp.close()));
      await admin.close();
      await worker.close();
      await hub.close();
    },
  };
}

/** The switch's gateway over real HTTP(S) on a free port, wired to `deps`: a test may hand it dependencies of its own. */
export async function serveGateway(deps: SwitchDependencies, tls?: https.ServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { server, url } = await serve(createSwitchApp(deps, switchResources, []), 0, '127.0.0.1', tls);
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The standard headers of an FSPIOP or third-party message, as a participant sends it; `headers` adds or (undefined) removes. */
export function fspiopHeadersOf(
  method: string,
  path: string,
  { source, destination, headers = {}, version }: Omit<FspiopCall, 'body' | 'tls'>,
): Record<string, string> {
  // The third-party API names one media type for all its resources, at its own version.
  const thirdparty = THIRDPARTY_PATHS.includes(resourceOf(path));
  const resource = thirdparty ? 'thirdparty' : resourceOf(path);
  version ??= thirdparty ? '1.0' : '1.1';
  // The third-party API's PATCHes are requests, with Accept; Document 2's PATCH is a notification, without.
  const isCallback = method === 'PUT' || (method === 'PATCH' && !thirdparty);
  const base: Record<string, string | undefined> = {
    accept: isCallback ? undefined : `application/vnd.interoperability.${resource}+json;version=${version}`,
    // Mojaloop requires Content-Type on every FSPIOP message, a GET included.
    'content-type': `application/vnd.interoperability.${resource}+json;version=${version}`,
    date: new Date().toUTCString(),
    'fspiop-source': source,
    'fspiop-destination': destination,
    ...headers,
  };
  return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** An FSPIOP or third-party message sent to the gateway at `url` with the standard headers, as a participant sends it. */
export async function fspiopAt(url: string, method: string, path: string, call: FspiopCall): Promise<{ status: number; body: any; headers: Headers }> {
  const { body, tls } = call;
  const sent = fspiopHeadersOf(method, path, call);
  // Bytes, not a string: fetch would otherwise add a Content-Type of its own.
  const bytes = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  if (tls) {
    const answer = await httpsRequest(`${url}${path}`, { method, headers: sent, body: bytes, tls });
    const answerHeaders = new Headers(Object.entries(answer.headers).map(([name, value]): [string, string] => [name, String(value)]));
    return { status: answer.status, body: answer.text ? JSON.parse(answer.text) : undefined, headers: answerHeaders };
  }
  const response = await fetch(`${url}${path}`, { method, headers: sent, body: bytes });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** Whatever sends a participant's messages to the switch: a test's harness, or `switchAt` outside one. */
export type Sender = Pick<SwitchHarness, 'fspiop'>;

/** The switch's gateway at `url` as a sender, for code that runs without a harness (the bench). */
export const switchAt = (url: string): Sender => ({ fspiop: (method, path, call) => fspiopAt(url, method, path, call) });

/**
 * A participant's message that the switch must take (200 or 202); any other answer throws, naming the call with its
 * IDs as {ID} so that the same failure always reads the same.
 */
export async function sendAccepted(hub: Sender, method: string, path: string, source: string, destination: string | undefined, body?: unknown): Promise<void> {
  const { status, body: answer } = await hub.fspiop(method, path, { source, destination, body });
  if (status !== 202 && status !== 200)
    throw new Error(`${method} ${path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '{ID}')} refused: ${status} ${JSON.stringify(answer)}`);
}

export interface SwitchFixture {
  hub: SwitchHarness;
  payer: string;
  payee: string;
}

/** A switch started before a test file's tests (handed to `ready`, which runs before them too) and closed after them. */
export function useSwitch(test: TestFn, ready: (hub: SwitchHarness) => void | Promise<void>, options: Parameters<typeof startSwitch>[0] = {}): void {
  let started: SwitchHarness | undefined;
  test.before(async () => {
    started = await startSwitch(options);
    await ready(started);
  });
  test.after.always(async () => {
    await started?.close();
  });
}

/** A switch with a provisioned payer and payee DFSP, for a test file's tests. */
export function withSwitch(test: TestFn): SwitchFixture {
  const fixture = {} as SwitchFixture;
  useSwitch(test, async (hub) => {
    fixture.hub = hub;
    fixture.payer = (await hub.provision()).name;
    fixture.payee = (await hub.provision()).name;
  });
  return fixture;
}
