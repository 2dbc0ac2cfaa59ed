import type { FspiopHeaders, ReceivedCallback, ReceivedRequest } from '../../activities/shared/contracts/messages';
import { requestHash } from '../../activities/shared/contracts/requestHash';
import type { StubActivities } from './stubbedWorkflows';

// The hub's side of workflow tests: participants' messages as the gateway hands them to a conversation, and the
// messages the conversation sent, read from its stub deliveries.

/** The hub's deliveries as stubs that take every message: what was sent is read from the calls (`hubMessages`). */
export const deliveredByHub = { deliver: async () => undefined, deliverFromHub: async () => undefined };

/** A participant's request as the gateway hands it to its workflow: the body as sent, its headers, hash and version. */
export function receivedRequest<Body>(body: Body, from: string, to?: string, version = '1.1'): ReceivedRequest<Body> {
  return { body, rawBody: JSON.stringify(body), headers: fspiopHeaders(from, to), requestHash: requestHash(body), version };
}

/** A participant's callback as the gateway signals it: headers, body and body text. */
export function receivedCallback<Body>(body: Body, from: string, to?: string): ReceivedCallback<Body> {
  return { headers: fspiopHeaders(from, to), body, rawBody: JSON.stringify(body) };
}

/** The headers a participant's message reaches the hub with (lower-case, as the gateway hands them on). */
export function fspiopHeaders(from: string, to?: string): FspiopHeaders {
  return { 'fspiop-source': from, ...(to ? { 'fspiop-destination': to } : {}), date: new Date().toUTCString() };
}

/** A message the hub sent, as the stub deliveries saw it. */
export interface SentMessage {
  to: string;
  method: string;
  path: string;
  /** The hub's own message (deliverFromHub) rather than a participant's passed on (deliver). */
  fromHub: boolean;
  /** The participant's headers, for a message passed on. */
  headers?: FspiopHeaders;
  rawBody?: string;
  body?: any;
}

/** Every message the hub's stub deliveries were asked to send (`deliver`, `deliverFromHub`), in order. */
export function hubMessages(stubs: StubActivities): SentMessage[] {
  return stubs.calls
    .filter(({ activity }) => activity === 'deliver' || activity === 'deliverFromHub')
    .map(({ activity, args: [delivery] }) => ({
      to: delivery.to,
      method: delivery.method,
      path: delivery.path,
      fromHub: activity === 'deliverFromHub',
      headers: delivery.headers,
      rawBody: delivery.rawBody,
      body: delivery.body ?? (delivery.rawBody ? JSON.parse(delivery.rawBody) : undefined),
    }));
}

/** The error codes the hub sent `to` (its own errors and participants' passed on), in order. */
export function errorCodesTo(stubs: StubActivities, to: string): string[] {
  return hubMessages(stubs)
    .filter((message) => message.to === to && message.path.endsWith('/error'))
    .map((message) => message.body.errorInformation.errorCode);
}
