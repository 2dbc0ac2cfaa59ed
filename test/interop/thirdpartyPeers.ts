import crypto from 'node:crypto';
import { loadConfig } from '../../activities/shared/platform/config';
import { jsonOrUndefined } from '../helpers/http';
import { onboardParticipant } from '../helpers/hubProcesses';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { DfspBackend } from './backend';
import { startOurPisp, type OurConnector, type OurDfsp } from './ourConnectors';
import { startRedis, startSdkAdapter, Tap, type SdkAdapter } from './peers';
import { check, log, say } from './report';
import { CURRENCY, position, sendFspiop, type Dfsp, type Hub } from './scheme';
import { ThirdpartyBackend, type BankAccount } from './thirdpartyBackend';
import { installThirdpartySdk, startThirdpartySdk, thirdpartySdkAvailable, type ThirdpartySdk } from './thirdpartySdk';

/**
 * The third-party API (Document 1) between real Mojaloop software and this codebase: Mojaloop's thirdparty-sdk as a
 * PISP and as a third-party DFSP, each beside a stock sdk-scheme-adapter of the same participant (the DFSP's makes its
 * quotes and transfers, the PISP's its party lookups) as Mojaloop deploys them, the payee a stock sdk-scheme-adapter
 * DFSP, and the hub's Auth service holding the consents. Then the same story across implementations: our PISP
 * connector with the SDK DFSP, the SDK PISP with our DFSP connector; and our PISP connector's outbound API against the
 * SDK's, call by call.
 */

/** What the scenarios need of the run: the hub, a payee DFSP with a registered customer, our DFSP connector if it runs. */
export interface ThirdpartyRun {
  hub: Hub;
  redisServer: string;
  suffix: string;
  stoppers: Array<() => Promise<unknown>>;
  payee: Dfsp;
  payeeId: string;
  ours?: OurDfsp;
}

/** The participant names of the third-party scenarios: each signs with a JWS key the run makes for it. */
export const thirdpartyIds = (suffix: string) => ({ sdkPisp: `tppisp${suffix}`, sdkDfsp: `tpdfsp${suffix}`, ourPisp: `ourpisp${suffix}` });

/** An answer of a PISP's outbound API (the thirdparty-sdk's, or our connector's, which offers the same). */
interface AppAnswer {
  status: number;
  body: any;
}

/** A PISP as its app sees it: its outbound API, and a tap recording what the hub delivered to it. */
interface Pisp {
  name: string;
  what: string;
  call(urlPath: string, method?: string, body?: unknown): Promise<AppAnswer>;
  tap: Tap;
}

/** A third-party DFSP as the story needs it: its name, the tap before its third-party API, how its users get their secret. */
interface ThirdpartyDfsp {
  name: string;
  what: string;
  tap: Tap;
  /** The secret the bank gave the user for a consent request (the OTP, the web login's token). */
  secretFor(consentRequestId: string, userId: string): Promise<string | undefined>;
}

/** A user of a third-party DFSP, with the account a PISP links. */
interface LinkingUser {
  userId: string;
  account: BankAccount;
  channel: 'OTP' | 'WEB';
}

function appOf(baseUrl: string): Pisp['call'] {
  return async (urlPath, method = 'GET', body) => {
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      // The SDK's account discovery waits without a timeout of its own.
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, body: jsonOrUndefined(await response.text()) };
  };
}

/** The outbound calls a story made, in order, with what each answered: compared across the two PISP implementations. */
type Transcript = Array<{ call: string; answer: AppAnswer }>;

async function recorded(transcript: Transcript, call: string, answer: Promise<AppAnswer>): Promise<AppAnswer> {
  const answered = await answer;
  transcript.push({ call, answer: answered });
  return answered;
}

/** A linked account: its consent, and what the user signs payments with. */
interface Link {
  consentId: string;
  address: string;
  device?: SoftAuthenticator;
}

/**
 * Account discovery and linking, from the PISP app's calls: GET /linking/accounts, POST /linking/request-consent (the
 * DFSP picks the channel), the user's secret (PATCH …/authenticate), then the credential (POST …/pass-credential):
 * a FIDO attestation of a software authenticator, or GENERIC, a key our connector keeps.
 */
