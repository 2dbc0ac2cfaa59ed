import type { ErrorInformation } from './errors';

/** The FSPIOP headers a message arrived with, lower-case, as the switch forwards them. */
export type FspiopHeaders = Record<string, string>;

/** A request as the gateway hands it to its workflow. */
export interface ReceivedRequest<Body> {
  body: Body;
  /** The body as sent, forwarded unchanged. */
  rawBody: string;
  headers: FspiopHeaders;
  /** SHA-256 of the canonical body: the duplicate rule compares requests by it. */
  requestHash: string;
  /** The FSPIOP version the hub answers in. */
  version: string;
}

/** A repeated POST with an ID that is already in progress (spec general rule 3). */
export interface RepeatedRequest {
  requestHash: string;
  headers: FspiopHeaders;
}

/** A callback from a participant: its headers and body, forwarded unchanged where the spec says so. */
export interface ReceivedCallback<Body> {
  headers: FspiopHeaders;
  body: Body;
  /** The body as sent, forwarded unchanged. */
  rawBody: string;
}

/**
 * A callback the switch passes on without reading it: its headers and the body as sent. Parsed, a bulk answer
 * would travel twice in every signal and follow-up that carries it.
 */
export type RelayedCallback = Pick<ReceivedCallback<unknown>, 'headers' | 'rawBody'>;

export interface ErrorCallbackBody {
  errorInformation: ErrorInformation;
}
