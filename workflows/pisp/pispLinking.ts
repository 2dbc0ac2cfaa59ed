import { upsertSearchAttributes } from '@temporalio/workflow';
import type { ConsentRequestsPostRequest, ConsentsPostRequestPISP, SignedCredential } from '../../activities/shared/contracts/bodies';
import { errorInformation, type ErrorInformation } from '../../activities/shared/contracts/errors';
import { errorInformationOf, type PeerMessage } from '../../activities/shared/contracts/peers';
import { ConsentId, Dfsp } from '../../activities/shared/contracts/searchAttributes';
import { exchangeAsChild } from '../participant/exchange';
import { Inbox, kindsOn, saidBy } from '../participant/inbox';
import { inTurn } from '../kit/steps';
import { credentials } from './pispProxies';
import { APP_IDLE_MS, AppCalls, enter, errored } from './appCalls';
import type { PispLinkingOutcome } from '../../activities/shared/contracts/pispLinking';
import { authenticate, ChannelResponse, passCredential, PispConversationInput, requestConsent } from './appApi';
import { timedOut, whySendingFailed } from './sending';

/**
 * `pispLinking/<consentRequestId>`: the PISP's side of linking a user's account at a DFSP (Document 1, "Linking"),
 * driven by the app's three calls: request consent, authenticate, pass the credential. Each call is answered once the
 * DFSP's message that ends its step has come, or with an error; an error ends the linking.
 */
export async function pispLinking({ requestTimeoutMs }: PispConversationInput): Promise<PispLinkingOutcome> {
  const linking: Linking = { requestTimeoutMs, inbox: new Inbox(), calls: new AppCalls([requestConsent, authenticate, passCredential]) };
  enter('start');
  return inTurn(linking, [askForConsent, passAuthToken, registerCredential]);
}

/** What the steps of one linking share; each later field is set by the step that learns it. */
interface Linking {
  readonly requestTimeoutMs: number;
  readonly inbox: Inbox;
  readonly calls: AppCalls;
  consentRequestId?: string;
  dfsp?: string;
  /**
   * The channel and the grant come from the DFSP the request went to, and from no other participant that knows the
   * consentRequestId: the grant names the consent whose challenge the connector signs. Its error may come from the
   * switch itself too (saidBy).
   */
  fromDfsp?: (message: PeerMessage) => boolean;
  consent?: ConsentsPostRequestPISP;
}

/** Request consent: POST /consentRequests to the DFSP, which answers with the channel the user authenticates on. */
async function askForConsent(linking: Linking): Promise<PispLinkingOutcome | undefined> {
  const { calls, inbox, requestTimeoutMs } = linking;
  const request = await calls.next(requestConsent, APP_IDLE_MS);
  if (!request) return { state: 'abandoned' };
  const { toParticipantId: dfsp, consentRequestId, userId, accounts, actions, callbackUri } = request.input;
  upsertSearchAttributes([{ key: Dfsp, value: dfsp }]);
  const fromDfsp = saidBy(dfsp);
  Object.assign(linking, { dfsp, consentRequestId, fromDfsp });
  const consentRequest: ConsentRequestsPostRequest = {
    consentRequestId,
    userId,
    scopes: accounts.map(({ address }) => ({ address, actions })),
    authChannels: ['WEB', 'OTP'],
    callbackUri,
  };
  const refused = await whySendingFailed({ to: dfsp, resource: 'consentRequests', name: 'request', body: consentRequest });
  if (refused) return fail(linking, request, refused);
  const channel = await inbox.next((m) => kindsOn('consentRequests', 'answer', 'error')(m) && fromDfsp(m), requestTimeoutMs);
  if (!channel) return fail(linking, request, timedOut('PUT /consentRequests/{ID}', requestTimeoutMs));
  if (channel.name === 'error') return fail(linking, request, errorInformationOf(channel));
  const channelResponse = channel.body as ChannelResponse;
  const channelState = channelResponse.authChannels[0] === 'WEB' ? 'WebAuthenticationChannelResponseReceived' : 'OTPAuthenticationChannelResponseReceived';
  request.answer({ channelResponse, currentState: channelState });
  enter(channelState);
  return undefined;
}

