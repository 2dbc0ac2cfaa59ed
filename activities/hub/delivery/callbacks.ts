import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { addressOf, mediaTypeNameOf, Resource } from '../../shared/contracts/conversations';
import { BASE_ADDRESS_ENDPOINT_TYPES, CallbackEndpointType, THIRDPARTY_ENDPOINT_TYPES } from '../../shared/contracts/endpoints';
import type { ErrorInformation } from '../../shared/contracts/errors';
import type { ParticipantDirectory } from './directory';
import { HubError } from '../../shared/platform/hubError';
import { Agents, bodyText, HttpMethod, httpExchange, isCallback, isRedirect, originatedHeaders } from '../../shared/platform/fspiopHttp';
import { sign } from '../../shared/platform/jws';
import { conversationOf } from '../../shared/contracts/messageLog';
import type { MessageLog } from '../trace/messageLog';
import { namesIso20022, speaksIso20022, type ApiType } from '../../shared/contracts/apiType';
import { iso20022MediaOf, iso20022TextOf } from './iso20022Messages';

/** One HTTP message from the switch to a participant: a forwarded request, a callback or a notification. */
export interface Delivery {
  /** The participant whose endpoint receives it. */
  to: string;
  endpointType: CallbackEndpointType;
  /** Values for the template's {{placeholders}}. */
  params?: Record<string, string | undefined>;
  /** Appended to base-address endpoints (QUOTES, TRX_REQ_SERVICE, AUTHORIZATIONS), e.g. `/quotes/{id}`. */
  path?: string;
  method: HttpMethod;
  /** The headers it arrived with, for a message the switch passes on. */
  headers?: Record<string, string>;
  /**
   * Instead of `headers`: a message the hub originates itself (an error, a notification), sent with
   * FSPIOP-Source = the hub, FSPIOP-Destination = `to`, and dated when it is sent.
   */
  fromHub?: { resource: Resource; version: string; /** Another identity the hub speaks as: its Auth service. */ source?: string };
  body?: unknown;
  /** The sender's body text, forwarded byte for byte (so end-to-end signatures hold) instead of `body`. */
  rawBody?: string;
  /**
   * The conversation it belongs to, for the message log, where its sender knows it: a forwarded ISO 20022 request
   * names its ID where conversationOf does not look.
   */
  conversation?: string;
}

