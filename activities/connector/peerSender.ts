import type { KeyObject } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';
import { THIRDPARTY_RESOURCES, THIRDPARTY_VERSION } from '../shared/contracts/conversations';
import { errorInformation, ErrorInformation, HUB_REJECTION } from '../shared/contracts/errors';
import { METHOD_OF, OutgoingMessage, pathOf } from '../shared/contracts/peers';
import { Agents, bodyText, createAgents, httpExchange, isRedirect, originatedHeaders } from '../shared/platform/fspiopHttp';
import { readSigningKey, sign } from '../shared/platform/jws';
import { outboundCredentials } from '../shared/platform/tlsFiles';
import type { OutboundTlsConfig } from './connectorConfig';

/** The FSPIOP version a connector speaks: Mojaloop's current one. */
export const FSPIOP_VERSION = '1.1';

/** The ErrorInformation of a switch's 4xx answer, or a generic one when its body has none. */
function refusalOf(status: number, text: string): ErrorInformation {
  try {
    const parsed = JSON.parse(text) as { errorInformation?: ErrorInformation };
    if (parsed.errorInformation?.errorCode) return parsed.errorInformation;
  } catch {
    // not JSON: described below
  }
  return errorInformation('clientError', `the switch answered ${status}`);
}

/**
 * Sends a participant's messages to the switch (its PEER_ENDPOINT), with the participant as FSPIOP-Source and the
 * headers Mojaloop's SDK sets. It sends once: activities retry with backoff. A network error or 5xx is worth
 * retrying; a 4xx is the switch refusing the message, which it would refuse again, so it ends the activity with the
 * switch's ErrorInformation for the workflow to act on; a 3xx ends it too, unfollowed.
 */
export class PeerSender {
  private readonly signingKey?: KeyObject;
  private readonly agents: Agents;

  constructor(
    private readonly options: {
      participantId: string;
      peerEndpoint: string;
      timeoutMs?: number;
      jwsSigningKeyPath?: string;
      outboundTls?: OutboundTlsConfig;
      log: Logger;
    },
  ) {
    this.signingKey = options.jwsSigningKeyPath ? readSigningKey(options.jwsSigningKeyPath) : undefined;
    // OUTBOUND_MUTUAL_TLS_ENABLED's files, read at start so that a wrong path stops the connector with its name.
    const tls = options.outboundTls;
    this.agents = createAgents(
      tls &&
        outboundCredentials({ outboundClient: tls.client, outboundCaPath: tls.caPath }, { client: "the connector's client", ca: "the switch's server CA" }),
    );
  }

  async send(message: OutgoingMessage): Promise<void> {
    const { participantId, peerEndpoint, timeoutMs = 10_000, log } = this.options;
    const method = METHOD_OF[message.name];
    const target = new URL(`${peerEndpoint.replace(/\/+$/, '')}${pathOf(message)}`);
    const thirdparty = (THIRDPARTY_RESOURCES as readonly string[]).includes(message.resource);
    const headers = originatedHeaders({
      resource: message.resource,
      version: thirdparty ? THIRDPARTY_VERSION : FSPIOP_VERSION,
      source: participantId,
      destination: message.to,
      target,
      method,
    });
    const body = message.body === undefined ? undefined : bodyText(message.body);
    if (this.signingKey && body !== undefined) headers['fspiop-signature'] = await sign(headers, body, this.signingKey);
    const { status, text } = await httpExchange(target, method, headers, body, timeoutMs, this.agents);
    log.debug({ method, url: target.href, status }, 'sent to the switch');
    if (status >= 500 || status === 0) throw new Error(`${method} ${target.href} answered ${status}`);
    if (isRedirect(status)) {
      log.warn({ method, url: target.href, status }, 'redirect not followed: PEER_ENDPOINT needs manual investigation');
      throw refused(method, target, errorInformation('communicationError', `the switch answered ${status}, a redirect, which is not followed`));
    }
    if (status >= 400) throw refused(method, target, refusalOf(status, text));
  }
}

/** The end of an activity whose message the switch would refuse again (Document 2: a 3xx is not retried either). */
function refused(method: string, target: URL, refusal: ErrorInformation): ApplicationFailure {
  return ApplicationFailure.create({
    message: `${method} ${target.pathname} refused: ${refusal.errorCode} ${refusal.errorDescription}`,
    type: HUB_REJECTION,
    nonRetryable: true,
    details: [refusal],
  });
}
