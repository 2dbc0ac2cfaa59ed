import type {
  ConsentRequestsPostRequest,
  ConsentsPostRequestAUTH,
  ConsentsPostRequestPISP,
  ErrorInformationObject,
  ServiceType,
  ThirdpartyRequestsAuthorizationsIDPutResponse,
  ThirdpartyRequestsAuthorizationsPostRequest,
  ThirdpartyRequestsTransactionsIDPatchResponse,
  ThirdpartyRequestsTransactionsIDPutResponse,
  ThirdpartyRequestsTransactionsPostRequest,
  ThirdpartyRequestsVerificationsIDPutResponse,
  ThirdpartyRequestsVerificationsPostRequest,
} from '../../activities/shared/contracts/bodies';
import { Consents } from '../../activities/hub/auth/consents';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { ResourceRoutes, SwitchDependencies } from '../fspiop/switchApp';
import { tagOf, validateThirdparty } from '../../activities/shared/contracts/schemas';
import { getConsent, registerConsent, unlinkConsent, verifyChallenge } from './authServiceMessages';
import { correlationKeys, fromDfsp, fromPisp, linkingOf, linkingOfConsent, rememberTransaction, transactionCorrelatedBy, transactionOf } from './observers';
import { answerServices } from './answerServices';
import { ObserverRef, thirdpartyRoutes } from './thirdpartyRoutes';

/** The observer of the transaction a correlated answer belongs to; the transaction's first message started it. */
async function correlatedTransaction(key: string, deps: SwitchDependencies): Promise<ObserverRef | undefined> {
  const transactionRequestId = await transactionCorrelatedBy(key, deps);
  return transactionRequestId ? transactionOf(transactionRequestId, {}) : undefined;
}

const errorFacts = (body: ErrorInformationObject) => ({ errorCode: body.errorInformation.errorCode });

/** {ID} of GET /accounts/{ID}: the user's identifier at the DFSP (ConsentRequestsPostRequest.userId), not a UUID. */
function userId(id: string): void {
  if (id.length < 1 || id.length > 128) throw new HttpError(400, 'malformedSyntax', 'path ID must be 1 to 128 characters');
  // However encoded, a URL reads these as steps up its path: passed on, they would leave /accounts/.
  if (id === '.' || id === '..') throw new HttpError(400, 'malformedSyntax', `path ID must not be "${id}"`);
}

/** /accounts (Document 1, discovery): the PISP's GET to the DFSP, the account list or error back. */
const accounts = thirdpartyRoutes({
  resource: 'accounts',
  checkId: userId,
  messages: [{ message: 'get' }, { message: 'answer', schemas: ['AccountsIDPutResponse'] }, { message: 'error' }],
});

/** /consentRequests (Document 1, request consent and authentication): each a step of the linking it starts. */
const consentRequests = thirdpartyRoutes({
  resource: 'consentRequests',
  messages: [
    {
      message: 'request',
      schemas: ['ConsentRequestsPostRequest'],
      idOf: (body: ConsentRequestsPostRequest) => body.consentRequestId,
      observer: ({ id, fspiop }) => linkingOf(id, fromPisp(fspiop)),
    },
    // The PUT asks the PISP to authenticate the user, the PATCH carries the authToken for the DFSP to check: requests
    // both, 202 in the third-party document (UpdateConsentRequest, PatchConsentRequest) and thirdparty-api-svc.
    {
      message: 'answer',
      ack: 202,
      schemas: ['ConsentRequestsIDPutResponseWeb', 'ConsentRequestsIDPutResponseOTP'],
      // Only the Web form has an authUri, to which the PISP sends the user; its one channel is WEB.
      pick: (body) => {
        const channels = tagOf(body, 'authChannels');
        const web = tagOf(body, 'authUri') !== undefined || (Array.isArray(channels) && channels.includes('WEB'));
        return web ? 'ConsentRequestsIDPutResponseWeb' : 'ConsentRequestsIDPutResponseOTP';
      },
      observer: ({ id, fspiop }) => linkingOf(id, fromDfsp(fspiop)),
    },
    {
      message: 'patch',
      ack: 202,
      schemas: ['ConsentRequestsIDPatchRequest'],
      observer: ({ id, fspiop }) => linkingOf(id, fromPisp(fspiop)),
    },
    {
      message: 'error',
      facts: errorFacts,
      observer: ({ id, fspiop }) => linkingOf(id, fromDfsp(fspiop)),
    },
  ],
});

/**
 * /consents (Document 1, grant consent, credential registration, unlinking). The DFSP's grant to an active PISP is
 * recorded (who the consent links, for its later messages and its unlinking); a registration, a GET or a DELETE
 * for the hub's Auth service is taken by it.
 */
