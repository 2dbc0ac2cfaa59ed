import Router from '@koa/router';
import { TLSSocket } from 'node:tls';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { MessageName, Resource } from '../../activities/shared/contracts/conversations';
import { METHOD_OF, participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { validateFspiop } from '../../activities/shared/contracts/schemas';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { peerMessageSignal } from '../../workflows/participant/inbox';
import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import { inboundSignatures, type SignatureCheck } from './inboundSignatures';

/** What an inbound message needs to reach its conversation. */
export interface InboundDependencies {
  client: Client;
  taskQueue: string;
  log: Logger;
  /** HUB_PARTICIPANT_NAME: the FSPIOP-Source of what the switch says as itself (PeerMessage.fromSwitch). */
  hubParticipantName: string;
  /** With VALIDATE_INBOUND_JWS: the signature check of every message with a body (inboundSignatures). */
  checkSignature?: SignatureCheck;
  /**
   * What makes a message's FSPIOP-Source true (connectorExposureProblem requires one beyond loopback): `certificate`,
   * the switch's client certificate on the connection; `signature`, VALIDATE_INBOUND_JWS alone, which binds only a
   * message with a body to its sender, so one without a body is never the switch's; `network`, loopback or a network
   * that lets only the switch through.
   */
  senderProof: 'certificate' | 'signature' | 'network';
}

/** How the connector knows the switch sends: its certificate, else signatures if it checks them, else the network. */
export function senderProofOf(config: { inboundTls?: unknown; validateInboundJws?: boolean }): InboundDependencies['senderProof'] {
  if (config.inboundTls) return 'certificate';
  return config.validateInboundJws ? 'signature' : 'network';
}

/** What every connector's inbound gateway needs, from its configuration. */
export function connectorInbound(client: Client, config: ConnectorConfig, log: Logger): InboundDependencies {
  return {
    client,
    taskQueue: config.taskQueue,
    log,
    hubParticipantName: config.hubParticipantName,
    checkSignature: inboundSignatures(config),
    senderProof: senderProofOf(config),
  };
}

/** One message a connector takes from the switch. */
export interface InboundRoute {
  resource: Resource;
  name: MessageName;
  /** Checks the body against its schema, throwing the 400 for it (validateThirdparty / validateFspiop). */
  validate?: (body: unknown) => unknown;
  /** The status the message is acknowledged with: 202 for requests, 200 for callbacks, unless its document says otherwise. */
  ack?: 200 | 202;
  /** Hands the message to the conversation it belongs to, once it is acknowledged. */
  deliver: (message: PeerMessage, deps: InboundDependencies) => Promise<void>;
}

/** Hands a message to the running conversation `workflowId`; one nobody waits for any more is logged and dropped. */
export async function handTo(workflowId: string, message: PeerMessage, { client, log }: InboundDependencies): Promise<void> {
  try {
    await client.workflow.getHandle(workflowId).signal(peerMessageSignal, message);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    log.info({ workflowId, resource: message.resource, name: message.name, id: message.id }, 'no conversation waits for this message');
  }
}

/**
 * Hands a message to the first of `workflowIds` that is running; one none of them waits for is logged and dropped.
 * For a message whose conversation the path ID alone does not name: PUT /transfers/{ID}/error answers a DFSP's own
 * transfer as payer (its exchange) and aborts one it took as payee (its payee conversation), and only one of the two
 * can be running, since a transfer's payer and payee differ.
 */
export async function handToFirstRunning(workflowIds: string[], message: PeerMessage, { client, log }: InboundDependencies): Promise<void> {
  for (const workflowId of workflowIds) {
    try {
      await client.workflow.getHandle(workflowId).signal(peerMessageSignal, message);
      return;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  log.info({ workflowIds, resource: message.resource, name: message.name, id: message.id }, 'no conversation waits for this message');
}

/** Starts the conversation `workflowId` with this message as its first, or hands it to the one already running. */
export async function startWith(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  message: PeerMessage,
  { client, taskQueue }: InboundDependencies,
): Promise<void> {
  await client.workflow.signalWithStart(workflowType, { workflowId, taskQueue, args, signal: peerMessageSignal, signalArgs: [message] });
}

/**
 * The answer (PUT) and error (PUT …/error) to a request a connector sent: handed to the exchange waiting for it, by
 * resource and path ID (participantWorkflowIds.exchange).
 */
export function answersTo(resource: Resource, validateAnswer: (body: unknown) => unknown, ack?: 200 | 202): InboundRoute[] {
  return (['answer', 'error'] as const).map((name) => ({
    resource,
    name,
    ack,
    validate: name === 'answer' ? validateAnswer : (body) => validateFspiop('ErrorInformationObject', body),
    deliver: (message, deps) => handTo(participantWorkflowIds.exchange(resource, message.id!), message, deps),
  }));
}

/** The Koa paths of a message: its `{ID}` is one segment, except the `{Type}/{ID}[/{SubId}]` of parties and participants. */
function pathsOf(resource: Resource, name: MessageName): string[] {
  if (name === 'request') return [`/${resource}`];
  const suffix = name === 'error' ? '/error' : '';
  if (resource === 'parties' || resource === 'participants') return [`/${resource}/:Type/:ID${suffix}`, `/${resource}/:Type/:ID/:SubId${suffix}`];
  return [`/${resource}/:ID${suffix}`];
}

/**
 * With INBOUND_MUTUAL_TLS_ENABLED the TLS handshake has checked the client certificate's CA; this checks that it is the
 * switch's (its subject CN is HUB_PARTICIPANT_NAME, as a participant's CN is its name), since a scheme's CA signs
 * participants' certificates too and a participant must not reach another's connector but through the switch.
 */
function refuseAllButTheSwitch(ctx: Context, hubParticipantName: string): void {
  const socket = ctx.req.socket;
  // Null once the socket has closed under the request: nobody is bound, so nothing is taken.
  const certificate = socket instanceof TLSSocket ? socket.getPeerCertificate() : undefined;
  if (!(socket instanceof TLSSocket) || !socket.authorized || certificate?.subject?.CN !== hubParticipantName) {
    throw new HttpError(403, 'validationError', `only the switch (a client certificate for ${hubParticipantName}) delivers here`);
  }
}

/** The headers a conversation may need later (FSPIOP's own, its date and media type), not every header of the request: each is kept in history. */
function fspiopHeadersOf(headers: Context['headers']): Record<string, string> {
  const kept = Object.entries(headers).filter(
    ([name, value]) => typeof value === 'string' && (name.startsWith('fspiop-') || name === 'date' || name === 'content-type'),
  );
  return Object.fromEntries(kept) as Record<string, string>;
}

function idOf(ctx: Context): string | undefined {
  const { Type, ID, SubId } = ctx.params as Record<string, string | undefined>;
  if (ID === undefined) return undefined;
  return [Type, ID, SubId].filter((part) => part !== undefined).join('/');
}

/**
 * The connector's inbound API (the endpoints it registers at the hub): each message is checked, acknowledged, and
 * handed to its conversation's workflow as a signal. Hand-over happens before the acknowledgement, so a 2xx means
 * Temporal has the message; if Temporal is out of reach the switch gets a 503 and retries.
 */
export function inboundRouter(routes: InboundRoute[], deps: InboundDependencies): Router {
  const router = new Router();
  // Error routes first: PUT /parties/{Type}/{ID}/error would otherwise match an answer's /{Type}/{ID}/{SubId}.
  const errorsFirst = [...routes.filter((route) => route.name === 'error'), ...routes.filter((route) => route.name !== 'error')];
  for (const route of errorsFirst) {
    const method = METHOD_OF[route.name];
    const isCallback = method === 'PUT' || method === 'PATCH';
    for (const path of pathsOf(route.resource, route.name)) {
      router.register(path, [method], async (ctx: Context) => {
        if (deps.senderProof === 'certificate') refuseAllButTheSwitch(ctx, deps.hubParticipantName);
        const source = ctx.get('fspiop-source');
        if (!source) throw new HttpError(400, 'missingElement', 'FSPIOP-Source header is required');
        const { body, text } = method === 'GET' || method === 'DELETE' ? { body: undefined, text: '' } : await readJsonBody(ctx);
        const headers = fspiopHeadersOf(ctx.headers);
        if (deps.checkSignature && body !== undefined) await deps.checkSignature(headers, text);
        const message: PeerMessage = {
          resource: route.resource,
          name: route.name,
          id: idOf(ctx),
          source,
          fromSwitch: source === deps.hubParticipantName && (deps.senderProof !== 'signature' || body !== undefined),
          ...(deps.senderProof === 'signature' ? { viaSwitch: false as const } : {}),
          headers,
          body: route.validate ? route.validate(body) : body,
        };
        await route.deliver(message, deps);
        ctx.status = route.ack ?? (isCallback ? 200 : 202);
      });
    }
  }
  return router;
}
