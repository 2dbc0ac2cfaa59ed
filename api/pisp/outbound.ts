import Router from '@koa/router';
import { Client, WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, type UpdateDefinition } from '@temporalio/common';
import type { Context } from 'koa';
import type { ConnectorConfig } from '../../activities/connector/config';
import type { LinkedConsents } from '../../activities/pisp/linkedConsents';
import * as app from '../../workflows/pisp/appApi';
import type { ExchangeInput, ExchangeOutcome } from '../../workflows/participant/exchange';
import type { PispLinkingOutcome } from '../../workflows/pisp/appApi';
import type { PispTransactionOutcome } from '../../workflows/pisp/pispTransaction';
import type { PispUnlinkingInput } from '../../workflows/pisp/pispUnlinking';
import { errorInformation, type ErrorInformation } from '../contracts/errors';
import { participantWorkflowIds } from '../contracts/peers';
import { validateThirdparty } from '../fspiop/schemas';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/httpError';
import * as bodies from './appBodies';
import { accountsLookupId } from './inbound';

/**
 * The API the PISP's app calls: the outbound API of Mojaloop's thirdparty-sdk in PISP mode, synchronous over the
 * asynchronous third-party API. Each call is a workflow update of its conversation, answered with the SDK's body once
 * the callback it waits for has come (or REQUEST_TIMEOUT_MS has passed); as in the SDK, an `errored` answer is a 500.
 * Beyond the SDK: DELETE /linking/consents/{consentId}, the user unlinking an account (pispUnlinking), and
 * GET /thirdpartyTransaction/{ID}, a payment's outcome, which the SDK's outbound API has no calls for.
 */