async function link(
  pisp: Pisp,
  dfsp: ThirdpartyDfsp,
  user: LinkingUser,
  credential: 'FIDO' | 'GENERIC',
  transcript: Transcript = [],
): Promise<Link | undefined> {
  const between = `${pisp.what} and ${dfsp.what}`;
  const accounts = await recorded(transcript, 'GET /linking/accounts', pisp.call(`/linking/accounts/${dfsp.name}/${encodeURIComponent(user.userId)}`));
  check(
    `${pisp.what} discovers ${user.userId}'s accounts at ${dfsp.what} through the hub (GET /accounts/{ID} and its PUT)`,
    accounts.status === 200 && (accounts.body?.accounts ?? []).some((account: BankAccount) => account.address === user.account.address),
    accounts,
  );
  const consentRequestId = crypto.randomUUID();
  const requested = await recorded(
    transcript,
    'POST /linking/request-consent',
    pisp.call('/linking/request-consent', 'POST', {
      consentRequestId,
      toParticipantId: dfsp.name,
      accounts: [user.account],
      actions: ['ACCOUNTS_TRANSFER'],
      userId: user.userId,
      callbackUri: 'pisp-app://linked',
    }),
  );
  const expected = user.channel === 'OTP' ? 'OTPAuthenticationChannelResponseReceived' : 'WebAuthenticationChannelResponseReceived';
  const channelOk = user.channel === 'OTP' || typeof requested.body?.channelResponse?.authUri === 'string';
  if (
    !check(
      `${between} open a linking; the DFSP answers with the ${user.channel} channel (${expected})`,
      requested.body?.currentState === expected && channelOk,
      requested,
    )
  )
    return undefined;
  const secret = await dfsp.secretFor(consentRequestId, user.userId);
  const authenticated = await recorded(
    transcript,
    'PATCH /linking/request-consent/{ID}/authenticate',
    pisp.call(`/linking/request-consent/${consentRequestId}/authenticate`, 'PATCH', { authToken: secret }),
  );
  const consentId = authenticated.body?.consent?.consentId;
  if (
    !check(
      `the ${user.channel === 'OTP' ? 'OTP the bank sent the user' : "token of the bank's web login"} is accepted and the DFSP grants the consent (POST /consents to the PISP)`,
      authenticated.body?.currentState === 'consentReceivedAwaitingCredential' && typeof consentId === 'string',
      authenticated,
    )
  )
    return undefined;
  const { rpId, origins } = loadConfig().authService;
  const device =
    credential === 'FIDO'
      ? await SoftAuthenticator.create({ rpId, origin: origins[0], format: 'packed', credentialId: crypto.randomBytes(64).toString('base64url') })
      : undefined;
  const linked = await recorded(
    transcript,
    'POST /linking/request-consent/{ID}/pass-credential',
    pisp.call(`/linking/request-consent/${consentRequestId}/pass-credential`, 'POST', {
      credential: device ? { payload: device.register(authenticated.body.challenge) } : { credentialType: 'GENERIC' },
    }),
  );
  const ok = check(
    `the ${credential} credential is verified by the hub's Auth service and the account is linked (PUT /consents → POST /consents to the Auth service → PATCH VERIFIED)`,
    linked.status === 200 && linked.body?.currentState === 'accountsLinked' && linked.body?.credential?.status === 'VERIFIED',
    linked,
  );
  return ok ? { consentId, address: user.account.address, device } : undefined;
}

interface Payment {
  /** How the user answers the authorization: approves (signing), rejects, or signs with a device not the linked one. */
  decision: 'approve' | 'reject' | 'forged';
  amount: string;
  /** Where the DFSP is to refuse it: at once (initiate), or once the user's answer is in (approve, the default). */
  refusedAt?: 'initiate';
}

/**
 * A third-party payment from the PISP app's calls: POST /thirdpartyTransaction/partyLookup, …/initiate (the DFSP
 * quotes with the payee and asks the PISP for authorization with a challenge), …/approve (the user's signature of the
 * challenge, which the DFSP has the hub's Auth service verify before it transfers). The final answer to approve.
 */
