import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, type SearchAttributePair, type SignalDefinition, type Workflow } from '@temporalio/common';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { HubServices } from '../../activities/hub/hubServices';
import { hubRefusalOf } from '../../activities/shared/platform/hubError';
import { workflowIds, FspiopResource, Resource } from '../../activities/shared/contracts/conversations';
import type { ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { errorInformation, ErrorInformation } from '../../activities/shared/contracts/errors';
import type { FollowUp } from '../../activities/shared/contracts/followUps';
import type { ReceivedCallback, RepeatedRequest } from '../../activities/shared/contracts/messages';
import { followUp as followUpWorkflow } from '../../workflows/hub/followUp';
import { observedMessageSignal } from '../../workflows/kit/observer';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { participantMessage, ResourceRoutes, type RouteDependencies } from './switchApp';
import { requestHash } from '../../activities/shared/contracts/requestHash';
import { signalIfRunning, startOrRepeat } from './conversations';
import { encryptedFields } from './encryption';
import type { FspiopRequest } from './headers';
import { accepted, ok } from './replies';
import { requesterOf } from './routed';
import { FspiopSchema, pathId, validateFspiop } from '../../activities/shared/contracts/schemas';

/** How the gateway names and labels a new conversation, read from its validated request. */
export interface ConversationStart {
  id: string;
  workflowId: string;
  searchAttributes: SearchAttributePair[];
  /** The one line an operator reads in the Temporal UI's list. */
  summary: string;
}

/**
 * What a conversation's stored record says of it, read by the gateway before it troubles the workflow: each message the
 * workflow takes is one more event in its history, and only the participant it waits on, before the outcome is recorded,
 * has anything to tell it.
 */
export interface StoredConversation {
  /** The one participant whose callbacks the conversation takes (a transfer's payee). */
  answerer: string;
  /** The outcome is recorded: whatever comes now is answered from the record. */
  decided: boolean;
}

/** A callback (PUT /{resource}/{ID} or …/error): to its running conversation as a signal, else a follow-up. */
export interface CallbackDeclaration<Body> {
  schema: FspiopSchema;
  /** Checks the schema cannot express; throws an HttpError, or answers false to acknowledge and drop. */
  admit?: (body: Body, fspiop: FspiopRequest, id: string, log: Logger) => boolean;
  /** The conversation the callback belongs to; a resource with none (/transactions) leaves these out and uses `orphan`. */
  workflowId?: (id: string) => string;
  signal?: SignalDefinition<[unknown]>;
  signalArgument?: (callback: ReceivedCallback<Body>, fspiop: FspiopRequest) => unknown;
  /** What the switch does when no conversation waits for it any more; undefined to log it and drop it. */
  orphan?: (id: string, callback: ReceivedCallback<Body>, fspiop: FspiopRequest) => FollowUp | undefined;
}

/** The observed conversation a request is a step of, and the message its observer records. */
export type PartOf<Request> = (body: Request, fspiop: FspiopRequest) => { workflowId: string; message: ObservedMessage } | undefined;

/**
 * A GET that is a step of another resource's conversation (GET /authorizations/{ID} of its transaction request):
 * `read` checks it (its query string; it throws the HttpError) and gives the signal's argument. It goes to the
 * running conversation as a signal; when none runs, the declaration's `get` answers it.
 */
export interface GetStepDeclaration {
  read: (ctx: Context, fspiop: FspiopRequest) => unknown;
  workflowId: (id: string) => string;
  signal: SignalDefinition<[unknown]>;
}

/**
 * One FSPIOP resource as a conversation: the declaration is all a new one needs beside its workflow. POST starts
 * the workflow (its ID being the idempotency key), GET and anything arriving after the workflow ended become
 * durable follow-ups, and callbacks are signals to the running workflow.
 */
export interface ConversationDeclaration<Request, Answer, Failure> {
  resource: FspiopResource;
  post?: {
    schema: FspiopSchema;
    workflow: Workflow;
    repeatSignal: SignalDefinition<[RepeatedRequest]>;
    start: (body: Request, fspiop: FspiopRequest) => ConversationStart;
    /**
     * A check before anything is recorded or started, such as who may send the request; it throws a HubError, which
     * its sender gets as an error callback, as central-ledger answers it.
     */
    check?: (body: Request, fspiop: FspiopRequest) => void;
    /** The follow-up that applies the duplicate rule from the record once the conversation has ended, or has a record. */
    repeatedAfterEnd: (id: string, requestHash: string, fspiop: FspiopRequest) => FollowUp;
    /**
     * The third-party conversation this request is a step of (a quote for a PISP's transaction request), whose
     * observer is told beside if it still follows; the request never waits on it.
     */
    partOf?: PartOf<Request>;
    /**
     * False when the hub never passes the request on as it came (it sends one of its own): the workflow then starts
     * without the request's bytes, which would only double what its history holds (a bulk's can be megabytes).
     */
    passesOnRequest?: boolean;
  };
  get?: (id: string, fspiop: FspiopRequest, ctx: Context) => FollowUp;
  getStep?: GetStepDeclaration;
  /**
   * The conversation's stored record, if it keeps one from its first step: then a POST repeating an ID that has a
   * record is answered from the record, and a callback reaches the workflow only from its answerer, until decided.
   */
  stored?: (services: HubServices, id: string) => Promise<StoredConversation | undefined>;
  /**
   * The participants a conversation of another resource's record is between (an authorization's: its transaction
   * request's payer and payee FSPs), undefined while it has no record: a GET or callback from anyone else is refused at
   * the gateway (3100) and never reaches a workflow.
   */
  between?: (services: HubServices, id: string) => Promise<string[] | undefined>;
  answer?: CallbackDeclaration<Answer>;
  error?: CallbackDeclaration<Failure>;
}

/** Turns a declaration into the resource's router: validate, acknowledge (202 / 200), hand over to Temporal. */
export function conversationRoutes<Request, Answer, Failure>(declaration: ConversationDeclaration<Request, Answer, Failure>): ResourceRoutes {
  const { resource } = declaration;
  return (deps) => {
    const router = new Router({ prefix: `/${resource}` });
    router.use(...participantMessage(resource, deps));
    // Every {ID} names a conversation: a CorrelationId, checked before any handler uses it.
    router.param('id', (id, _ctx, next) => {
      pathId(id);
      return next();
    });
    const conversation = conversationOf(declaration, deps);
    const { post, get, getStep, answer, error } = declaration;
    if (post) router.post('/', starting(conversation, post));
    if (get) router.get('/:id', answeringGet(conversation, get, getStep));
    if (answer) router.put('/:id', receivingCallback(conversation, answer));
    if (error) router.put('/:id/error', receivingCallback(conversation, error));
    return router;
  };
}

/** What a resource's handlers share: the gateway's dependencies, and what the conversation's record says of a message. */
interface Conversation {
  resource: FspiopResource;
  deps: RouteDependencies;
  followUp: (id: string, request: FollowUp, sender: string, message?: string) => Promise<void>;
  refuse: (id: string, fspiop: FspiopRequest, refusal: ErrorInformation, text: string) => Promise<void>;
  storedRecord: (id: string) => Promise<StoredConversation | undefined> | undefined;
  /** Where a callback goes, read from the record (callbackRouteOf). */
  callbackRoute: (id: string, source: string) => Promise<'workflow' | 'stranger' | 'record'>;
  /** Whether a message about the conversation comes from outside it, by the participants its record says it is between. */
  fromOutside: (id: string, source: string) => Promise<boolean>;
}

function conversationOf<Request, Answer, Failure>(declaration: ConversationDeclaration<Request, Answer, Failure>, deps: RouteDependencies): Conversation {
  const { resource, stored, between } = declaration;
  // Each is a workflow that anyone's transfers wait behind on the server: taken from its sender's share.
  const followUp = (id: string, request: FollowUp, sender: string, message?: string) => {
    deps.followUpShares.take(sender, `answers about ${resource}`);
    return startFollowUp(deps.temporal, deps.config.taskQueue, resource, id, request, message);
  };
  const storedRecord = (id: string) => stored?.(deps.services, id);
  return {
    resource,
    deps,
    followUp,
    // A refusal carries no body of its own: the refused message's text tells two refusals apart.
    refuse: (id, fspiop, refusal, text) =>
      followUp(id, { kind: 'refusedRequest', resource, id, requester: requesterOf(fspiop), errorInformation: refusal }, fspiop.source, text),
    storedRecord,
    /**
     * To the workflow only from its answerer until the outcome is recorded, anyone else's refused, and the rest
     * answered from the record. A conversation without one judges every callback.
     */
    callbackRoute: async (id, source) => {
      if (!stored) return 'workflow';
      const record = await storedRecord(id);
      if (!record) return 'record';
      if (record.answerer !== source) return 'stranger';
      return record.decided ? 'record' : 'workflow';
    },
    fromOutside: async (id, source) => {
      const parties = await between?.(deps.services, id);
      return parties !== undefined && !parties.includes(source);
    },
  };
}

/** POST: starts the conversation's workflow, its ID the idempotency key; a repeat is answered by the workflow or the record. */
function starting<Request>(
  { deps, followUp, refuse, storedRecord }: Conversation,
  post: NonNullable<ConversationDeclaration<Request, unknown, unknown>['post']>,
): Router.Middleware {
  const { config, temporal, log } = deps;
  return async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<Request>(post.schema, parsed, 'body', encryptedFields(fspiop), fspiop.contentVersion);
    const hash = requestHash(body);
    const passesOn = post.passesOnRequest !== false;
    // The input holds the parsed body (no larger than its text) and, when passed on, the text itself.
    refuseOversizedInput(Buffer.byteLength(text) * (passesOn ? 2 : 1));
    const input = { body, ...(passesOn ? { rawBody: text } : {}), headers: fspiop.headers, requestHash: hash, version: fspiop.version };
    const started = post.start(body, fspiop);
    const refusal = hubRefusalOf(() => post.check?.(body, fspiop));
    if (refusal) {
      await refuse(started.id, fspiop, refusal, text);
      return accepted(ctx);
    }
    // Once a record exists, the record answers a repeat: the workflow has nothing to learn from it (each signal would
    // only lengthen its history), and none may be running any more (its history expired) to answer it.
    const outcome = (await storedRecord(started.id))
      ? 'recorded'
      : await startOrRepeat(
          deps,
          post.workflow,
          {
            workflowId: started.workflowId,
            taskQueue: config.taskQueue,
            args: [input],
            typedSearchAttributes: started.searchAttributes,
            staticSummary: started.summary,
          },
          post.repeatSignal,
          { requestHash: hash, headers: fspiop.headers },
        );
    if (outcome === 'finished' || outcome === 'recorded') await followUp(started.id, post.repeatedAfterEnd(started.id, hash, fspiop), fspiop.source);
    const observer = outcome === 'started' ? post.partOf?.(body, fspiop) : undefined;
    if (observer) {
      await signalIfRunning(temporal, observer.workflowId, observedMessageSignal, observer.message).catch((err: Error) =>
        log.warn({ workflowId: observer.workflowId, err: err.message }, 'observer not told'),
      );
    }
    accepted(ctx);
  };
}

