import crypto from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { ConsentRequestsPostRequest, ThirdpartyRequestsTransactionsPostRequest } from '../../activities/shared/contracts/bodies';
import { participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { HttpError } from '../../activities/shared/platform/httpError';
import { answersTo, handTo, InboundDependencies, InboundRoute, startWith } from '../connector/inboundRoutes';
import { peerMessageSignal } from '../../workflows/participant/inbox';
import { FspiopSchema, pathId, tagOf, validateFspiop, validateThirdparty, validateThirdpartyOneOf } from '../../activities/shared/contracts/schemas';
import {
  DfspLinkingView,
  dfspLinkingQuery,
  thirdpartyTransactionQuery,
  ThirdpartyTransactionView,
  thirdpartyWorkflowIds,
} from '../../workflows/dfsp/thirdpartyContracts';

const fspiop = (schema: FspiopSchema) => (body: unknown) => validateFspiop(schema, body);

/** {ID} of GET /accounts/{ID}: the user's identifier at the DFSP, 1 to 128 characters. */
function userIdOf(message: PeerMessage): string {
  const id = message.id!;
  if (id.length < 1 || id.length > 128) throw new HttpError(400, 'malformedSyntax', 'path ID must be 1 to 128 characters');
  return id;
}

/** A transaction request's state, read from its workflow, answered to `requester` by a workflow of its own (payment flow rule 8). */
async function answerStatus(transactionRequestId: string, requester: string, deps: InboundDependencies): Promise<void> {
  let view: ThirdpartyTransactionView | undefined;
  try {
    view = await deps.client.workflow.getHandle(participantWorkflowIds.dfspThirdpartyTransaction(transactionRequestId)).query(thirdpartyTransactionQuery);
  } catch (error) {
    // No such request here; one whose POST has not been taken yet has no state to tell either.
    if (!(error instanceof WorkflowNotFoundError)) deps.log.info({ transactionRequestId, err: (error as Error).message }, 'status not readable');
  }
  await deps.client.workflow.start('dfspTransactionStatus', {
    workflowId: thirdpartyWorkflowIds.transactionStatus(transactionRequestId, crypto.randomUUID()),
    taskQueue: deps.taskQueue,
    args: [{ transactionRequestId, requester, ...(view ? { view } : {}) }],
  });
}

/** A repeated POST /consentRequests of a linking that has ended, answered from its state by a workflow of its own. */
async function answerRepeatedConsentRequest(consentRequestId: string, requester: string, deps: InboundDependencies): Promise<void> {
  let view: DfspLinkingView | undefined;
  try {
    view = await deps.client.workflow.getHandle(participantWorkflowIds.dfspLinking(consentRequestId)).query(dfspLinkingQuery);
  } catch (error) {
    deps.log.info({ consentRequestId, err: (error as Error).message }, 'linking state not readable');
  }
  await deps.client.workflow.start('dfspConsentRequestRepeat', {
    workflowId: thirdpartyWorkflowIds.consentRequestRepeat(consentRequestId, crypto.randomUUID()),
    taskQueue: deps.taskQueue,
    args: [{ consentRequestId, requester, ...(view ? { view } : {}) }],
  });
}

/**
 * Starts a conversation with its first message, or hands a repeat to it while it runs. A repeat after it ended must
 * not run it again (a second payment of one transaction request): its ID is never reused, and `repeated` decides
 * what the sender is told.
 */
async function startOnce(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  message: PeerMessage,
  deps: InboundDependencies,
  repeated: () => Promise<void>,
): Promise<void> {
  try {
    await deps.client.workflow.signalWithStart(workflowType, {
      workflowId,
      taskQueue: deps.taskQueue,
      args,
      signal: peerMessageSignal,
      signalArgs: [message],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    await repeated();
  }
}

/** A DELETE or PATCH on a consent the DFSP granted goes to the consent's unlinking. */
const toUnlinking = (message: PeerMessage, deps: InboundDependencies) =>
  startWith('dfspUnlinking', thirdpartyWorkflowIds.unlinking(message.id!), [{ consentId: message.id! }], message, deps);

/** The third-party messages (Document 1) a DFSP takes from the switch, each handed to its conversation. */
export const thirdpartyInbound: InboundRoute[] = [
  // Discovery: each GET /accounts/{ID} is answered by a workflow of its own.
  {
    resource: 'accounts',
    name: 'get',
    deliver: (message, deps) => startWith('dfspAccounts', thirdpartyWorkflowIds.accounts(userIdOf(message), crypto.randomUUID()), [], message, deps),
  },

  // Linking: the consent request starts dfspLinking/<consentRequestId>; the PISP's authToken continues it (202: a request).
  {
    resource: 'consentRequests',
    name: 'request',
    validate: (body) => validateThirdparty('ConsentRequestsPostRequest', body),
    deliver: (message, deps) => {
      const { consentRequestId } = message.body as ConsentRequestsPostRequest;
      // A repeat of a linking that has ended is told how it ended (or that the ID is used), never run again.
      return startOnce('dfspLinking', participantWorkflowIds.dfspLinking(consentRequestId), [{ consentRequestId }], message, deps, () =>
        answerRepeatedConsentRequest(consentRequestId, message.source, deps),
      );
    },
  },
  {
    resource: 'consentRequests',
    name: 'patch',
    ack: 202,
    validate: (body) => validateThirdparty('ConsentRequestsIDPatchRequest', body),
    deliver: (message, deps) => handTo(participantWorkflowIds.dfspLinking(message.id!), message, deps),
  },
  // The PISP's signed credential and the Auth service's VERIFIED answer the consent's POST /consents (202, as the hub).
  ...answersTo(
    'consents',
    (body) =>
      validateThirdpartyOneOf(
        (value) => (tagOf(value, 'credential', 'status') === 'VERIFIED' ? 'ConsentsIDPutResponseVerified' : 'ConsentsIDPutResponseSigned'),
        body,
      ).body,
    202,
  ),
  // Unlinking: the PISP's DELETE routed here, or the Auth service's PATCH telling of a revocation.
  { resource: 'consents', name: 'delete', deliver: toUnlinking },
  {
    resource: 'consents',
    name: 'patch',
    validate: (body) =>
      validateThirdpartyOneOf((value) => (tagOf(value, 'status') === 'REVOKED' ? 'ConsentsIDPatchResponseRevoked' : 'ConsentsIDPatchResponseVerified'), body)
        .body,
    deliver: toUnlinking,
  },
  // The account lookup's answers to the DFSP's THIRD_PARTY_LINK registrations.
  ...answersTo('participants', fspiop('ParticipantsTypeIDPutResponse')),

  // Payment flow: the request starts dfspThirdpartyTransaction/<transactionRequestId>; its status is asked with GET.
  {
    resource: 'thirdpartyRequests/transactions',
    name: 'request',
    validate: (body) => validateThirdparty('ThirdpartyRequestsTransactionsPostRequest', body),
    deliver: (message, deps) => {
      const { transactionRequestId } = message.body as ThirdpartyRequestsTransactionsPostRequest;
      // A repeat of a request that has ended is told how it ended, as a status query would be.
      return startOnce(
        'dfspThirdpartyTransaction',
        participantWorkflowIds.dfspThirdpartyTransaction(transactionRequestId),
        [{ transactionRequestId }],
        message,
        deps,
        () => answerStatus(transactionRequestId, message.source, deps),
      );
    },
  },
  { resource: 'thirdpartyRequests/transactions', name: 'get', deliver: (message, deps) => answerStatus(pathId(message.id!), message.source, deps) },
  ...answersTo(
    'thirdpartyRequests/authorizations',
    (body) =>
      validateThirdpartyOneOf((value) => {
        if (tagOf(value, 'responseType') === 'REJECTED') return 'ThirdpartyRequestsAuthorizationsIDPutResponseRejected';
        const generic = tagOf(value, 'signedPayload', 'signedPayloadType') === 'GENERIC';
        return generic ? 'ThirdpartyRequestsAuthorizationsIDPutResponseGeneric' : 'ThirdpartyRequestsAuthorizationsIDPutResponseFIDO';
      }, body).body,
  ),
  ...answersTo('thirdpartyRequests/verifications', (body) => validateThirdparty('ThirdpartyRequestsVerificationsIDPutResponse', body)),
];