const consents = thirdpartyRoutes({
  resource: 'consents',
  messages: [
    {
      message: 'request',
      schemas: ['ConsentsPostRequestAUTH', 'ConsentsPostRequestPISP'],
      // The registration with the Auth service carries the credential; the grant to the PISP has none yet.
      pick: (body) => (tagOf(body, 'credential') !== undefined ? 'ConsentsPostRequestAUTH' : 'ConsentsPostRequestPISP'),
      idOf: (body: ConsentsPostRequestPISP) => body.consentId,
      facts: (body: ConsentsPostRequestAUTH | ConsentsPostRequestPISP) => ({
        consentId: body.consentId,
        ...('credential' in body ? { state: body.credential.status } : {}),
      }),
      takenByHub: async (message, deps) => {
        // The Auth service's first: it takes a registration, and refuses (400) a grant addressed to it before anything
        // is recorded. What it leaves is addressed elsewhere.
        if (await registerConsent(message as never, deps)) return true;
        const pisp = message.fspiop.destination;
        // The record says who the consent links, which later messages and the unlinking trust: only a grant that can
        // reach an active participant is recorded.
        if (message.schema === 'ConsentsPostRequestPISP' && pisp && !(await deps.directory.unavailable(pisp))) {
          const body = message.body as ConsentsPostRequestPISP;
          await new Consents(deps.services.db).granted({
            consentId: body.consentId,
            consentRequestId: body.consentRequestId,
            dfsp: message.fspiop.source,
            pisp,
          });
        }
        return false;
      },
      observer: async ({ body, fspiop }, deps) =>
        body.consentRequestId ? linkingOf(body.consentRequestId, fromDfsp(fspiop)) : linkingOfConsent(body.consentId, deps),
    },
    { message: 'get', takenByHub: getConsent, observer: ({ id }, deps) => linkingOfConsent(id, deps) },
    {
      message: 'answer',
      // The signed credential asks the DFSP to have it registered. The document allows 200 or 202 (PutConsentByID);
      // thirdparty-api-svc answers 202.
      ack: 202,
      schemas: ['ConsentsIDPutResponseSigned', 'ConsentsIDPutResponseVerified'],
      pick: (body) => (tagOf(body, 'credential', 'status') === 'VERIFIED' ? 'ConsentsIDPutResponseVerified' : 'ConsentsIDPutResponseSigned'),
      facts: (body: { credential: { status: string } }) => ({ state: body.credential.status }),
      observer: ({ id }, deps) => linkingOfConsent(id, deps),
    },
    {
      message: 'patch',
      schemas: ['ConsentsIDPatchResponseVerified', 'ConsentsIDPatchResponseRevoked'],
      pick: (body) => (tagOf(body, 'status') === 'REVOKED' ? 'ConsentsIDPatchResponseRevoked' : 'ConsentsIDPatchResponseVerified'),
      facts: (body: { status?: string; credential?: { status: string } }) => ({ state: body.status ?? body.credential?.status }),
      observer: ({ id }, deps) => linkingOfConsent(id, deps),
    },
    { message: 'delete', takenByHub: unlinkConsent, observer: ({ id }, deps) => linkingOfConsent(id, deps) },
    { message: 'error', facts: errorFacts, observer: ({ id }, deps) => linkingOfConsent(id, deps) },
  ],
});

/** /thirdpartyRequests/transactions (Document 1, payment flow): each a step of its third-party transaction. */
const transactions = thirdpartyRoutes({
  resource: 'thirdpartyRequests/transactions',
  messages: [
    {
      message: 'request',
      schemas: ['ThirdpartyRequestsTransactionsPostRequest'],
      idOf: (body: ThirdpartyRequestsTransactionsPostRequest) => body.transactionRequestId,
      facts: (body: ThirdpartyRequestsTransactionsPostRequest) => ({
        expiration: body.expiration,
        currency: body.amount.currency,
        ...(body.payee.partyIdInfo.fspId ? { payeeFsp: body.payee.partyIdInfo.fspId } : {}),
      }),
      observer: ({ id, fspiop, body }) => transactionOf(id, fromPisp(fspiop), { currency: body.amount.currency, payeeFsp: body.payee.partyIdInfo.fspId }),
    },
    { message: 'get', observer: ({ id, fspiop }) => transactionOf(id, fromPisp(fspiop)) },
    {
      message: 'answer',
      schemas: ['ThirdpartyRequestsTransactionsIDPutResponse'],
      facts: (body: ThirdpartyRequestsTransactionsIDPutResponse) => ({ state: body.transactionRequestState }),
      observer: ({ id, fspiop }) => transactionOf(id, fromDfsp(fspiop)),
    },
    {
      // The final notification: 200 in the document (NotifyThirdpartyTransactionRequests), which the switch follows
      // where thirdparty-api-svc differs from it (it answers 202).
      message: 'patch',
      schemas: ['ThirdpartyRequestsTransactionsIDPatchResponse'],
      facts: (body: ThirdpartyRequestsTransactionsIDPatchResponse) => ({ state: body.transactionState }),
      observer: ({ id, fspiop }) => transactionOf(id, fromDfsp(fspiop)),
    },
    { message: 'error', facts: errorFacts, observer: ({ id, fspiop }) => transactionOf(id, fromDfsp(fspiop)) },
  ],
});

