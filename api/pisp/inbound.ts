import type { ConsentsPostRequestPISP, ThirdpartyRequestsAuthorizationsPostRequest } from '../contracts/bodies';
import type { Resource } from '../contracts/conversations';
import { participantWorkflowIds, PeerMessage } from '../contracts/peers';
import { handTo, InboundDependencies, InboundRoute } from '../connector/inbound';
import { tagOf, validateFspiop, validateThirdparty, ThirdpartySchema } from '../fspiop/schemas';

/**
 * Every message the switch delivers to a PISP (Document 1, the PISP's side of linking and payments), checked against
 * its schema and handed to the conversation waiting for it:
 *   - answers keyed by an ID the PISP chose (consentRequestId, transactionRequestId) go to its pispLinking or
 *     pispTransaction workflow; the DFSP's requests name it in their bodies (POST /consents: consentRequestId,
 *     POST /thirdpartyRequests/authorizations: transactionRequestId);
 *   - answers keyed by another ID (a service type, a user ID, a party, a consentId the DFSP chose) go to the exchange
 *     named after that ID, which the conversation (or the outbound gateway) started before it sent the request.
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

export const pispInbound: InboundRoute[] = [
  // Pre-linking and discovery: the switch's list of DFSPs, and a DFSP's accounts of a user.
  { resource: 'services', name: 'answer', validate: (body) => validateThirdparty('ServicesServiceTypePutResponse', body), deliver: toExchange('services') },
  errorRoute('services', toExchange('services')),
  { resource: 'accounts', name: 'answer', validate: (body) => validateThirdparty('AccountsIDPutResponse', body), deliver: toExchange('accounts') },
  errorRoute('accounts', toExchange('accounts')),

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
    deliver: toExchange('consents'),
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
