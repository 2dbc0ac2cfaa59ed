import type { Logger } from 'pino';
import type { ParticipantDirectory } from './directory';
import { HubError } from './hubError';

/** One HTTP message from the switch to a participant: a forwarded request, a callback or a notification. */
export interface Delivery {
  /** The participant whose endpoint receives it. */
  to: string;
  endpointType: string;
  /** Values for the template's {{placeholders}}. */
  params?: Record<string, string | undefined>;
  /** Appended to base-address endpoints (QUOTES, TRX_REQ_SERVICE, AUTHORIZATIONS), e.g. `/quotes/{id}`. */
  path?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The headers it arrived with, for a message the switch passes on. */
  headers?: Record<string, string>;
  /**
   * Instead of `headers`: a message the hub originates itself (an error, a notification), sent with
   * FSPIOP-Source = the hub, FSPIOP-Destination = `to`, and dated when it is sent.
   */
  fromHub?: { resource: string; version: string };
  body?: unknown;
  /** The sender's body text, forwarded byte for byte (so end-to-end signatures hold) instead of `body`. */
  rawBody?: string;
}

/** A delivery that failed in a way worth retrying (network error, timeout, 5xx). */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

const BASE_ADDRESS_TYPES = new Set(['FSPIOP_CALLBACK_URL_QUOTES', 'FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE', 'FSPIOP_CALLBACK_URL_AUTHORIZATIONS', 'FSPIOP_CALLBACK_URL_BULK_QUOTES']);

export function resolveTemplate(template: string, params: Record<string, string | undefined> = {}): string {
  return template.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => {
    const value = params[name];
    return value === undefined ? '' : encodeURIComponent(value);
  });
}

/**
 * Sends deliveries to the addresses participants registered. It sends once: callers retry with
 * backoff (activities through Temporal's retry policy, the stateless lookups through `sendWithRetry`).
 */
export class CallbackSender {
  private readonly directory: ParticipantDirectory;
  private readonly log: Logger;
  /** FSPIOP-Source of the messages the hub originates. */
  readonly hubId: string;
  private readonly timeoutMs: number;

  constructor(options: { directory: ParticipantDirectory; log: Logger; hubId: string; timeoutMs?: number }) {
    this.directory = options.directory;
    this.log = options.log;
    this.hubId = options.hubId;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async url(delivery: Delivery): Promise<string> {
    const template = await this.directory.endpoint(delivery.to, delivery.endpointType);
    if (!template) throw new HubError('destinationCommunicationError', `${delivery.to} has no ${delivery.endpointType} endpoint`);
    const url = resolveTemplate(template, delivery.params);
    return BASE_ADDRESS_TYPES.has(delivery.endpointType) ? `${url.replace(/\/+$/, '')}${delivery.path ?? ''}` : url;
  }

  async send(delivery: Delivery): Promise<void> {
    const url = await this.url(delivery);
    const body = delivery.rawBody ?? (delivery.body === undefined ? undefined : JSON.stringify(delivery.body));
    const headers = delivery.fromHub ? hubHeaders({ ...delivery.fromHub, hubId: this.hubId, destination: delivery.to }) : (delivery.headers ?? {});
    let response: Response;
    try {
      response = await fetch(url, {
        method: delivery.method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.arrayBuffer();
    } catch (error) {
      throw new DeliveryError(`${delivery.method} ${url} failed: ${(error as Error).message}`);
    }
    this.log.debug({ to: delivery.to, method: delivery.method, url, status: response.status }, 'delivered');
    if (response.status >= 500) throw new DeliveryError(`${delivery.method} ${url} answered ${response.status}`);
    if (response.status >= 400) {
      // The participant refused the message itself; sending it again would not change its mind.
      throw new HubError('destinationCommunicationError', `${delivery.method} ${url} answered ${response.status}`);
    }
  }

  /** For deliveries made outside a workflow (stateless lookups): a few attempts with exponential backoff. */
  async sendWithRetry(delivery: Delivery, attempts = 4, firstDelayMs = 200): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(delivery);
      } catch (error) {
        if (!(error instanceof DeliveryError) || attempt >= attempts) {
          this.log.warn({ to: delivery.to, method: delivery.method, err: (error as Error).message }, 'delivery failed');
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, firstDelayMs * 2 ** (attempt - 1)));
      }
    }
  }
}

/** Headers of a message the hub originates itself (errors, timeouts, notifications): FSPIOP-Source is the hub. */
function hubHeaders(options: { resource: string; version: string; hubId: string; destination: string }): Record<string, string> {
  return {
    'content-type': `application/vnd.interoperability.${options.resource}+json;version=${options.version}`,
    date: new Date().toUTCString(),
    'fspiop-source': options.hubId,
    'fspiop-destination': options.destination,
  };
}
