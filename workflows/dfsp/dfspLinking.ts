import { setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { ConsentRequestsPostRequest, ConsentsIDPutResponseVerified, SignedCredential } from '../../api/contracts/bodies';
import { type ErrorInformation, errorInformation } from '../../api/contracts/errors';
import { errorInformationOf, OutgoingMessage, PeerMessage } from '../../api/contracts/peers';
import { ConsentId, Pisp, State } from '../../api/contracts/searchAttributes';
import { messages } from '../participant/participantProxies';
import { exchangeAsChild, ExchangeOutcome, exchangeInTurn } from '../participant/exchange';
import { Inbox, kindsOn } from '../participant/inbox';
import { answeredWithError, answerOf } from './answers';
import { bank } from './thirdpartyProxies';
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
  const moveTo = (state: DfspLinkingView['state']) => {
    view.state = state;
    upsertSearchAttributes([{ key: State, value: state }]);
  };

  const posted = await inbox.next<ConsentRequestsPostRequest>(kindsOn('consentRequests', 'request'), USER_STEP_MS);
  if (!posted) return 'FAILED';
  const request = posted.body;
  const pisp = posted.source;
  view.pisp = pisp;
  upsertSearchAttributes([{ key: Pisp, value: pisp }]);
  const me = await bank.thirdpartyIdentity();
  const toPisp = (message: Omit<OutgoingMessage, 'to'>) => messages.sendToSwitch({ to: pisp, ...message });
  const failed = async (resource: 'consentRequests' | 'consents', id: string, errorInformation: ErrorInformation) => {
    view.errorInformation = errorInformation;
    moveTo('FAILED');
    await toPisp({ resource, name: 'error', id, body: { errorInformation } });
    return view.state;
  };
  const refuseRequest = (errorInformation: ErrorInformation) => failed('consentRequests', consentRequestId, errorInformation);

  // Request consent: the bank's checks (6205, 6101, 6204, 6104), then the user is sent an OTP or a login page.
  const checked = await bank.checkConsentRequest(request);
  if (!checked.ok) return refuseRequest(checked.errorInformation);
  const { channel } = checked;
  const { authUri } = await bank.startUserAuthentication({ request, channel });
  const callbackUri = request.callbackUri ? { callbackUri: request.callbackUri } : {};
  await toPisp({
    resource: 'consentRequests',
    name: 'answer',
    id: consentRequestId,
    body:
      channel === 'WEB'
        ? { scopes: request.scopes, authChannels: ['WEB'], ...callbackUri, authUri }
        : { scopes: request.scopes, authChannels: ['OTP'], ...callbackUri },
  });
  moveTo('AUTHENTICATING');

  // Authentication: the secret the user got comes back through the PISP; the consent exists only once it is right (rule 4).
  // Only the PISP that asked may pass the user's secret on (Document 1, "Authentication"): another's PATCH is not taken.
  const fromPisp = (message: PeerMessage) => kindsOn('consentRequests', 'patch')(message) && message.source === pisp;
  const authenticated = await inbox.next<{ authToken: string }>(fromPisp, USER_STEP_MS);
  if (!authenticated) return refuseRequest(errorInformation('thirdpartyAccountLinkingError', 'no authToken came in time'));
  if (!(await bank.verifyAuthToken({ consentRequestId, authToken: authenticated.body.authToken }))) {
    return refuseRequest(errorInformation('otpValidationError'));
  }

  // Grant consent: the PISP answers with the credential the user created over the consent's challenge.
  const consentId = uuid4();
  view.consentId = consentId;
  upsertSearchAttributes([{ key: ConsentId, value: consentId }]);
  const { scopes } = request;
  const refuseConsent = (errorInformation: ErrorInformation) => failed('consents', consentId, errorInformation);
  moveTo('GRANTED');
  const grant = await exchangeAsChild({
    request: { to: pisp, resource: 'consents', name: 'request', body: { consentId, consentRequestId, scopes, status: 'ISSUED' } },
    answerId: consentId,
    from: [pisp],
    waitMs: USER_STEP_MS,
  });
  if (grant.kind === 'answered' && grant.message.name === 'error') {
    // The PISP gave up the linking itself: there is no one to tell.
    view.errorInformation = errorInformationOf(grant.message);
    moveTo('FAILED');
    return view.state;
  }
  const signed = answerOf<{ credential: SignedCredential }>(grant);
  if (!signed) return refuseConsent(errorInformation('thirdpartyAccountLinkingError', 'no signed credential came in time'));
  const { credential } = signed;

  // Credential registration with the Auth service, which checks the credential signs the consent's challenge. Its
  // verdict comes back on PUT /consents/{ID}, an ID the PISP knows too: only the Auth service's answer is taken.
  moveTo('REGISTERING');
  const registration = await exchangeAsChild({
    request: { to: me.authServiceId, resource: 'consents', name: 'request', body: { consentId, consentRequestId, scopes, credential, status: 'ISSUED' } },
    answerId: consentId,
    from: [me.authServiceId],
    waitMs: me.requestTimeoutMs,
  });
  if (answerOf<ConsentsIDPutResponseVerified>(registration)?.credential.status !== 'VERIFIED') {
    // The Auth service refusing the credential is the consent being invalid (thirdparty-sdk: TP_CONSENT_INVALID).
    const refused = answeredWithError(registration);
    return refuseConsent(
      refused ? errorInformation('consentInvalid') : errorInformation('thirdpartyAccountLinkingError', 'the Auth service did not register the credential'),
    );
  }

  // The bank keeps the consent, then the switch's account lookup learns each linked account (Document 1, THIRD_PARTY_LINK).
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
    return refuseConsent(errorInformation('failedToRegisterAccountLinks'));
  }

  // The PISP is told the credential is registered: the linking is done (thirdparty-sdk notifyVerificationToPISP).
  await toPisp({ resource: 'consents', name: 'patch', id: consentId, body: { credential: { status: 'VERIFIED' } } });
  moveTo('LINKED');
  return view.state;
}