/** GET /{ID}: a step of a running conversation as a signal, else a follow-up that answers from the record. */
function answeringGet(
  { resource, deps, followUp, refuse, fromOutside }: Conversation,
  get: (id: string, fspiop: FspiopRequest, ctx: Context) => FollowUp,
  getStep: GetStepDeclaration | undefined,
): Router.Middleware {
  return async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const id: string = ctx.params.id;
    const step = getStep?.read(ctx, fspiop);
    if (await fromOutside(id, fspiop.source)) {
      await refuse(id, fspiop, errorInformation('validationError', `FSPIOP-Source ${fspiop.source} is no party to ${resource} ${id}`), '');
      return accepted(ctx);
    }
    const signalled = getStep ? await signalIfRunning(deps.temporal, getStep.workflowId(id), getStep.signal, step) : false;
    if (!signalled) await followUp(id, get(id, fspiop, ctx), fspiop.source);
    accepted(ctx);
  };
}

/** PUT /{ID} or /{ID}/error: to the running conversation as a signal, else what the declaration does with an orphan. */
function receivingCallback<Body>(
  { resource, deps, followUp, refuse, fromOutside, callbackRoute }: Conversation,
  declared: CallbackDeclaration<Body>,
): Router.Middleware {
  const { temporal, log } = deps;
  return async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const id: string = ctx.params.id;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<Body>(declared.schema, parsed, 'body', encryptedFields(fspiop), fspiop.contentVersion);
    if (declared.admit && !declared.admit(body, fspiop, id, log)) return ok(ctx);
    const received: ReceivedCallback<Body> = { headers: fspiop.headers, body, rawBody: text };
    const route = (await fromOutside(id, fspiop.source)) ? 'stranger' : await callbackRoute(id, fspiop.source);
    if (route === 'stranger') {
      // As central-ledger refuses a fulfil from anyone but the payee (3100), without naming whom it waits on.
      await refuse(id, fspiop, errorInformation('validationError', `FSPIOP-Source ${fspiop.source} may not answer ${resource} ${id}`), text);
      return ok(ctx);
    }
    const { workflowId, signal, signalArgument } = declared;
    const signalled =
      route === 'workflow' && workflowId && signal && signalArgument
        ? await signalIfRunning(temporal, workflowId(id), signal, signalArgument(received, fspiop))
        : false;
    if (!signalled) {
      const orphan = declared.orphan?.(id, received, fspiop);
      if (orphan) await followUp(id, orphan, fspiop.source);
      else log.info({ resource, id, from: fspiop.source }, 'callback no running conversation takes; dropped');
    }
    ok(ctx);
  };
}