async function pay(
  run: ThirdpartyRun,
  pisp: Pisp,
  dfsp: ThirdpartyDfsp,
  from: Link,
  payment: Payment,
  transcript: Transcript = [],
): Promise<AppAnswer | undefined> {
  const transactionRequestId = crypto.randomUUID();
  const lookup = await recorded(
    transcript,
    'POST /thirdpartyTransaction/partyLookup',
    pisp.call('/thirdpartyTransaction/partyLookup', 'POST', { transactionRequestId, payee: { partyIdType: 'MSISDN', partyIdentifier: run.payeeId } }),
  );
  if (
    !check(
      `${pisp.what} finds the payee at ${run.payee.name} (partyLookupSuccess)`,
      lookup.body?.currentState === 'partyLookupSuccess' && lookup.body?.party?.partyIdInfo?.fspId === run.payee.name,
      lookup,
    )
  )
    return undefined;
  const initiated = await recorded(
    transcript,
    'POST /thirdpartyTransaction/{ID}/initiate',
    pisp.call(`/thirdpartyTransaction/${transactionRequestId}/initiate`, 'POST', {
      payee: lookup.body.party,
      payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: from.address, fspId: dfsp.name },
      amountType: 'SEND',
      amount: { amount: payment.amount, currency: CURRENCY },
      transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
      expiration: new Date(Date.now() + 5 * 60_000).toISOString(),
    }),
  );
  const authorization = initiated.body?.authorization;
  if (payment.refusedAt === 'initiate') {
    const refusal = await pisp.tap.waitFor((m) => m.method === 'PUT' && m.path === `/thirdpartyRequests/transactions/${transactionRequestId}/error`);
    check(
      `${dfsp.what} refuses the request at once: its PUT /thirdpartyRequests/transactions/{ID}/error reaches ${pisp.what}, which takes it (and no authorization is asked for)`,
      initiated.body?.currentState !== 'authorizationReceived' && refusal?.status === 200 && typeof refusal.body?.errorInformation?.errorCode === 'string',
      { initiated, refusal: refusal?.body },
    );
    return undefined;
  }
  if (
    !check(
      `${dfsp.what} quotes ${payment.amount} ${CURRENCY} with the payee and asks the user to authorize it (authorizationReceived, with a challenge)`,
      initiated.body?.currentState === 'authorizationReceived' &&
        typeof authorization?.challenge === 'string' &&
        authorization?.transferAmount?.amount === payment.amount,
      initiated,
    )
  )
    return undefined;
  const { rpId, origins } = loadConfig().authService;
  const signer =
    payment.decision === 'forged'
      ? await SoftAuthenticator.create({ rpId, origin: origins[0], format: 'packed', credentialId: crypto.randomBytes(64).toString('base64url') })
      : from.device;
  const authorizationResponse =
    payment.decision === 'reject'
      ? { responseType: 'REJECTED' }
      : signer
        ? { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'FIDO', fidoSignedPayload: signer.assert(authorization.challenge) } }
        : { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } };
  return recorded(
    transcript,
    'POST /thirdpartyTransaction/{ID}/approve',
    pisp.call(`/thirdpartyTransaction/${transactionRequestId}/approve`, 'POST', { authorizationResponse }),
  );
}

/** A payment that must complete: the PISP sees COMPLETED, the DFSP's position rose and the payee's fell by the amount. */
async function payAndSettle(run: ThirdpartyRun, pisp: Pisp, dfsp: ThirdpartyDfsp, from: Link, amount: string, transcript?: Transcript): Promise<void> {
  const [dfspBefore, payeeBefore] = [await position(run.hub, dfsp.name), await position(run.hub, run.payee.name)];
  const approved = await pay(run, pisp, dfsp, from, { decision: 'approve', amount }, transcript);
  if (!approved) return;
  const kind = from.device ? 'FIDO' : 'GENERIC';
  check(
    `the user's ${kind} signature is verified by the Auth service and the payment completes (transactionStatusReceived: ACCEPTED, COMPLETED)`,
    approved.status === 200 &&
      approved.body?.currentState === 'transactionStatusReceived' &&
      approved.body?.transactionStatus?.transactionRequestState === 'ACCEPTED' &&
      approved.body?.transactionStatus?.transactionState === 'COMPLETED',
    approved,
  );
  check(`${dfsp.name}'s position rose by ${amount}`, (await position(run.hub, dfsp.name)) === dfspBefore + Number(amount));
  check(`the payee ${run.payee.name}'s position fell by ${amount}`, (await position(run.hub, run.payee.name)) === payeeBefore - Number(amount));
}