/** /thirdpartyRequests/authorizations (Document 1, payment flow rules 4 and 5): the DFSP asks the PISP for the user's signature. */
const authorizations = thirdpartyRoutes({
  resource: 'thirdpartyRequests/authorizations',
  messages: [
    {
      message: 'request',
      schemas: ['ThirdpartyRequestsAuthorizationsPostRequest'],
      idOf: (body: ThirdpartyRequestsAuthorizationsPostRequest) => body.authorizationRequestId,
      observer: async ({ body, fspiop }, deps) => {
        // The answer names only the authorization, the verification only its challenge: both lead back here.
        const keys = [correlationKeys.authorization(body.authorizationRequestId), correlationKeys.challenge(body.challenge)];
        await rememberTransaction(keys, body.transactionRequestId, deps);
        return transactionOf(body.transactionRequestId, fromDfsp(fspiop));
      },
    },
    {
      message: 'answer',
      schemas: [
        'ThirdpartyRequestsAuthorizationsIDPutResponseFIDO',
        'ThirdpartyRequestsAuthorizationsIDPutResponseGeneric',
        'ThirdpartyRequestsAuthorizationsIDPutResponseRejected',
      ],
      pick: (body) => {
        if (tagOf(body, 'responseType') === 'REJECTED') return 'ThirdpartyRequestsAuthorizationsIDPutResponseRejected';
        const generic = tagOf(body, 'signedPayload', 'signedPayloadType') === 'GENERIC';
        return generic ? 'ThirdpartyRequestsAuthorizationsIDPutResponseGeneric' : 'ThirdpartyRequestsAuthorizationsIDPutResponseFIDO';
      },
      facts: (body: ThirdpartyRequestsAuthorizationsIDPutResponse) => ({ responseType: body.responseType }),
      observer: ({ id }, deps) => correlatedTransaction(correlationKeys.authorization(id), deps),
    },
    {
      message: 'error',
      facts: errorFacts,
      observer: ({ id }, deps) => correlatedTransaction(correlationKeys.authorization(id), deps),
    },
  ],
});

/** /thirdpartyRequests/verifications (Document 1, payment flow rule 6): to the hub's Auth service, or routed to another. */
const verifications = thirdpartyRoutes({
  resource: 'thirdpartyRequests/verifications',
  messages: [
    {
      message: 'request',
      schemas: ['ThirdpartyRequestsVerificationsPostRequestFIDO', 'ThirdpartyRequestsVerificationsPostRequestGeneric'],
      pick: (body) =>
        tagOf(body, 'signedPayloadType') === 'GENERIC' ? 'ThirdpartyRequestsVerificationsPostRequestGeneric' : 'ThirdpartyRequestsVerificationsPostRequestFIDO',
      idOf: (body: ThirdpartyRequestsVerificationsPostRequest) => body.verificationRequestId,
      facts: (body: ThirdpartyRequestsVerificationsPostRequest) => ({ consentId: body.consentId }),
      takenByHub: verifyChallenge,
      observer: async ({ body }, deps) => {
        // A verification names the challenge of the authorization it checks, which leads to the transaction.
        const transactionRequestId = await transactionCorrelatedBy(correlationKeys.challenge(body.challenge), deps);
        if (!transactionRequestId) return undefined;
        await rememberTransaction([correlationKeys.verification(body.verificationRequestId)], transactionRequestId, deps);
        return transactionOf(transactionRequestId, {});
      },
    },
    {
      message: 'answer',
      schemas: ['ThirdpartyRequestsVerificationsIDPutResponse'],
      facts: (body: ThirdpartyRequestsVerificationsIDPutResponse) => ({ state: body.authenticationResponse }),
      observer: ({ id }, deps) => correlatedTransaction(correlationKeys.verification(id), deps),
    },
    {
      message: 'error',
      facts: errorFacts,
      observer: ({ id }, deps) => correlatedTransaction(correlationKeys.verification(id), deps),
    },
  ],
});

/** /services (Document 1, pre-linking): the switch answers which participants offer a service. */
const services = thirdpartyRoutes({
  resource: 'services',
  checkId: (id) => void validateThirdparty<ServiceType>('ServiceType', id, 'path ServiceType'),
  messages: [{ message: 'get', takenByHub: answerServices }, { message: 'answer', schemas: ['ServicesServiceTypePutResponse'] }, { message: 'error' }],
});

/** Every third-party resource the switch routes. */
export const thirdpartyResources: ResourceRoutes[] = [accounts, consentRequests, consents, transactions, authorizations, verifications, services];