export function pispOutboundRouter(client: Client, config: ConnectorConfig, linkedConsents: LinkedConsents): Router {
  const router = new Router();
  const { taskQueue, requestTimeoutMs, authServiceId } = config;
  const conversation = { requestTimeoutMs } satisfies app.PispConversationInput;

  /**
   * The first call of a conversation starts it. An ID any conversation has had, running or over, is refused 422 as
   * the SDK refuses a transactionRequestId it holds: a closed conversation's ID reused would send its requests again
   * under an ID the DFSP has already seen.
   */
  const startingWith = <Ret, Arg>(workflowType: 'pispLinking' | 'pispTransaction', workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg) =>
    client.workflow.executeUpdateWithStart(update, {
      args: [arg],
      startWorkflowOperation: new WithStartWorkflowOperation<(input: app.PispConversationInput) => Promise<PispLinkingOutcome | PispTransactionOutcome>>(
        workflowType,
        {
          workflowId,
          taskQueue,
          args: [conversation],
          workflowIdConflictPolicy: 'FAIL',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        },
      ),
    });
  const continuing = <Ret, Arg>(workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg) =>
    client.workflow.getHandle(workflowId).executeUpdate(update, { args: [arg] });

  /**
   * A call the conversation refused (not the step it waits for: out of order, or repeated) is the app's mistake, 409,
   * as is a call to a conversation that is over; one to a conversation that never started is 404; a first call with
   * an ID already taken is 422.
   */
  const call = async <Ret>(workflowId: string, update: () => Promise<Ret>): Promise<Ret> => {
    try {
      return await update();
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError)
        throw new HttpError(422, 'clientError', `${workflowId} exists: a new conversation needs an ID of its own`);
      if (error instanceof WorkflowNotFoundError) {
        const closed = await client.workflow
          .getHandle(workflowId)
          .describe()
          .catch(() => undefined);
        if (closed) throw new HttpError(409, 'clientError', `the conversation ${workflowId} is over (${closed.status.name})`);
        throw new HttpError(404, 'idNotFound', 'no such conversation: start it with its first call');
      }
      if (error instanceof WorkflowUpdateFailedError) throw new HttpError(409, 'clientError', (error.cause as Error | undefined)?.message ?? error.message);
      throw error;
    }
  };

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

  // Discovery: GET /accounts/{userId} to the DFSP. The SDK names this answer's states after its model. Each DFSP's
  // answer reaches only the lookups of that DFSP (accountsLookupId).
  router.get('/linking/accounts/:fspId/:userId', async (ctx) => {
    const { fspId, userId } = ctx.params;
    // The SDK's API types the user's ID as an AccountAddress.
    validateThirdparty('FspId', fspId, 'fspId');
    validateThirdparty('AccountAddress', userId, 'userId');
    const outcome = await lookUp({
      request: { to: fspId, resource: 'accounts', name: 'get', id: userId },
      answerId: accountsLookupId(fspId, userId),
      from: [fspId],
      waitMs: requestTimeoutMs,
    });
    const failure = failureOf(outcome, 'PUT /accounts/{ID}');
    if (failure) return answer(ctx, { accounts: [], errorInformation: failure, currentState: 'COMPLETED' }, 500);
    const { accounts } = (outcome as Extract<ExchangeOutcome, { kind: 'answered' }>).message.body as { accounts: unknown[] };
    answer(ctx, { accounts, currentState: 'COMPLETED' });
  });

  // Linking (pispLinking/<consentRequestId>).
  router.post('/linking/request-consent', async (ctx) => {
    const body = bodies.linkingRequestConsent((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispLinking(body.consentRequestId);
    answer(ctx, await call(workflowId, () => startingWith('pispLinking', workflowId, app.requestConsent, body)));
  });
  router.patch('/linking/request-consent/:ID/authenticate', async (ctx) => {
    const body = bodies.linkingAuthenticate((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispLinking(ctx.params.ID);
    answer(ctx, await call(workflowId, () => continuing(workflowId, app.authenticate, body)));
  });
  router.post('/linking/request-consent/:ID/pass-credential', async (ctx) => {
    const body = bodies.linkingPassCredential((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispLinking(ctx.params.ID);
    answer(ctx, await call(workflowId, () => continuing(workflowId, app.passCredential, body)));
  });

  // Unlinking (pispUnlinking/<consentId>): this connector's addition to the SDK's API, which has none. The DELETE goes
  // to the DFSP that granted the consent (linking rule 6): the one the linking that received the consent was with,
  // found by its ConsentId search attribute (kept by Temporal, so it outlives a restart), else the one the app names.
  router.delete('/linking/consents/:consentId', async (ctx) => {
    const { consentId } = ctx.params;
    validateThirdparty('CorrelationId', consentId, 'consentId');
    const named = bodies.unlinkingRequest((await readJsonBody(ctx)).body, ctx.query.toParticipantId).toParticipantId;
    const linkedWith = await linkedConsents.dfspOf(consentId);
    if (linkedWith && named && named !== linkedWith)
      throw new HttpError(400, 'validationError', `consent ${consentId} was granted by ${linkedWith}, not ${named}`);
    const dfsp = linkedWith ?? named;
    if (!dfsp) throw new HttpError(404, 'idNotFound', `no linking of this PISP was granted consent ${consentId}: name its DFSP with toParticipantId`);
    const handle = await client.workflow.start('pispUnlinking', {
      workflowId: participantWorkflowIds.pispUnlinking(consentId),
      taskQueue,
      args: [{ consentId, dfsp, authService: authServiceId, requestTimeoutMs } satisfies PispUnlinkingInput],
      // The app repeating its call while the first is under way waits for the same answer.
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    answer(ctx, (await handle.result()) as app.LinkingConsentsIDDeleteResponse);
  });

  // Payments (pispTransaction/<transactionRequestId>).
  router.post('/thirdpartyTransaction/partyLookup', async (ctx) => {
    const body = bodies.partyLookupRequest((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispTransaction(body.transactionRequestId);
    answer(ctx, await call(workflowId, () => startingWith('pispTransaction', workflowId, app.partyLookup, body)));
  });
  router.post('/thirdpartyTransaction/:ID/initiate', async (ctx) => {
    const body = bodies.initiateRequest((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispTransaction(ctx.params.ID);
    answer(ctx, await call(workflowId, () => continuing(workflowId, app.initiate, body)));
  });
  router.post('/thirdpartyTransaction/:ID/approve', async (ctx) => {
    const body = bodies.approveRequest((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispTransaction(ctx.params.ID);
    answer(ctx, await call(workflowId, () => continuing(workflowId, app.approve, body)));
  });
  // Beyond the SDK: where a payment stands, and its outcome once known, also after approve was answered (pispTransaction).
  router.get('/thirdpartyTransaction/:ID', async (ctx) => {
    const transactionRequestId = ctx.params.ID;
    const workflowId = participantWorkflowIds.pispTransaction(transactionRequestId);
    const status = await call(workflowId, () => client.workflow.getHandle(workflowId).query(app.transactionStatusQuery));
    answer(ctx, { transactionRequestId, ...status } satisfies app.ThirdpartyTransactionIDGetResponse, 200);
  });

  return router;
}

/** The SDK's answer: 500 for an `errored` one, 200 otherwise (a failed party lookup included, as the SDK answers it). */
function answer<Body extends { currentState: string }>(ctx: Context, body: Body, status = body.currentState === 'errored' ? 500 : 200): void {
  ctx.status = status;
  ctx.body = body;
}