/** A payment that must not complete: `what` the PISP is told, and no position moves. */
async function payRefused(run: ThirdpartyRun, pisp: Pisp, dfsp: ThirdpartyDfsp, from: Link, payment: Payment, what: string): Promise<void> {
  const [dfspBefore, payeeBefore] = [await position(run.hub, dfsp.name), await position(run.hub, run.payee.name)];
  const answer = await pay(run, pisp, dfsp, from, payment);
  const status = answer?.body?.transactionStatus;
  const told = status?.errorInformation ?? answer?.body?.errorInformation;
  if (answer)
    check(`${what} (${told?.errorCode} ${told?.errorDescription})`, status?.transactionState !== 'COMPLETED' && typeof told?.errorCode === 'string', answer);
  check(
    'no money moved: both positions are unchanged',
    (await position(run.hub, dfsp.name)) === dfspBefore && (await position(run.hub, run.payee.name)) === payeeBefore,
  );
}

/** The PATCH /consents/{ID} REVOKED the Auth service sends, as `tap` saw it arrive (after `since`). */
const revocationAt = (tap: Tap, consentId: string, since: number) =>
  tap.waitFor((m) => m.method === 'PATCH' && m.path === `/consents/${consentId}` && m.body?.status === 'REVOKED', { since, timeoutMs: 20_000 });

/** A fresh user of a DFSP's bank with one account, linking by `channel`. */
function bankUser(bank: ThirdpartyBackend, dfspId: string, name: string, channel: 'OTP' | 'WEB'): LinkingUser {
  const userId = `${name}.${dfspId}`;
  const account = { accountNickname: `${name} everyday`, address: `${dfspId}.${name}.1`, currency: CURRENCY };
  bank.users.set(userId, { accounts: [account], msisdn: `4471${crypto.randomInt(10 ** 7, 10 ** 8)}`, firstName: name, lastName: 'Test', channel });
  return { userId, account, channel };
}

/** Redis for one process, stopped with the run. */
async function redisFor(run: ThirdpartyRun, name: string): Promise<number> {
  const redis = await startRedis(run.redisServer, `redis-${name}`);
  run.stoppers.push(() => redis.stop());
  return Number(new URL(redis.url).port);
}

/** The stock sdk-scheme-adapter a thirdparty-sdk participant has beside it, for its FSPIOP messages. */
async function schemeAdapterFor(run: ThirdpartyRun, dfspId: string): Promise<SdkAdapter> {
  const backend = await DfspBackend.start();
  run.stoppers.push(() => backend.close());
  const jws = run.hub.jws;
  const sdk = await startSdkAdapter({
    dfspId,
    peerEndpoint: new URL(run.hub.switchUrl).host,
    backendPort: backend.port,
    cacheUrl: `redis://127.0.0.1:${await redisFor(run, `${dfspId}-sdk`)}`,
    expirySeconds: 60,
    jws: jws && { signingKeyPath: jws.signingKeyPath(dfspId), verificationKeysDirectory: jws.verificationKeysDirectory },
  });
  run.stoppers.push(() => sdk.stop());
  return sdk;
}

/**
 * A thirdparty-sdk participant as Mojaloop deploys one: the SDK for the third-party API (every TP_CB_URL_* at it,
 * through a tap), a stock sdk-scheme-adapter of the same participant for FSPIOP (every FSPIOP_CALLBACK_URL_*).
 */
