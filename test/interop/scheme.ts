import crypto from 'node:crypto';
import { answerBody } from '../helpers/http';
import { adminCall, positionOf, type HubProcesses } from '../helpers/hubProcesses';
import type { DfspBackend } from './backend';
import type { JwsKeys } from './jws';
import type { SdkAdapter, Tap } from './peers';

/** What every scenario of the suite shares: the hub under test, the SDK DFSPs, and the calls the suite makes of them. */

export const CURRENCY = 'USD';

/** The hub under test; `jws` when it and every participant sign and validate with the run's keys. */
export type Hub = Pick<HubProcesses, 'switchUrl' | 'adminUrl' | 'stop'> & { temporalAddress: string; jws?: JwsKeys };

/** A stock sdk-scheme-adapter DFSP: its backend, and a tap recording what the hub delivers to it. */
export interface Dfsp {
  name: string;
  sdk: SdkAdapter;
  backend: DfspBackend;
  tap: Tap;
}

/** A participant's position, as the admin API reports it. */
export const position = (hub: Pick<Hub, 'adminUrl'>, name: string) => positionOf(hub.adminUrl, name, CURRENCY);

export const admin = (hub: Hub, method: string, urlPath: string, body?: unknown) => adminCall(hub.adminUrl, method, urlPath, body);

/** A call of an sdk-scheme-adapter's outbound API, as its DFSP's own systems make it. */
export async function outbound(dfsp: Pick<Dfsp, 'sdk'>, method: string, urlPath: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${dfsp.sdk.outboundUrl}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: response.status, body: await answerBody(response) };
}

export const msisdn = () => `4470${crypto.randomInt(10 ** 7, 10 ** 8)}`;

/** Sends a message to the switch as given; its status and ErrorInformation code, if it was refused. */
export async function sendRaw(
  hub: Hub,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${hub.switchUrl}${urlPath}`, { method, headers, body });
  const answer = (await answerBody(response)) as { errorInformation?: { errorCode?: string } } | undefined;
  return { status: response.status, code: answer?.errorInformation?.errorCode };
}

/** The third-party API's resources, whose messages share one media type. */
const THIRDPARTY_RESOURCES = new Set(['accounts', 'consentRequests', 'consents', 'thirdpartyRequests']);

/**
 * A message sent to the hub the way a participant sends it, with the FSPIOP headers of its resource (the third-party
 * API's for its resources), signed if it has a body.
 */
export async function sendFspiop(hub: Hub, method: string, urlPath: string, from: string, to: string | undefined, body?: unknown): Promise<number> {
  const resource = urlPath.split(/[/?]/)[1];
  const type = THIRDPARTY_RESOURCES.has(resource) ? 'thirdparty' : resource;
  const headers: Record<string, string> = {
    ...(method === 'PUT' ? {} : { accept: `application/vnd.interoperability.${type}+json;version=1` }),
    'content-type': `application/vnd.interoperability.${type}+json;version=1.0`,
    date: new Date().toUTCString(),
    'fspiop-source': from,
    ...(to === undefined ? {} : { 'fspiop-destination': to }),
  };
  const text = body === undefined ? undefined : JSON.stringify(body);
  const signed = hub.jws && text !== undefined ? await hub.jws.signedBy(from, method, urlPath, headers, text) : headers;
  return (await sendRaw(hub, method, urlPath, signed, text)).status;
}
