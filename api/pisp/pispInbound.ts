import { WorkflowNotFoundError } from '@temporalio/client';
import type { LinkedConsents } from '../../activities/pisp/linkedConsents';
import type { PispUnlinkingInput } from '../../workflows/pisp/pispUnlinking';
import { peerMessageSignal } from '../../workflows/participant/inbox';
import type { ConsentsPostRequestPISP, ThirdpartyRequestsAuthorizationsPostRequest } from '../../activities/shared/contracts/bodies';
import type { Resource } from '../../activities/shared/contracts/conversations';
import { participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { handTo, InboundDependencies, InboundRoute } from '../connector/inboundRoutes';
import { tagOf, validateFspiop, validateThirdparty, ThirdpartySchema } from '../../activities/shared/contracts/schemas';

/**
 * Every message the switch delivers to a PISP (Document 1, the PISP's side of linking and payments), checked against
 * its schema and handed to the conversation waiting for it:
 *   - answers keyed by an ID the PISP chose (consentRequestId, transactionRequestId) go to its pispLinking or
 *     pispTransaction workflow; the DFSP's requests name it in their bodies (POST /consents: consentRequestId,
 *     POST /thirdpartyRequests/authorizations: transactionRequestId);
 *   - answers keyed by another ID (a service type, a user ID, a party, a consentId the DFSP chose) go to the exchange
 *     named after that ID, which the conversation (or the outbound gateway) started before it sent the request;
 *   - a PATCH /consents/{ID} REVOKED that no unlinking waits for is the DFSP revoking the consent on its own: it is
 *     recorded as a pispUnlinking that ends consentRevoked, after which the connector signs nothing with the consent.
 */

const byPathId = (workflowId: (id: string) => string) => (message: PeerMessage, deps: InboundDependencies) => handTo(workflowId(message.id!), message, deps);
const toExchange = (resource: Resource) => byPathId((id) => participantWorkflowIds.exchange(resource, id));
const errorRoute = (resource: Resource, deliver: InboundRoute['deliver']): InboundRoute => ({
  resource,
  name: 'error',
  validate: (body) => validateFspiop('ErrorInformationObject', body),
  deliver,
});
/** A body of one of several schemas, checked against the one its tag names. */
const oneOf = (pick: (body: unknown) => ThirdpartySchema) => (body: unknown) => validateThirdparty(pick(body), body);

const toLinking = byPathId(participantWorkflowIds.pispLinking);
const toTransaction = byPathId(participantWorkflowIds.pispTransaction);

/**
 * The exchange of a discovery lookup (GET /accounts/{userId}) is named after the DFSP asked as well as the user
 * (accountsLookupId): two banks' accounts of one user ID are different answers, each for its own lookup. A message
 * from any other participant reaches no lookup.
 */
export const accountsLookupId = (fspId: string, userId: string) => `${fspId}/${userId}`;
const toAccountsLookup = (message: PeerMessage, deps: InboundDependencies) =>
  handTo(participantWorkflowIds.exchange('accounts', accountsLookupId(message.source, message.id!)), message, deps);

/** What the PISP's inbound routes need besides Temporal: its consents, and the hub's Auth service. */
export interface PispInboundOptions {
  linkedConsents: LinkedConsents;
  authServiceId: string;
}

/**
 * PATCH /consents/{ID}: the answer to an unlinking (or to a registration) goes to the exchange waiting for it. One
 * that no exchange waits for is the DFSP telling of a change of its own (Document 1); a revocation from the DFSP
 * that granted the consent, or from the Auth service holding it, is recorded by a pispUnlinking that sends nothing.
 */
const consentPatch =
  ({ linkedConsents, authServiceId }: PispInboundOptions) =>
  async (message: PeerMessage, deps: InboundDependencies): Promise<void> => {
    const consentId = message.id!;
    try {
      return await deps.client.workflow.getHandle(participantWorkflowIds.exchange('consents', consentId)).signal(peerMessageSignal, message);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
    const { status, revokedAt } = message.body as { status?: string; revokedAt?: string };
    const dfsp = await linkedConsents.dfspOf(consentId);
    if (status !== 'REVOKED' || !revokedAt || !dfsp || (message.source !== dfsp && message.source !== authServiceId)) {
      deps.log.info(
        { consentId, source: message.source, status, dfsp },
        'a PATCH /consents/{ID} nobody waits for, and no revocation of a consent of this PISP by its holder',
      );
      return;
    }
    const input: PispUnlinkingInput = { consentId, dfsp, authService: authServiceId, requestTimeoutMs: 0, revokedAt };
    await deps.client.workflow.start('pispUnlinking', {
      workflowId: participantWorkflowIds.pispUnlinking(consentId),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  };

export const pispInbound = (options: PispInboundOptions): InboundRoute[] => [
  // Pre-linking and discovery: the switch's list of DFSPs, and a DFSP's accounts of a user.
  { resource: 'services', name: 'answer', validate: (body) => validateThirdparty('ServicesServiceTypePutResponse', body), deliver: toExchange('services') },
  errorRoute('services', toExchange('services')),
  { resource: 'accounts', name: 'answer', validate: (body) => validateThirdparty('AccountsIDPutResponse', body), deliver: toAccountsLookup },
  errorRoute('accounts', toAccountsLookup),

  // Linking: the DFSP's channel, its grant, and the verified credential.
  {
    resource: 'consentRequests',
    name: 'answer',
    // The third-party document makes this PUT a request of its own, answered 202.
    ack: 202,
    validate: oneOf((body) => {
      const channels = tagOf(body, 'authChannels');
      const web = tagOf(body, 'authUri') !== undefined || (Array.isArray(channels) && channels.includes('WEB'));
      return web ? 'ConsentRequestsIDPutResponseWeb' : 'ConsentRequestsIDPutResponseOTP';
    }),
    deliver: toLinking,
  },
  errorRoute('consentRequests', toLinking),
  {
    resource: 'consents',
    name: 'request',
    validate: (body) => validateThirdparty('ConsentsPostRequestPISP', body),
    deliver: (message, deps) => handTo(participantWorkflowIds.pispLinking((message.body as ConsentsPostRequestPISP).consentRequestId), message, deps),
  },
  {
    resource: 'consents',
    name: 'answer',
    ack: 202,
    validate: (body) => validateThirdparty('ConsentsIDPutResponseVerified', body),
    deliver: toExchange('consents'),
  },
  {
    resource: 'consents',
    name: 'patch',
    validate: oneOf((body) => (tagOf(body, 'status') === 'REVOKED' ? 'ConsentsIDPatchResponseRevoked' : 'ConsentsIDPatchResponseVerified')),
    deliver: consentPatch(options),
  },
  errorRoute('consents', toExchange('consents')),

  // Payments: the payee's party, the DFSP's authorization request, and the transaction request's outcome.
  { resource: 'parties', name: 'answer', validate: (body) => validateFspiop('PartiesTypeIDPutResponse', body), deliver: toExchange('parties') },
  errorRoute('parties', toExchange('parties')),
  {
    resource: 'thirdpartyRequests/authorizations',
    name: 'request',
    validate: (body) => validateThirdparty('ThirdpartyRequestsAuthorizationsPostRequest', body),
    deliver: (message, deps) =>
      handTo(participantWorkflowIds.pispTransaction((message.body as ThirdpartyRequestsAuthorizationsPostRequest).transactionRequestId), message, deps),
  },
  {
    resource: 'thirdpartyRequests/transactions',
    name: 'answer',
    validate: (body) => validateThirdparty('ThirdpartyRequestsTransactionsIDPutResponse', body),
    deliver: toTransaction,
  },
  {
    resource: 'thirdpartyRequests/transactions',
    name: 'patch',
    validate: (body) => validateThirdparty('ThirdpartyRequestsTransactionsIDPatchResponse', body),
    deliver: toTransaction,
  },
  errorRoute('thirdpartyRequests/transactions', toTransaction),
];