async function startSdkParticipant(
  run: ThirdpartyRun,
  dfspId: string,
  role: 'pisp' | 'dfsp',
  bank?: ThirdpartyBackend,
): Promise<{ sdk: ThirdpartySdk; tap: Tap }> {
  const adapter = await schemeAdapterFor(run, dfspId);
  const sdk = await startThirdpartySdk({
    dfspId,
    hubEndpoint: new URL(run.hub.switchUrl).host,
    redisPort: await redisFor(run, dfspId),
    authServiceId: loadConfig().authService.participantId,
    backend: bank && `127.0.0.1:${bank.port}`,
    sdkOutgoing: new URL(adapter.outboundUrl).host,
    signingKeyPath: run.hub.jws?.signingKeyPath(dfspId),
  });
  run.stoppers.push(() => sdk.stop());
  const tap = await Tap.start(sdk.inboundPort);
  run.stoppers.push(() => tap.close());
  await onboardParticipant(run.hub.adminUrl, dfspId, `http://127.0.0.1:${adapter.inboundPort}`, {
    currency: CURRENCY,
    role,
    thirdpartyCallbackBase: `http://127.0.0.1:${tap.port}`,
  });
  return { sdk, tap };
}

/** No message the hub delivered through `tap` was refused. */
function noneRefused(what: string, tap: Tap): void {
  const refused = tap.seen.filter((m) => m.status >= 400);
  check(
    `${what} refused none of the ${tap.seen.length} messages the hub delivered to it`,
    tap.seen.length > 0 && refused.length === 0,
    refused.map((m) => `${m.method} ${m.path} ${m.status} ${m.answer}`),
  );
}

/**
 * The shape of an answer: its keys and the kinds of their values, all the way down (an array by its first item),
 * with the values themselves left out; what two implementations of one API must agree on.
 */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
    );
  return typeof value;
}

/** Call by call, the same status, currentState and body shape from both PISPs. */
function compareTranscripts(sdk: Transcript, ours: Transcript): void {
  say("\n# Our PISP connector's outbound API against the thirdparty-sdk's: the same calls, the same answers");
  check(
    `both PISPs were asked the same ${sdk.length} calls in the same order`,
    JSON.stringify(sdk.map((s) => s.call)) === JSON.stringify(ours.map((o) => o.call)),
    {
      sdk: sdk.map((s) => s.call),
      ours: ours.map((o) => o.call),
    },
  );
  sdk.forEach(({ call, answer }, index) => {
    const mine = ours[index]?.answer;
    const [theirs, own] = [{ status: answer.status, body: shapeOf(answer.body) }, mine && { status: mine.status, body: shapeOf(mine.body) }];
    check(
      `${call}: ${answer.status} with currentState ${answer.body?.currentState} from both, the same body shape`,
      mine !== undefined && answer.body?.currentState === mine.body?.currentState && JSON.stringify(theirs) === JSON.stringify(own),
      { sdk: theirs, ours: own },
    );
  });
}

/** The suite, as a PISP sends it, asks to unlink: DELETE /consents/{ID} to the DFSP, which the hub redirects to its Auth service. */
async function unlinkAsThePisp(run: ThirdpartyRun, pisp: Pisp, dfsp: ThirdpartyDfsp, consent: Link): Promise<void> {
  const [pispSeen, dfspSeen] = [pisp.tap.seen.length, dfsp.tap.seen.length];
  const status = await sendFspiop(run.hub, 'DELETE', `/consents/${consent.consentId}`, pisp.name, dfsp.name);
  check(
    `unlinking: DELETE /consents/{ID} from ${pisp.what} to ${dfsp.what} is accepted (202; ${pisp.what}'s outbound API has no call for it, so the suite sends it as the PISP would)`,
    status === 202,
    status,
  );
  await unlinked(pisp, dfsp, consent, pispSeen, dfspSeen);
}

/** The Auth service revoked the consent (linking rule 6) and told both sides, each of which took the PATCH. */
async function unlinked(pisp: Pisp, dfsp: ThirdpartyDfsp, consent: Link, pispSeen: number, dfspSeen: number): Promise<void> {
  const [toPisp, toDfsp] = [await revocationAt(pisp.tap, consent.consentId, pispSeen), await revocationAt(dfsp.tap, consent.consentId, dfspSeen)];
  check(
    `the hub's Auth service revokes the consent and tells both: PATCH /consents/{ID} REVOKED reaches ${pisp.what} and ${dfsp.what}, each answering 200`,
    toPisp?.status === 200 && toDfsp?.status === 200,
    { toPisp, toDfsp },
  );
}