/** Authentication: the OTP or the WEB channel's secret goes to the DFSP, which grants the consent (POST /consents). */
async function passAuthToken(linking: Linking): Promise<PispLinkingOutcome | undefined> {
  const { calls, inbox, requestTimeoutMs, dfsp, consentRequestId, fromDfsp } = linking as Required<Linking>;
  const authentication = await calls.next(authenticate, APP_IDLE_MS);
  if (!authentication) return { state: 'abandoned' };
  const refused = await whySendingFailed({
    to: dfsp,
    resource: 'consentRequests',
    name: 'patch',
    id: consentRequestId,
    body: { authToken: authentication.input.authToken },
  });
  if (refused) return fail(linking, authentication, refused);
  const granted = await inbox.next((m) => (kindsOn('consents', 'request')(m) || kindsOn('consentRequests', 'error')(m)) && fromDfsp(m), requestTimeoutMs);
  if (!granted) return fail(linking, authentication, timedOut('POST /consents', requestTimeoutMs));
  if (granted.name === 'error') return fail(linking, authentication, errorInformationOf(granted));
  const consent = granted.body as ConsentsPostRequestPISP;
  linking.consent = consent;
  upsertSearchAttributes([{ key: ConsentId, value: consent.consentId }]);
  const challenge = await credentials.registrationChallenge(consent);
  authentication.answer({ consent, challenge, currentState: 'consentReceivedAwaitingCredential' });
  enter('consentReceivedAwaitingCredential');
  return undefined;
}

/**
 * Credential registration: PUT /consents/{ID} with the signed challenge; the DFSP has the Auth service verify it and
 * tells the PISP with PATCH (or PUT) /consents/{ID}. That answer is keyed by consentId, which the DFSP chose: an
 * exchange named after it receives it.
 */
async function registerCredential(linking: Linking): Promise<PispLinkingOutcome> {
  const { calls, requestTimeoutMs, dfsp, consent } = linking as Required<Linking>;
  const registration = await calls.next(passCredential, APP_IDLE_MS);
  if (!registration) return { state: 'abandoned' };
  const offered = registration.input.credential;
  const credential: SignedCredential =
    'payload' in offered
      ? { credentialType: 'FIDO', status: 'PENDING', fidoPayload: offered.payload }
      : { credentialType: 'GENERIC', status: 'PENDING', genericPayload: await credentials.genericCredential(consent) };
  const registered = await exchangeAsChild({
    request: { to: dfsp, resource: 'consents', name: 'answer', id: consent.consentId, body: { status: 'ISSUED', scopes: consent.scopes, credential } },
    answerId: consent.consentId,
    answeredBy: ['patch', 'answer', 'error'],
    // The DFSP tells the PISP what the Auth service found (Document 1: PUT /consents/{ID}, DFSP to PISP).
    from: [dfsp],
    waitMs: requestTimeoutMs,
  });
  if (registered.kind === 'refused') return fail(linking, registration, registered.errorInformation);
  if (registered.kind === 'timedOut') return fail(linking, registration, timedOut('PATCH /consents/{ID}', requestTimeoutMs));
  if (registered.message.name === 'error') return fail(linking, registration, errorInformationOf(registered.message));
  // Only a VERIFIED credential links the accounts: a PATCH that says REVOKED (the consent withdrawn meanwhile) does not.
  const status = (registered.message.body as { credential?: { status?: string }; status?: string } | undefined)?.credential?.status;
  if (status !== 'VERIFIED') {
    const said = status ?? (registered.message.body as { status?: string } | undefined)?.status ?? 'no credential status';
    return fail(linking, registration, errorInformation('thirdpartyAccountLinkingError', `the DFSP answered the registration with ${said}, not VERIFIED`));
  }
  registration.answer({ credential: { status: 'VERIFIED' }, currentState: 'accountsLinked' });
  enter('accountsLinked');
  await calls.finished();
  return { state: 'accountsLinked', consentId: consent.consentId, dfsp, scopes: consent.scopes };
}

/** An error answers the app's call and ends the linking. */
async function fail(linking: Linking, call: { answer(body: ReturnType<typeof errored>): void }, why: ErrorInformation): Promise<PispLinkingOutcome> {
  call.answer(errored(why));
  await linking.calls.finished();
  return { state: 'errored' };
}
