import crypto from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ConsentRequestsPostRequest, ThirdpartyRequestsTransactionsPostRequest } from '../contracts/bodies';
import type { MessageName, Resource } from '../contracts/conversations';
import { participantWorkflowIds, PeerMessage } from '../contracts/peers';
import { HttpError } from '../http/httpError';
import { handTo, InboundDependencies, InboundRoute, startWith } from '../connector/inbound';
import { FspiopSchema, pathId, tagOf, validateFspiop, validateThirdparty, validateThirdpartyOneOf } from '../fspiop/schemas';
import { thirdpartyTransactionQuery, ThirdpartyTransactionView, thirdpartyWorkflowIds } from '../../workflows/dfsp/thirdpartyContracts';

const errorBody = (body: unknown) => validateFspiop('ErrorInformationObject', body);

/** An answer (and its error) to a request a DFSP workflow sent: handed to the exchange waiting for it, by resource and path ID. */
function answersTo(resource: Resource, validateAnswer: (body: unknown) => unknown, ack?: 200 | 202): InboundRoute[] {
  return (['answer', 'error'] as MessageName[]).map((name) => ({
    resource,
    name,
    ack,
    validate: name === 'answer' ? validateAnswer : errorBody,
    deliver: (message, deps) => handTo(participantWorkflowIds.exchange(resource, message.id!), message, deps),
  }));
}

const fspiop = (schema: FspiopSchema) => (body: unknown) => validateFspiop(schema, body);

/** {ID} of GET /accounts/{ID}: the user's identifier at the DFSP, 1 to 128 characters. */
function userIdOf(message: PeerMessage): string {
  const id = message.id!;
  if (id.length < 1 || id.length > 128) throw new HttpError(400, 'malformedSyntax', 'path ID must be 1 to 128 characters');
  return id;
}

/** GET /thirdpartyRequests/transactions/{ID}: the request's state, read from its workflow, answered by a workflow of its own. */
async function answerStatus(message: PeerMessage, deps: InboundDependencies): Promise<void> {
  const transactionRequestId = pathId(message.id!);
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
    args: [{ transactionRequestId, requester: message.source, ...(view ? { view } : {}) }],
  });
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
      return startWith('dfspLinking', participantWorkflowIds.dfspLinking(consentRequestId), [{ consentRequestId }], message, deps);
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
      return startWith(
        'dfspThirdpartyTransaction',
        participantWorkflowIds.dfspThirdpartyTransaction(transactionRequestId),
        [{ transactionRequestId }],
        message,
        deps,
      );
    },
  },
  { resource: 'thirdpartyRequests/transactions', name: 'get', deliver: answerStatus },
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
  // The FSPIOP answers the payer's quote and transfer wait for.
  ...answersTo('quotes', fspiop('QuotesIDPutResponse')),
  ...answersTo('transfers', fspiop('TransfersIDPutResponse')),
];
