import { FSPIOP_RESOURCES, THIRDPARTY_RESOURCES } from './conversations';

/**
 * The switch's message log: every message a participant sent it and every one it delivered, kept with its headers
 * and body under the conversation it belongs to, so an operator can trace a transfer (or a quote, a bulk, a
 * transaction request, a third-party transaction) message by message. Shared by the gateway, which logs what it
 * receives, the delivery activities, which log what they send, and the admin API, which reads it.
 */

/** One message as the switch received or sent it. */
export interface LoggedMessage {
  /** `in`: a participant sent it to the switch; `out`: the switch delivered it. */
  direction: 'in' | 'out';
  /** The conversation it belongs to (conversationOf). */
  conversation: string;
  method: string;
  /** The path it was sent to (in), or the URL it was delivered to (out). */
  target: string;
  /** Its FSPIOP-Source and FSPIOP-Destination, where it names them. */
  source?: string;
  destination?: string;
  /**
   * A message received: the participant the gateway's checks found had sent it (an active one, the one its client
   * certificate names with mutual TLS); none where it was refused before they found one. The log's share of entries a
   * minute counts it against this participant, and a delivery against its destination.
   */
  sender?: string;
  headers: Record<string, string>;
  body?: string;
  /** The HTTP status it was answered with; none where it never got an answer. */
  status?: number;
  /** Why it failed, where it did: the answer's ErrorInformation, or why it could not be delivered. */
  error?: string;
  /** When it arrived or was sent, and how long its answer took. */
  at: Date;
  durationMs: number;
}

/** The first path segment of every resource the switch routes. */
const RESOURCE_SEGMENTS = new Set([...FSPIOP_RESOURCES, ...THIRDPARTY_RESOURCES.map((resource) => resource.split('/')[0])]);

/** The field of a POST body that holds the ID of the conversation it starts, per resource. */
const POSTED_IDS: Record<string, string> = {
  quotes: 'quoteId',
  transfers: 'transferId',
  transactionRequests: 'transactionRequestId',
  bulkQuotes: 'bulkQuoteId',
  bulkTransfers: 'bulkTransferId',
  participants: 'requestId',
  consentRequests: 'consentRequestId',
  consents: 'consentId',
  'thirdpartyRequests/transactions': 'transactionRequestId',
  'thirdpartyRequests/authorizations': 'authorizationRequestId',
  'thirdpartyRequests/verifications': 'verificationRequestId',
};

/**
 * The conversation a message belongs to: its resource and the ID the path names (`PUT /transfers/{ID}/error` →
 * `transfers/{ID}`; `GET /parties/MSISDN/123` → `parties/MSISDN/123`), or for a POST to a collection the ID its
 * body names (`POST /transfers` → `transfers/{transferId}`). Undefined for a path that names no conversation.
 */
export function conversationOf(method: string, path: string, body: unknown): string | undefined {
  const all = path
    .split('?')[0]
    .split('/')
    .filter((segment) => segment !== '');
  // A participant's endpoint may sit below a base path of its own: the resource is the first segment that names one.
  const start = all.findIndex((segment) => RESOURCE_SEGMENTS.has(segment));
  if (start < 0) return undefined;
  const segments = all.slice(start);
  const resourceLength = segments[0] === 'thirdpartyRequests' ? 2 : 1;
  if (segments.length < resourceLength) return undefined;
  const resource = segments.slice(0, resourceLength).join('/');
  const rest = segments.slice(resourceLength);
  if (rest[rest.length - 1] === 'error') rest.pop();
  if (rest.length > 0) return [resource, ...rest.map(decodeSegment)].join('/');
  const field = POSTED_IDS[resource];
  const id = method === 'POST' && field && typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof id === 'string' ? `${resource}/${id}` : undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The trace ID of a W3C `traceparent` (`00-<trace-id>-<parent-id>-<flags>`), lower-case; undefined if it is not one. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  const match = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/i.exec(traceparent?.trim() ?? '');
  return match && !/^0+$/.test(match[1]) ? match[1].toLowerCase() : undefined;
}
