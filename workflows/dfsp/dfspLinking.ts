import { setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { ConsentRequestsPostRequest, ConsentsIDPutResponseVerified, SignedCredential } from '../../activities/shared/contracts/bodies';
import { type ErrorInformation, errorInformation } from '../../activities/shared/contracts/errors';
import { errorInformationOf, OutgoingMessage, PeerMessage } from '../../activities/shared/contracts/peers';
import { ConsentId, Pisp, State } from '../../activities/shared/contracts/searchAttributes';
import { messages } from '../participant/participantProxies';
import { exchangeAsChild, ExchangeOutcome, exchangeInTurn } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { answeredWithError, answerOf } from './exchangeAnswers';
import { bank } from './thirdpartyProxies';
import { inTurn } from '../kit/steps';
import type { ThirdpartyIdentity } from '../../activities/dfsp/thirdparty/thirdpartyActivities';
import { DfspLinkingView, dfspLinkingQuery } from './thirdpartyContracts';

/** How long the DFSP waits for what needs the user (their authToken, their signed credential). */
const USER_STEP_MS = 10 * 60_000;

export interface DfspLinkingInput {
  consentRequestId: string;
}

/**
 * POST /participants/THIRD_PARTY_LINK/{address} and the account lookup's answer. The exchange is named by the
 * address, the answer's only key: while another linking of the same account registers it (another PISP, at the same
 * moment), this one waits its turn, and the lookup then answers it as the holder's repeated registration.
 */
function registerLink(address: string, fspId: string, waitMs: number): Promise<ExchangeOutcome> {
  const id = `THIRD_PARTY_LINK/${address}`;
  return exchangeInTurn({ request: { resource: 'participants', name: 'request', id, body: { fspId } }, answerId: id, waitMs });
}

/**
 * `dfspLinking/<consentRequestId>`: the DFSP's side of a linking (Document 1, "Linking"), started by the PISP's
 * POST /consentRequests. Request consent (the bank's checks, then WEB or OTP), authentication (the PISP's PATCH with
 * the authToken), grant consent (POST /consents to the PISP, which answers with the signed credential), credential
 * registration (POST /consents to the Auth service, which answers VERIFIED), the consent kept by the bank, a
 * THIRD_PARTY_LINK per account, and the PISP told with PATCH /consents/{ID}. Each failure is told to the PISP on the
 * resource it is waiting on: the consent request before a consent exists, the consent after.
 */
export async function dfspLinking({ consentRequestId }: DfspLinkingInput): Promise<DfspLinkingView['state']> {
  const inbox = new Inbox();
  const view: DfspLinkingView = { state: 'RECEIVED' };
  setHandler(dfspLinkingQuery, () => view);
  const posted = await inbox.next<ConsentRequestsPostRequest>(kindsOn('consentRequests', 'request'), USER_STEP_MS);
  if (!posted) return 'FAILED';
  view.pisp = posted.source;
  upsertSearchAttributes([{ key: Pisp, value: posted.source }]);
  const linking: Linking = { consentRequestId, inbox, view, request: posted.body, pisp: posted.source, me: await bank.thirdpartyIdentity() };
  return inTurn(linking, [requestConsent, authenticateUser, grantConsent, registerCredential, linkAccounts]);
}

/** What the steps of one linking share; each later field is set by the step that learns it. */
interface Linking {
  readonly consentRequestId: string;
  readonly inbox: Inbox;
  readonly view: DfspLinkingView;
  readonly request: ConsentRequestsPostRequest;
  /** The PISP that asked: only it may pass the user's secret on and sign the credential (Document 1, "Authentication"). */
  readonly pisp: string;
  readonly me: ThirdpartyIdentity;
  consentId?: string;
  credential?: SignedCredential;
}

type Ended = DfspLinkingView['state'];

/** Request consent: the bank's checks (6205, 6101, 6204, 6104), then the user is sent an OTP or a login page. */
async function requestConsent(linking: Linking): Promise<Ended | undefined> {
  const { request, consentRequestId } = linking;
  const checked = await bank.checkConsentRequest(request);
  if (!checked.ok) return refuseRequest(linking, checked.errorInformation);
  const { channel } = checked;
  const { authUri } = await bank.startUserAuthentication({ request, channel });
  const callbackUri = request.callbackUri ? { callbackUri: request.callbackUri } : {};
  await toPisp(linking, {
    resource: 'consentRequests',
    name: 'answer',
    id: consentRequestId,
    body:
      channel === 'WEB'
        ? { scopes: request.scopes, authChannels: ['WEB'], ...callbackUri, authUri }
        : { scopes: request.scopes, authChannels: ['OTP'], ...callbackUri },
  });
  moveTo(linking, 'AUTHENTICATING');
  return undefined;
}

/** Authentication: the secret the user got comes back through the PISP; the consent exists only once it is right (rule 4). */
async function authenticateUser(linking: Linking): Promise<Ended | undefined> {
  const { consentRequestId, pisp } = linking;
  const fromPisp = (message: PeerMessage) => kindsOn('consentRequests', 'patch')(message) && message.source === pisp;
  const authenticated = await linking.inbox.next<{ authToken: string }>(fromPisp, USER_STEP_MS);
  if (!authenticated) return refuseRequest(linking, errorInformation('thirdpartyAccountLinkingError', 'no authToken came in time'));
  if (!(await bank.verifyAuthToken({ consentRequestId, authToken: authenticated.body.authToken }))) {
    return refuseRequest(linking, errorInformation('otpValidationError'));
  }
  return undefined;
}

/** Grant consent: the PISP answers with the credential the user created over the consent's challenge. */
async function grantConsent(linking: Linking): Promise<Ended | undefined> {
  const { consentRequestId, pisp, view } = linking;
  const { scopes } = linking.request;
  const consentId = uuid4();
  linking.consentId = view.consentId = consentId;
  upsertSearchAttributes([{ key: ConsentId, value: consentId }]);
  moveTo(linking, 'GRANTED');
  const grant = await exchangeAsChild({
    request: { to: pisp, resource: 'consents', name: 'request', body: { consentId, consentRequestId, scopes, status: 'ISSUED' } },
    answerId: consentId,
    from: [pisp],
    waitMs: USER_STEP_MS,
  });
  if (grant.kind === 'answered' && grant.message.name === 'error') {
    // The PISP gave up the linking itself: there is no one to tell.
    view.errorInformation = errorInformationOf(grant.message);
    moveTo(linking, 'FAILED');
    return view.state;
  }
  const signed = answerOf<{ credential: SignedCredential }>(grant);
  if (!signed) return refuseConsent(linking, errorInformation('thirdpartyAccountLinkingError', 'no signed credential came in time'));
  linking.credential = signed.credential;
  return undefined;
}

/**
 * Credential registration with the Auth service, which checks the credential signs the consent's challenge. Its
 * verdict comes back on PUT /consents/{ID}, an ID the PISP knows too: only the Auth service's answer is taken.
 */
async function registerCredential(linking: Linking): Promise<Ended | undefined> {
  const { consentRequestId, consentId, credential, me } = linking as Required<Linking>;
  const { scopes } = linking.request;
  moveTo(linking, 'REGISTERING');
  const registration = await exchangeAsChild({
    request: { to: me.authServiceId, resource: 'consents', name: 'request', body: { consentId, consentRequestId, scopes, credential, status: 'ISSUED' } },
    answerId: consentId,
    from: [me.authServiceId],
    waitMs: me.requestTimeoutMs,
  });
  if (answerOf<ConsentsIDPutResponseVerified>(registration)?.credential.status === 'VERIFIED') return undefined;
  // The Auth service refusing the credential is the consent being invalid (thirdparty-sdk: TP_CONSENT_INVALID).
  const refused = answeredWithError(registration);
  return refuseConsent(
    linking,
    refused ? errorInformation('consentInvalid') : errorInformation('thirdpartyAccountLinkingError', 'the Auth service did not register the credential'),
  );
}

/**
 * The bank keeps the consent, then the switch's account lookup learns each linked account (Document 1,
 * THIRD_PARTY_LINK), and the PISP is told the credential is registered (thirdparty-sdk notifyVerificationToPISP).
 */
async function linkAccounts(linking: Linking): Promise<Ended> {
  const { consentRequestId, consentId, credential, me, pisp, request } = linking as Required<Linking>;
  const { scopes } = request;
  await bank.storeConsent({
    consentId,
    consentRequestId,
    pispId: pisp,
    userId: request.userId,
    scopes,
    status: 'VERIFIED',
    credentialType: credential.credentialType,
  });
  const links = await Promise.all(scopes.map((scope) => registerLink(scope.address, me.dfspId, me.requestTimeoutMs)));
  if (!links.every((link) => answerOf(link) !== undefined)) {
    // Without its links the PISP cannot pay from the accounts: the consent is not kept as usable.
    await bank.consentRevoked({ consentId, revokedAt: new Date().toISOString() });
    return refuseConsent(linking, errorInformation('failedToRegisterAccountLinks'));
  }
  await toPisp(linking, { resource: 'consents', name: 'patch', id: consentId, body: { credential: { status: 'VERIFIED' } } });
  moveTo(linking, 'LINKED');
  return linking.view.state;
}

function moveTo({ view }: Linking, state: DfspLinkingView['state']): void {
  view.state = state;
  upsertSearchAttributes([{ key: State, value: state }]);
}

const toPisp = ({ pisp }: Linking, message: Omit<OutgoingMessage, 'to'>) => messages.sendToSwitch({ to: pisp, ...message });

/** A failure is told to the PISP on the resource it is waiting on: the consent request before a consent exists, the consent after. */
async function failed(linking: Linking, resource: 'consentRequests' | 'consents', id: string, errorInformation: ErrorInformation): Promise<Ended> {
  linking.view.errorInformation = errorInformation;
  moveTo(linking, 'FAILED');
  await toPisp(linking, { resource, name: 'error', id, body: { errorInformation } });
  return linking.view.state;
}

const refuseRequest = (linking: Linking, why: ErrorInformation) => failed(linking, 'consentRequests', linking.consentRequestId, why);
const refuseConsent = (linking: Linking, why: ErrorInformation) => failed(linking, 'consents', linking.consentId!, why);
