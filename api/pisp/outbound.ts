import Router from '@koa/router';
import { Client, WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { Context } from 'koa';
import type { ConnectorConfig } from '../../activities/connector/config';
import * as app from '../../workflows/pisp/appApi';
import type { ExchangeInput, ExchangeOutcome } from '../../workflows/participant/exchange';
import type { PispLinkingOutcome } from '../../workflows/pisp/pispLinking';
import type { PispTransactionOutcome } from '../../workflows/pisp/pispTransaction';
import type { PispUnlinkingInput } from '../../workflows/pisp/pispUnlinking';
import { errorInformation, type ErrorInformation } from '../contracts/errors';
import { participantWorkflowIds } from '../contracts/peers';
import { Dfsp } from '../contracts/searchAttributes';
import { validateThirdparty } from '../fspiop/schemas';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/httpError';
import * as bodies from './appBodies';

/**
 * The API the PISP's app calls: the outbound API of Mojaloop's thirdparty-sdk in PISP mode, synchronous over the
 * asynchronous third-party API. Each call is a workflow update of its conversation, answered with the SDK's body once
 * the callback it waits for has come (or REQUEST_TIMEOUT_MS has passed); as in the SDK, an `errored` answer is a 500.
 * Beyond the SDK: DELETE /linking/consents/{consentId}, the user unlinking an account (pispUnlinking), which the SDK's
 * outbound API has no call for.
 */
export function pispOutboundRouter(client: Client, config: ConnectorConfig): Router {
  const router = new Router();
  const { taskQueue, requestTimeoutMs } = config;
  const conversation = { requestTimeoutMs } satisfies app.PispConversationInput;

  /** The first call of a conversation starts it, or reaches the one already running under that ID. */
  const startingWith = <Ret, Arg>(workflowType: 'pispLinking' | 'pispTransaction', workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg) =>
    client.workflow.executeUpdateWithStart(update, {
      args: [arg],
      startWorkflowOperation: new WithStartWorkflowOperation<(input: app.PispConversationInput) => Promise<PispLinkingOutcome | PispTransactionOutcome>>(
        workflowType,
        {
          workflowId,
          taskQueue,
          args: [conversation],
          workflowIdConflictPolicy: 'USE_EXISTING',
        },
      ),
    });
  const continuing = <Ret, Arg>(workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg) =>
    client.workflow.getHandle(workflowId).executeUpdate(update, { args: [arg] });

  /** A discovery lookup: an exchange named after its answer, shared by concurrent lookups of the same ID. */
  const lookUp = async (input: ExchangeInput): Promise<ExchangeOutcome> => {
    const handle = await client.workflow.start('exchange', {
      workflowId: participantWorkflowIds.exchange(input.request.resource, input.answerId),
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return handle.result();
  };
  const failureOf = (outcome: ExchangeOutcome, awaited: string): ErrorInformation | undefined => {
    if (outcome.kind === 'refused') return outcome.errorInformation;
    if (outcome.kind === 'timedOut') return errorInformation('serverTimedOut', `no ${awaited} within ${requestTimeoutMs} ms`);
    if (outcome.message.name === 'error') return (outcome.message.body as { errorInformation: ErrorInformation }).errorInformation;
    return undefined;
  };

  // Pre-linking: GET /services/THIRD_PARTY_DFSP, answered by the switch.
  router.get('/linking/providers', async (ctx) => {
    const outcome = await lookUp({
      request: { resource: 'services', name: 'get', id: 'THIRD_PARTY_DFSP' },
      answerId: 'THIRD_PARTY_DFSP',
      waitMs: requestTimeoutMs,
    });
    const failure = failureOf(outcome, 'PUT /services/THIRD_PARTY_DFSP');
    if (failure) return answer(ctx, { errorInformation: failure, currentState: 'errored' });
    const { providers } = (outcome as Extract<ExchangeOutcome, { kind: 'answered' }>).message.body as { providers: string[] };
    answer(ctx, { providers, currentState: 'providersLookupSuccess' });
  });

  // Discovery: GET /accounts/{userId} to the DFSP. The SDK names this answer's states after its model.
  router.get('/linking/accounts/:fspId/:userId', async (ctx) => {
    const { fspId, userId } = ctx.params;
    const outcome = await lookUp({ request: { to: fspId, resource: 'accounts', name: 'get', id: userId }, answerId: userId, waitMs: requestTimeoutMs });
    const failure = failureOf(outcome, 'PUT /accounts/{ID}');
    if (failure) return answer(ctx, { accounts: [], errorInformation: failure, currentState: 'COMPLETED' }, 500);
    const { accounts } = (outcome as Extract<ExchangeOutcome, { kind: 'answered' }>).message.body as { accounts: unknown[] };
    answer(ctx, { accounts, currentState: 'COMPLETED' });
  });

  // Linking (pispLinking/<consentRequestId>).
  router.post('/linking/request-consent', async (ctx) => {
    const body = bodies.linkingRequestConsent((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => startingWith('pispLinking', participantWorkflowIds.pispLinking(body.consentRequestId), app.requestConsent, body)));
  });
  router.patch('/linking/request-consent/:ID/authenticate', async (ctx) => {
    const body = bodies.linkingAuthenticate((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => continuing(participantWorkflowIds.pispLinking(ctx.params.ID), app.authenticate, body)));
  });
  router.post('/linking/request-consent/:ID/pass-credential', async (ctx) => {
    const body = bodies.linkingPassCredential((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => continuing(participantWorkflowIds.pispLinking(ctx.params.ID), app.passCredential, body)));
  });

  // Unlinking (pispUnlinking/<consentId>): this connector's addition to the SDK's API, which has none. The DELETE goes
  // to the DFSP that granted the consent (linking rule 6): the one the linking that received the consent was with,
  // found by its ConsentId search attribute (kept by Temporal, so it outlives a restart), else the one the app names.
  router.delete('/linking/consents/:consentId', async (ctx) => {
    const { consentId } = ctx.params;
    validateThirdparty('CorrelationId', consentId, 'consentId');
    const named = bodies.unlinkingRequest((await readJsonBody(ctx)).body, ctx.query.toParticipantId).toParticipantId;
    const linkedWith = await dfspOfConsent(client, consentId);
    if (linkedWith && named && named !== linkedWith)
      throw new HttpError(400, 'validationError', `consent ${consentId} was granted by ${linkedWith}, not ${named}`);
    const dfsp = linkedWith ?? named;
    if (!dfsp) throw new HttpError(404, 'idNotFound', `no linking of this PISP was granted consent ${consentId}: name its DFSP with toParticipantId`);
    const handle = await client.workflow.start('pispUnlinking', {
      workflowId: participantWorkflowIds.pispUnlinking(consentId),
      taskQueue,
      args: [{ consentId, dfsp, requestTimeoutMs } satisfies PispUnlinkingInput],
      // The app repeating its call while the first is under way waits for the same answer.
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    answer(ctx, (await handle.result()) as app.LinkingConsentsIDDeleteResponse);
  });

  // Payments (pispTransaction/<transactionRequestId>).
  router.post('/thirdpartyTransaction/partyLookup', async (ctx) => {
    const body = bodies.partyLookupRequest((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => startingWith('pispTransaction', participantWorkflowIds.pispTransaction(body.transactionRequestId), app.partyLookup, body)));
  });
  router.post('/thirdpartyTransaction/:ID/initiate', async (ctx) => {
    const body = bodies.initiateRequest((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => continuing(participantWorkflowIds.pispTransaction(ctx.params.ID), app.initiate, body)));
  });
  router.post('/thirdpartyTransaction/:ID/approve', async (ctx) => {
    const body = bodies.approveRequest((await readJsonBody(ctx)).body);
    answer(ctx, await call(() => continuing(participantWorkflowIds.pispTransaction(ctx.params.ID), app.approve, body)));
  });

  return router;
}

/** The DFSP of the linking that was granted `consentId` (pispLinking sets its Dfsp and ConsentId search attributes). */
async function dfspOfConsent(client: Client, consentId: string): Promise<string | undefined> {
  for await (const linking of client.workflow.list({ query: `WorkflowType = 'pispLinking' AND ConsentId = '${consentId}'` })) {
    const dfsp = linking.typedSearchAttributes.get(Dfsp);
    if (dfsp) return dfsp;
  }
  return undefined;
}

/** The SDK's answer: 500 for an `errored` one, 200 otherwise (a failed party lookup included, as the SDK answers it). */
function answer<Body extends { currentState: string }>(ctx: Context, body: Body, status = body.currentState === 'errored' ? 500 : 200): void {
  ctx.status = status;
  ctx.body = body;
}

/**
 * A call the conversation refused (not the step it waits for: out of order, repeated, or after it ended) is the app's
 * mistake, 409; a call to a conversation that was never started is 404.
 */
async function call<Ret>(update: () => Promise<Ret>): Promise<Ret> {
  try {
    return await update();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new HttpError(404, 'idNotFound', 'no such conversation: start it with its first call');
    if (error instanceof WorkflowUpdateFailedError) throw new HttpError(409, 'clientError', (error.cause as Error | undefined)?.message ?? error.message);
    throw error;
  }
}