/**
 * The whole story between two thirdparty-sdk instances, and then across our connectors; see the module comment.
 * `ours` is our DFSP connector, if the run started it.
 */
export async function thirdpartyPeers(run: ThirdpartyRun): Promise<void> {
  say("\n# Third-party API: Mojaloop's thirdparty-sdk 15.1.3 (built from its source archive) as PISP and DFSP");
  if (!check('the thirdparty-sdk source archive is at ../shared/peers/thirdparty-sdk-15.1.3.tar.gz', thirdpartySdkAvailable())) return;
  await installThirdpartySdk(log);
  const ids = thirdpartyIds(run.suffix);
  const bank = await ThirdpartyBackend.start(ids.sdkDfsp);
  run.stoppers.push(() => bank.close());
  const sdkPispParts = await startSdkParticipant(run, ids.sdkPisp, 'pisp');
  const sdkDfspParts = await startSdkParticipant(run, ids.sdkDfsp, 'dfsp', bank);
  const sdkPisp: Pisp = {
    name: ids.sdkPisp,
    what: 'the thirdparty-sdk PISP',
    call: appOf(`http://127.0.0.1:${sdkPispParts.sdk.outboundPort}`),
    tap: sdkPispParts.tap,
  };
  const sdkDfsp: ThirdpartyDfsp = {
    name: ids.sdkDfsp,
    what: 'the thirdparty-sdk DFSP',
    tap: sdkDfspParts.tap,
    secretFor: async (consentRequestId) => bank.secrets.get(consentRequestId),
  };

  const providers = await sdkPisp.call('/linking/providers');
  check(
    `pre-linking: the thirdparty-sdk PISP finds the thirdparty-sdk DFSP among the hub's providers (GET /services/THIRD_PARTY_DFSP; logs ${sdkPispParts.sdk.logFile})`,
    providers.status === 200 && providers.body?.currentState === 'providersLookupSuccess' && (providers.body.providers ?? []).includes(ids.sdkDfsp),
    providers,
  );
  const sdkTranscript: Transcript = [];
  const byOtp = await link(sdkPisp, sdkDfsp, bankUser(bank, ids.sdkDfsp, 'ann', 'OTP'), 'FIDO', sdkTranscript);
  const byWeb = await link(sdkPisp, sdkDfsp, bankUser(bank, ids.sdkDfsp, 'ben', 'WEB'), 'FIDO');
  if (byOtp) {
    say('\n# A third-party payment between the two thirdparty-sdks, approved with FIDO');
    await payAndSettle(run, sdkPisp, sdkDfsp, byOtp, '12', sdkTranscript);
  }
  if (byWeb) {
    say('\n# A payment signed by an authenticator that is not the linked one');
    await payRefused(
      run,
      sdkPisp,
      sdkDfsp,
      byWeb,
      { decision: 'forged', amount: '9' },
      "the hub's Auth service refuses the signature; the DFSP tells the PISP, whose approve answers the error",
    );
  }
  if (byOtp) {
    say('\n# Unlinking, then a payment from the unlinked account');
    await unlinkAsThePisp(run, sdkPisp, sdkDfsp, byOtp);
    await payRefused(
      run,
      sdkPisp,
      sdkDfsp,
      byOtp,
      { decision: 'approve', amount: '8' },
      "the revoked consent's signature is refused by the Auth service: the PISP is told, as the thirdparty-sdk DFSP never learnt of the revocation",
    );
  }

  const ourPisp = await startOurPispConnector(run, ids.ourPisp);
  if (ourPisp) {
    say('\n# Our PISP connector with the thirdparty-sdk DFSP');
    const oursTranscript: Transcript = [];
    const providersToo = await ourPisp.call('/linking/providers');
    check(
      'pre-linking: our PISP connector finds the thirdparty-sdk DFSP among the providers',
      providersToo.status === 200 && (providersToo.body?.providers ?? []).includes(ids.sdkDfsp),
      providersToo,
    );
    const fido = await link(ourPisp, sdkDfsp, bankUser(bank, ids.sdkDfsp, 'cal', 'OTP'), 'FIDO', oursTranscript);
    if (fido) await payAndSettle(run, ourPisp, sdkDfsp, fido, '12', oursTranscript);
    compareTranscripts(sdkTranscript, oursTranscript);
    say('\n# Our PISP connector with the thirdparty-sdk DFSP: GENERIC credential, rejection, unlinking');
    const generic = await link(ourPisp, sdkDfsp, bankUser(bank, ids.sdkDfsp, 'dee', 'WEB'), 'GENERIC');
    if (generic) {
      await payAndSettle(run, ourPisp, sdkDfsp, generic, '7');
      await payRefused(
        run,
        ourPisp,
        sdkDfsp,
        generic,
        { decision: 'reject', amount: '6' },
        'the user rejects the payment: our PISP connector reports the error the thirdparty-sdk DFSP sends for a rejection',
      );
      const [pispSeen, dfspSeen] = [ourPisp.tap.seen.length, sdkDfsp.tap.seen.length];
      const deleted = await ourPisp.call(`/linking/consents/${generic.consentId}`, 'DELETE');
      check(
        "unlinking: our PISP connector's DELETE /linking/consents/{ID} completes (the DELETE reaches the hub's Auth service, which owns the consent)",
        deleted.status === 200,
        deleted,
      );
      await unlinked(ourPisp, sdkDfsp, generic, pispSeen, dfspSeen);
    }
  }

  if (run.ours) {
    const ours = run.ours;
    say('\n# The thirdparty-sdk PISP with our DFSP connector');
    const ourDfsp: ThirdpartyDfsp = {
      name: ours.name,
      what: 'our DFSP connector',
      tap: ours.tap,
      secretFor: async (consentRequestId, userId) => {
        const response = await fetch(`${ours.outboundUrl}/simulator/users/${encodeURIComponent(userId)}/messages`);
        const { messages } = (await response.json()) as { messages: Array<{ consentRequestId: string; otp: string }> };
        return messages.find((message) => message.consentRequestId === consentRequestId)?.otp;
      },
    };
    const alice: LinkingUser = {
      userId: `alice.${ours.name}`,
      account: { accountNickname: 'Alice everyday', address: `${ours.name}.alice.1`, currency: CURRENCY },
      channel: 'OTP',
    };
    const linked = await link(sdkPisp, ourDfsp, alice, 'FIDO');
    if (linked) {
      await payAndSettle(run, sdkPisp, ourDfsp, linked, '11');
      await unlinkAsThePisp(run, sdkPisp, ourDfsp, linked);
      await payRefused(
        run,
        sdkPisp,
        ourDfsp,
        linked,
        { decision: 'approve', amount: '5', refusedAt: 'initiate' },
        'a payment from the unlinked account is refused by our DFSP connector, which the revocation reached',
      );
    }
  }

  say('\n# Every third-party message the hub delivered');
  noneRefused('the thirdparty-sdk PISP', sdkPisp.tap);
  noneRefused('the thirdparty-sdk DFSP', sdkDfsp.tap);
  if (ourPisp) noneRefused('our PISP connector', ourPisp.tap);
}

/** Our PISP connector as its own process, onboarded as the thirdparty-sdk PISP is. */
async function startOurPispConnector(run: ThirdpartyRun, name: string): Promise<Pisp | undefined> {
  const jws = run.hub.jws;
  let connector: OurConnector;
  try {
    connector = await startOurPisp({
      name,
      switchUrl: run.hub.switchUrl,
      temporalAddress: run.hub.temporalAddress,
      jws: jws && { signingKeyPath: jws.signingKeyPath(name), verificationKeysDirectory: jws.verificationKeysDirectory },
    });
  } catch (error) {
    check(`our PISP connector ${name} runs as its own process (dist/worker/pisp.js)`, false, (error as Error).message);
    return undefined;
  }
  run.stoppers.push(() => connector.stop());
  await onboardParticipant(run.hub.adminUrl, name, `http://127.0.0.1:${connector.tap.port}`, { currency: CURRENCY, role: 'pisp' });
  return { name, what: 'our PISP connector', call: appOf(connector.outboundUrl), tap: connector.tap };
}
