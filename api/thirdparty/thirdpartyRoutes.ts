import Router from '@koa/router';
import type { Workflow } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type SearchAttributePair } from '@temporalio/common';
import type { Context } from 'koa';
import type { MessageName, ThirdpartyResource } from '../../activities/shared/contracts/conversations';
import type { ObservedFacts, ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { observedMessageSignal } from '../../workflows/kit/observer';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { participantMessage, ResourceRoutes, SwitchDependencies } from '../fspiop/switchApp';
import { startFollowUp } from '../fspiop/conversationRoutes';
import { signalIfRunning } from '../fspiop/conversations';
import type { FspiopRequest } from '../fspiop/headers';
import { decodeSegment } from '../fspiop/parties';
import { accepted, ok } from '../fspiop/replies';
import { routedMessage } from '../fspiop/routed';
import { pathId, ThirdpartySchema, validateFspiop, validateThirdparty, validateThirdpartyOneOf } from '../../activities/shared/contracts/schemas';

/** A third-party message as the gateway took it: checked headers, the resource's ID, the validated body as sent. */
export interface ThirdpartyMessage<Body> {
  resource: ThirdpartyResource;
  message: MessageName;
  id: string;
  fspiop: FspiopRequest;
  body: Body;
  rawBody?: string;
  /** Which of the body's schemas it matched (POST /consents: the grant to the PISP or the registration with the Auth service). */
  schema?: ThirdpartySchema;
}

/** The workflow that follows a message's conversation, and how to start it if the message is its first. */
export interface ObserverRef {
  workflowId: string;
  workflow: Workflow;
  /** The resource whose POST opens the conversation: only that request starts the observer. */
  openedBy: ThirdpartyResource;
  searchAttributes: SearchAttributePair[];
  summary: string;
}

/** 200: the message was received; 202: it was accepted, and is a request whose answer comes later. */
type Ack = 200 | 202;

/** One message of a resource: its method and path, its body, and what the switch does with it besides routing. */
export interface MessageDeclaration<Body = never> {
  message: MessageName;
  /**
   * Its acknowledgement, where the third-party OpenAPI document gives it another than its kind's (ROUTES): a PUT or
   * PATCH that asks something of its receiver is a request there, answered 202.
   */
  ack?: Ack;
  /**
   * The body's schema, or its alternatives (a `oneOf` of the third-party document), which `pick` tells apart. An
   * error callback's body is always FSPIOP's ErrorInformationObject, to which the third-party document's error paths
   * refer.
   */
  schemas?: readonly ThirdpartySchema[];
  /** Which of the `schemas` a body is, by the tag the API gives its alternatives (read with `tagOf`). */
  pick?: (body: unknown) => ThirdpartySchema;
  /** A POST's resource ID, read from its body. */
  idOf?: (body: Body) => string;
  /** What the message's observer reads of it. */
  facts?: (body: Body, message: ThirdpartyMessage<Body>) => ObservedFacts;
  /** The conversation the message belongs to, if it is observed. */
  observer?: (message: ThirdpartyMessage<Body>, deps: SwitchDependencies) => Promise<ObserverRef | undefined> | ObserverRef | undefined;
  /**
   * Work of the switch's own for the message (its Auth service, the services list): true when the switch has taken
   * the message itself and routes nothing. It may throw an HttpError to refuse the message.
   */
  takenByHub?: (message: ThirdpartyMessage<Body>, deps: SwitchDependencies) => Promise<boolean>;
}

/** A third-party resource (Document 1): how its {ID} is checked and the messages it has. */
export interface ThirdpartyDeclaration {
  resource: ThirdpartyResource;
  /** Checks the path's {ID}: a CorrelationId unless the resource names something else by it. */
  checkId?: (id: string) => void;
  messages: MessageDeclaration<any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Each message's method and path, and its acknowledgement unless its declaration names another. */
const ROUTES: Record<MessageName, { method: 'post' | 'get' | 'put' | 'patch' | 'delete'; path: string; ack: Ack }> = {
  request: { method: 'post', path: '/', ack: 202 },
  get: { method: 'get', path: '/:id', ack: 202 },
  answer: { method: 'put', path: '/:id', ack: 200 },
  patch: { method: 'patch', path: '/:id', ack: 200 },
  delete: { method: 'delete', path: '/:id', ack: 202 },
  error: { method: 'put', path: '/:id/error', ack: 200 },
};

/**
 * Turns a third-party resource's declaration into its router. Every message is checked (headers, version, {ID},
 * body) as the FSPIOP gateway checks its own, acknowledged with the code the third-party OpenAPI document gives it
 * (its kind's in ROUTES, or its own `ack`), and then passed on by FSPIOP-Destination byte for byte, as Mojaloop's
 * thirdparty-api-svc does, through a durable follow-up that reports a failed delivery to the sender. Messages
 * addressed to the switch's own services are taken by them.
 * The message's observer is told beside its routing, and the acknowledgement waits for both, so the conversation's
 * next message finds its observer told of this one; but an observer that cannot be found or told is only logged, and
 * the message is routed all the same.
 */
export function thirdpartyRoutes(declaration: ThirdpartyDeclaration): ResourceRoutes {
  const { resource } = declaration;
  return (deps) => {
    const router = new Router({ prefix: `/${resource}` });
    router.use(...participantMessage(resource, deps));
    // The router's own value of {ID} reads `+` as a space, and an /accounts/{ID} (an MSISDN) may start with one.
    router.param('id', (_decoded, ctx, next) => {
      const id = decodeSegment(ctx.path.split('/')[resource.split('/').length + 1]);
      (declaration.checkId ?? pathId)(id);
      ctx.state.pathId = id;
      return next();
    });
    for (const declared of declaration.messages) {
      if ((declared.schemas?.length ?? 0) > 1 && !declared.pick) throw new Error(`${resource} ${declared.message}: several schemas and no pick`);
      const { method, path, ack } = ROUTES[declared.message];
      router[method](path, async (ctx) => {
        const message = await read(ctx, resource, declared);
        // A GET can be asked in a loop, and each is a workflow everyone's payments wait behind: its sender's share.
        if (declared.message === 'get') deps.followUpShares.take(message.fspiop.source, `${resource} lookups`);
        const taken = declared.takenByHub ? await declared.takenByHub(message, deps) : false;
        await Promise.all([
          taken
            ? undefined
            : startFollowUp(
                deps.temporal,
                deps.config.taskQueue,
                resource,
                message.id,
                routedMessage(resource, declared.message, message.id, message.fspiop, message.rawBody),
              ),
          tellObserver(deps, declared, message),
        ]);
        if ((declared.ack ?? ack) === 200) ok(ctx);
        else accepted(ctx);
      });
    }
    return router;
  };
}

async function read<Body>(ctx: Context, resource: ThirdpartyResource, declared: MessageDeclaration<Body>): Promise<ThirdpartyMessage<Body>> {
  const fspiop: FspiopRequest = ctx.state.fspiop;
  let body = undefined as Body;
  let rawBody: string | undefined;
  let schema: ThirdpartySchema | undefined;
  if (declared.message === 'error') {
    const received = await readJsonBody(ctx);
    rawBody = received.text;
    body = validateFspiop<Body>('ErrorInformationObject', received.body);
  } else if (declared.schemas) {
    const received = await readJsonBody(ctx);
    rawBody = received.text;
    if (declared.pick) {
      ({ schema, body } = validateThirdpartyOneOf<Body>(declared.pick, received.body));
    } else {
      schema = declared.schemas[0];
      body = validateThirdparty<Body>(schema, received.body);
    }
  }
  const id: string = declared.idOf ? declared.idOf(body) : ctx.state.pathId;
  if (!id) throw new HttpError(400, 'missingElement', 'the message names no resource ID');
  return { resource, message: declared.message, id, fspiop, body, rawBody, schema };
}

function observed<Body>(message: ThirdpartyMessage<Body>, declared: MessageDeclaration<Body>): ObservedMessage {
  return {
    resource: message.resource,
    message: message.message,
    id: message.id,
    from: message.fspiop.source,
    ...(message.fspiop.destination ? { to: message.fspiop.destination } : {}),
    at: new Date().toISOString(),
    facts: declared.facts?.(message.body, message) ?? {},
  };
}

/**
 * Finds the message's observer and signals it. Only the conversation's first request (POST /consentRequests, POST
 * /thirdpartyRequests/transactions) starts it; any other message is told to an observer already running, so that a
 * GET or PUT naming an unknown ID starts nothing. An observer that has ended is not started again (its conversation
 * is over; a late message is only logged). Finding it may read and write the database (the correlations of a
 * transaction's messages): whatever fails here is logged and never fails the message, whose routing does not depend
 * on its observer.
 */
async function tellObserver<Body>(deps: SwitchDependencies, declared: MessageDeclaration<Body>, message: ThirdpartyMessage<Body>): Promise<void> {
  let observer: ObserverRef | undefined;
  try {
    observer = await declared.observer?.(message, deps);
    if (!observer) return;
    if (message.message !== 'request' || message.resource !== observer.openedBy) {
      const told = await signalIfRunning(deps.temporal, observer.workflowId, observedMessageSignal, observed(message, declared));
      if (!told) deps.log.info({ workflowId: observer.workflowId, message: message.message, resource: message.resource }, 'no observer running');
      return;
    }
    await deps.temporal.workflow.signalWithStart(observer.workflow, {
      workflowId: observer.workflowId,
      taskQueue: deps.config.taskQueue,
      args: [],
      signal: observedMessageSignal,
      signalArgs: [observed(message, declared)],
      typedSearchAttributes: observer.searchAttributes,
      staticSummary: observer.summary,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (error) {
    const level = error instanceof WorkflowExecutionAlreadyStartedError ? 'info' : 'warn';
    const about = observer ? { workflowId: observer.workflowId } : { resource: message.resource, message: message.message, id: message.id };
    deps.log[level]({ ...about, err: (error as Error).message }, 'observer not told');
  }
}
