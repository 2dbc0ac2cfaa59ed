import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { MessageName, Resource } from '../contracts/conversations';
import { METHOD_OF, PeerMessage } from '../contracts/peers';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/httpError';
import { peerMessageSignal } from '../../workflows/participant/inbox';

/** What an inbound message needs to reach its conversation. */
export interface InboundDependencies {
  client: Client;
  taskQueue: string;
  log: Logger;
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

/** The Koa paths of a message: its `{ID}` is one segment, except the `{Type}/{ID}[/{SubId}]` of parties and participants. */
function pathsOf(resource: Resource, name: MessageName): string[] {
  if (name === 'request') return [`/${resource}`];
  const suffix = name === 'error' ? '/error' : '';
  if (resource === 'parties' || resource === 'participants') return [`/${resource}/:Type/:ID${suffix}`, `/${resource}/:Type/:ID/:SubId${suffix}`];
  return [`/${resource}/:ID${suffix}`];
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
  // Error routes first: PUT /parties/{Type}/{ID}/error also matches an answer's /parties/:Type/:ID/:SubId.
  const errorsFirst = [...routes].sort((a, b) => Number(b.name === 'error') - Number(a.name === 'error'));
  for (const route of errorsFirst) {
    const method = METHOD_OF[route.name];
    const isCallback = method === 'PUT' || method === 'PATCH';
    for (const path of pathsOf(route.resource, route.name)) {
      router.register(path, [method], async (ctx: Context) => {
        const source = ctx.get('fspiop-source');
        if (!source) throw new HttpError(400, 'missingElement', 'FSPIOP-Source header is required');
        const { body } = method === 'GET' || method === 'DELETE' ? { body: undefined } : await readJsonBody(ctx);
        const message: PeerMessage = {
          resource: route.resource,
          name: route.name,
          id: idOf(ctx),
          source,
          headers: ctx.headers as Record<string, string>,
          body: route.validate ? route.validate(body) : body,
        };
        await route.deliver(message, deps);
        ctx.status = route.ack ?? (isCallback ? 200 : 202);
      });
    }
  }
  return router;
}
