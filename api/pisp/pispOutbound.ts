import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import type { LinkedConsents } from '../../activities/pisp/linkedConsents';
import * as app from '../../workflows/pisp/appApi';
import type { ExchangeInput, ExchangeOutcome } from '../../workflows/participant/exchange';
import type { PispUnlinkingInput } from '../../workflows/pisp/pispUnlinking';
import { errorInformation, type ErrorInformation } from '../../activities/shared/contracts/errors';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { validateThirdparty } from '../../activities/shared/contracts/schemas';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import * as bodies from './appBodies';
import { AppConversations } from './appConversations';
import { accountsLookupId } from './pispInbound';

/**
 * The API the PISP's app calls: the outbound API of Mojaloop's thirdparty-sdk in PISP mode, synchronous over the
 * asynchronous third-party API. Each call is a workflow update of its conversation, answered with the SDK's body once
 * the callback it waits for has come (or REQUEST_TIMEOUT_MS has passed); as in the SDK, an `errored` answer is a 500.
 * Beyond the SDK: DELETE /linking/consents/{consentId}, the user unlinking an account (pispUnlinking), and
 * GET /thirdpartyTransaction/{ID}, a payment's outcome, which the SDK's outbound API has no calls for.
 */
export function pispOutboundRouter(client: Client, config: ConnectorConfig, linkedConsents: LinkedConsents): Router {
  const router = new Router();
  const conversations = new AppConversations(client, config);
  discoveryRoutes(router, client, config);
  linkingRoutes(router, conversations);
  unlinkingRoutes(router, client, config, linkedConsents);
  paymentRoutes(router, conversations);
  return router;
}

/** Pre-linking (GET /services/THIRD_PARTY_DFSP, answered by the switch) and discovery (GET /accounts/{userId}). */
function discoveryRoutes(router: Router, client: Client, { taskQueue, requestTimeoutMs }: ConnectorConfig): void {
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

  // The SDK names this answer's states after its model. Each DFSP's answer reaches only the lookups of that DFSP
  // (accountsLookupId).
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
}

/** Linking (pispLinking/<consentRequestId>): request consent, authenticate, pass the credential. */
function linkingRoutes(router: Router, conversations: AppConversations): void {
  router.post('/linking/request-consent', async (ctx) => {
    const body = bodies.linkingRequestConsent((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispLinking(body.consentRequestId);
    answer(ctx, await conversations.start('pispLinking', workflowId, app.requestConsent, body));
  });
  router.patch('/linking/request-consent/:ID/authenticate', async (ctx) => {
    const body = bodies.linkingAuthenticate((await readJsonBody(ctx)).body);
    answer(ctx, await conversations.continue(participantWorkflowIds.pispLinking(ctx.params.ID), app.authenticate, body));
  });
  router.post('/linking/request-consent/:ID/pass-credential', async (ctx) => {
    const body = bodies.linkingPassCredential((await readJsonBody(ctx)).body);
    answer(ctx, await conversations.continue(participantWorkflowIds.pispLinking(ctx.params.ID), app.passCredential, body));
  });
}

/**
 * Unlinking (pispUnlinking/<consentId>): this connector's addition to the SDK's API, which has none. The DELETE goes
 * to the DFSP that granted the consent (linking rule 6): the one the linking that received the consent was with,
 * found by its ConsentId search attribute (kept by Temporal, so it outlives a restart), else the one the app names.
 */
function unlinkingRoutes(
  router: Router,
  client: Client,
  { taskQueue, requestTimeoutMs, authServiceId }: ConnectorConfig,
  linkedConsents: LinkedConsents,
): void {
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
}

/** Payments (pispTransaction/<transactionRequestId>): party lookup, initiate, approve, and where a payment stands. */
function paymentRoutes(router: Router, conversations: AppConversations): void {
  router.post('/thirdpartyTransaction/partyLookup', async (ctx) => {
    const body = bodies.partyLookupRequest((await readJsonBody(ctx)).body);
    const workflowId = participantWorkflowIds.pispTransaction(body.transactionRequestId);
    answer(ctx, await conversations.start('pispTransaction', workflowId, app.partyLookup, body));
  });
  router.post('/thirdpartyTransaction/:ID/initiate', async (ctx) => {
    const body = bodies.initiateRequest((await readJsonBody(ctx)).body);
    answer(ctx, await conversations.continue(participantWorkflowIds.pispTransaction(ctx.params.ID), app.initiate, body));
  });
  router.post('/thirdpartyTransaction/:ID/approve', async (ctx) => {
    const body = bodies.approveRequest((await readJsonBody(ctx)).body);
    answer(ctx, await conversations.continue(participantWorkflowIds.pispTransaction(ctx.params.ID), app.approve, body));
  });
  // Beyond the SDK: where a payment stands, and its outcome once known, also after approve was answered.
  router.get('/thirdpartyTransaction/:ID', async (ctx) => {
    const transactionRequestId = ctx.params.ID;
    const status = await conversations.query(participantWorkflowIds.pispTransaction(transactionRequestId), app.transactionStatusQuery);
    answer(ctx, { transactionRequestId, ...status } satisfies app.ThirdpartyTransactionIDGetResponse, 200);
  });
}

/** The SDK's answer: 500 for an `errored` one, 200 otherwise (a failed party lookup included, as the SDK answers it). */
function answer<Body extends { currentState: string }>(ctx: Context, body: Body, status = body.currentState === 'errored' ? 500 : 200): void {
  ctx.status = status;
  ctx.body = body;
}