/**
 * The largest workflow input the gateway starts a conversation with. Temporal refuses a payload over its blob size
 * limit (2 MiB by default), which would leave the DFSP a 500 for a valid request; below this bound, with room for
 * the encoding, every conversation starts. FSPIOP allows bodies up to 5 MiB: a larger one (a bulk of 1,000 items
 * with ILP packets of some 1.5 KB each) is refused as too large (3104) until requests are kept outside the history.
 */
export const MAX_CONVERSATION_INPUT_BYTES = 1_500_000;

function refuseOversizedInput(size: number): void {
  if (size > MAX_CONVERSATION_INPUT_BYTES) {
    throw new HttpError(400, 'tooLargePayload', `the request makes ${size} bytes; the switch takes at most ${MAX_CONVERSATION_INPUT_BYTES} per conversation`);
  }
}

/**
 * Hands an answer from the record to a `followUp` workflow of its own, so it survives this process. Its ID is the
 * request's fingerprint: while one is running, the same request again (a GET repeated in a loop, the same callback
 * resent) is already being answered and starts nothing more; once it has finished, the same request is answered anew.
 */
export async function startFollowUp(temporal: Client, taskQueue: string, resource: Resource, id: string, request: FollowUp, message?: string): Promise<void> {
  try {
    await temporal.workflow.start(followUpWorkflow, {
      workflowId: workflowIds.followUp(resource, id, followUpFingerprint(request, message)),
      taskQueue,
      args: [request],
      staticSummary: `${request.kind} of ${resource} ${id}`,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Headers that differ between two sendings of the same message: its date, and the signature that covers the date. A
 * trace context is not among them: W3C gives each request its own, so two messages that differ there are two requests.
 */
const VOLATILE_HEADERS = new Set(['date', 'fspiop-signature', 'content-length']);

/** What identifies a follow-up: the request with its headers' per-sending values left out, and the message it answers. */
function followUpFingerprint(request: FollowUp, message = ''): string {
  const stable = JSON.parse(JSON.stringify(request), (key, value: unknown) =>
    key === 'headers' && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([name]) => !VOLATILE_HEADERS.has(name))) : value,
  ) as unknown;
  return requestHash({ request: stable, message });
}