/** A delivery that failed in a way worth retrying (network error, timeout, 5xx). */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

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
  /** Its connections, with the hub's client certificate for participants' HTTPS endpoints. */
  private readonly agents?: Agents;
  /** The hub's JWS key (JWS_SIGNING_KEY_PATH): what the hub originates is signed with it; without one, nothing is. */
  private readonly signingKey?: KeyObject;
  /** Where every delivery is logged for the operator's traces, answered or not. */
  private readonly messageLog?: MessageLog;
  /** API_TYPE: in ISO 20022 mode, what the hub says itself on parties, quotes and transfers goes out as ISO 20022. */
  private readonly apiType?: ApiType;

  constructor(options: {
    directory: ParticipantDirectory;
    log: Logger;
    hubId: string;
    timeoutMs?: number;
    agents?: Agents;
    signingKey?: KeyObject;
    messageLog?: MessageLog;
    apiType?: ApiType;
  }) {
    this.directory = options.directory;
    this.log = options.log;
    this.hubId = options.hubId;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.agents = options.agents;
    this.signingKey = options.signingKey;
    this.messageLog = options.messageLog;
    this.apiType = options.apiType;
  }

  async url(delivery: Delivery): Promise<string> {
    const template = await this.directory.endpoint(delivery.to, delivery.endpointType);
    if (!template) throw new HubError('destinationCommunicationError', `${delivery.to} has no ${delivery.endpointType} endpoint`);
    const url = resolveTemplate(template, delivery.params);
    return BASE_ADDRESS_ENDPOINT_TYPES.includes(delivery.endpointType) ? `${url.replace(/\/+$/, '')}${delivery.path ?? ''}` : url;
  }

  /** The hub's own error about `id`: PUT /{resource}/{ID}/error to `to`, from the hub, in the requester's version. */
  sendHubError(to: string, resource: Resource, id: string, version: string, error: ErrorInformation): Promise<void> {
    return this.send({ to, ...addressOf(resource, 'error', id), method: 'PUT', fromHub: { resource, version }, body: { errorInformation: error } });
  }

  async send(delivery: Delivery): Promise<void> {
    const url = await this.url(delivery);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      // A mistyped endpoint stays mistyped however often it is tried: an operator has to correct it.
      throw new HubError('destinationCommunicationError', `${delivery.to}'s ${delivery.endpointType} endpoint ${url} is not a URL`);
    }
    const { body, headers } = await this.messageOf(delivery, target);
    // The hub signs what it says itself, as its Auth service too, the way a Mojaloop DFSP signs: every message with a
    // body. What it passes on keeps its sender's signature.
    if (delivery.fromHub && this.signingKey && body !== undefined) headers['fspiop-signature'] = await sign(headers, body, this.signingKey);
    let status: number;
    const started = Date.now();
    try {
      ({ status } = await httpExchange(target, delivery.method, headers, body, this.timeoutMs, this.agents));
    } catch (error) {
      const failure = `${delivery.method} ${url} failed: ${(error as Error).message}`;
      this.logDelivery(delivery, target, headers, body, started, { error: failure });
      throw new DeliveryError(failure);
    }
    this.logDelivery(delivery, target, headers, body, started, { status });
    this.log.debug({ to: delivery.to, method: delivery.method, url, status }, 'delivered');
    if (isRedirect(status)) {
      this.log.warn({ to: delivery.to, method: delivery.method, url, status }, 'redirect not followed: the endpoint needs manual investigation');
      throw new HubError('destinationCommunicationError', `${delivery.method} ${url} answered ${status}, a redirect, which is not followed`);
    }
    if (status >= 500) throw new DeliveryError(`${delivery.method} ${url} answered ${status}`);
    if (status >= 400) {
      // The participant refused the message itself; sending it again would not change its mind.
      throw new HubError('destinationCommunicationError', `${delivery.method} ${url} answered ${status}`);
    }
  }

  /**
   * The text and headers of a delivery: a passed-on message's own, or those of one the hub writes itself, in a version
   * its addressee reads (ParticipantDirectory.versionFor); in ISO 20022 mode one on parties, quotes or transfers is made
   * ISO 20022 here, in one place for every sender.
   */
  private async messageOf(delivery: Delivery, target: URL): Promise<{ body?: string; headers: Record<string, string> }> {
    const text = delivery.rawBody ?? (delivery.body === undefined ? undefined : bodyText(delivery.body));
    const { fromHub } = delivery;
    if (!fromHub) return { body: text, headers: forwardedHeaders(delivery) };
    const { resource } = fromHub;
    const source = fromHub.source ?? this.hubId;
    const addressing = { resource, source, destination: delivery.to, target, method: delivery.method };
    if (speaksIso20022(this.apiType, resource)) {
      const iso = await iso20022TextOf({ ...delivery, resource, source, destination: delivery.to });
      return { body: iso, headers: originatedHeaders({ ...addressing, ...iso20022MediaOf(resource) }) };
    }
    if (namesIso20022(this.apiType, resource)) return { body: text, headers: originatedHeaders({ ...addressing, ...iso20022MediaOf(resource) }) };
    const fspiop = mediaTypeNameOf(resource) !== 'thirdparty';
    const version = fspiop ? await this.directory.versionFor(delivery.to, fromHub.version) : fromHub.version;
    return { body: text, headers: originatedHeaders({ ...addressing, version }) };
  }

  private logDelivery(
    delivery: Delivery,
    target: URL,
    headers: Record<string, string>,
    body: string | undefined,
    started: number,
    outcome: { status?: number; error?: string },
  ): void {
    if (!this.messageLog) return;
    const conversation = delivery.conversation ?? conversationOf(delivery.method, target.pathname, delivery.body ?? postedBody(delivery));
    if (!conversation) return;
    this.messageLog.record({
      direction: 'out',
      conversation,
      method: delivery.method,
      target: target.href,
      source: headers['fspiop-source'],
      destination: delivery.to,
      headers,
      body,
      ...outcome,
      error: outcome.error ?? (outcome.status !== undefined && outcome.status >= 300 ? `answered ${outcome.status}` : undefined),
      at: new Date(started),
      durationMs: Date.now() - started,
    });
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

/**
 * A passed-on message keeps its sender's headers, except Accept on a callback (see isCallback) and FSPIOP-Destination, which names the participant it goes to, as
 * Mojaloop's services set it also where the sender named none (the switch found the destination in the body). A signed
 * message with a body is left as signed: Mojaloop's validator refuses a destination its signature does not name.
 */
function forwardedHeaders(delivery: Delivery): Record<string, string> {
  const headers: Record<string, string> = { ...delivery.headers };
  if (!(delivery.rawBody !== undefined && headers['fspiop-signature'])) headers['fspiop-destination'] = delivery.to;
  if (isCallback(delivery.method, (THIRDPARTY_ENDPOINT_TYPES as readonly string[]).includes(delivery.endpointType))) delete headers.accept;
  return headers;
}

/** A forwarded POST's body, read only for the ID of the conversation it starts (its path names none). */
function postedBody(delivery: Delivery): unknown {
  if (delivery.method !== 'POST' || delivery.rawBody === undefined) return undefined;
  try {
    return JSON.parse(delivery.rawBody);
  } catch {
    return undefined;
  }
}
