import crypto from 'node:crypto';
import type { thirdparty } from '@mojaloop/api-snippets';
import { consentChallenge } from '../../activities/shared/contracts/challenges';
import type { startTestDfsp } from './connectors';
import type { ReceivedRequest, SimulatedDfsp } from './dfsp';
import { GenericSigner, SoftAuthenticator } from './softAuthenticator';
import { sendAccepted, type SwitchHarness } from './switchHarness';

// A PISP played by a test, step by step, against a real DFSP connector behind the test switch (Document 1's PISP
// side of linking): it sends through the switch as itself and waits for what the switch delivers to it.

export type TestDfsp = Awaited<ReturnType<typeof startTestDfsp>>;
type Credential = thirdparty.Schemas.SignedCredential;
type Scope = thirdparty.Schemas.Scope;

/** The origin and relying party of the PISP app a FIDO credential is made in, as the hub's Auth service trusts by default. */
export const FIDO_APP = { origin: 'http://localhost:3000', rpId: 'localhost' };

/** The simulated bank's user `who` and their one account's address. */
export const userAt = (dfsp: TestDfsp, who: 'alice' | 'bob' = 'alice') => ({ userId: `${who}.${dfsp.name}`, address: `${dfsp.name}.${who}.1` });

export const scopesOf = (address: string, actions: string[] = ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE']) => [{ address, actions }] as Scope[];

/** A GENERIC credential over the consent's registration challenge. */
export const genericCredential =
  (signer: GenericSigner) =>
  (consentId: string, scopes: Scope[]): Credential => ({
    credentialType: 'GENERIC',
    status: 'PENDING',
    genericPayload: signer.register(consentChallenge({ consentId, scopes })),
  });

/** A FIDO credential the user's authenticator creates over the consent's registration challenge. */
export const fidoCredential =
  (authenticator: SoftAuthenticator) =>
  (consentId: string, scopes: Scope[]): Credential => ({
    credentialType: 'FIDO',
    status: 'PENDING',
    fidoPayload: authenticator.register(consentChallenge({ consentId, scopes })),
  });

export const isTo =
  (method: string, path: string) =>
  (request: ReceivedRequest): boolean =>
    request.method === method && request.path === path;

/** The first PUT the PISP gets on `path`: the answer or its error. */
export const answerOrError = (pisp: SimulatedDfsp, path: string) =>
  pisp.waitFor((r) => r.method === 'PUT' && (r.path === path || r.path === `${path}/error`), 20_000, `PUT ${path}`);

const send = (hub: SwitchHarness, method: string, path: string, from: SimulatedDfsp, to: string, body?: unknown) =>
  sendAccepted(hub, method, path, from.name, to, body);

export interface ConsentRequestOptions {
  /** The channels the PISP offers (by default OTP alone); the DFSP picks one. */
  authChannels?: Array<'OTP' | 'WEB'>;
  userId?: string;
  scopes?: Scope[];
  callbackUri?: string;
}

/** POST /consentRequests to the DFSP; returns the request and the DFSP's PUT /consentRequests/{ID} or its error. */
export async function requestConsent(hub: SwitchHarness, pisp: SimulatedDfsp, dfsp: TestDfsp, options: ConsentRequestOptions = {}) {
  const { userId, address } = userAt(dfsp);
  const body = {
    consentRequestId: crypto.randomUUID(),
    userId: options.userId ?? userId,
    scopes: options.scopes ?? scopesOf(address),
    authChannels: options.authChannels ?? ['OTP'],
    callbackUri: options.callbackUri ?? 'https://pisp.example.org/linked',
  };
  await send(hub, 'POST', '/consentRequests', pisp, dfsp.name, body);
  return { request: body, answer: await answerOrError(pisp, `/consentRequests/${body.consentRequestId}`) };
}

/** PATCH /consentRequests/{ID} with the authToken; returns the DFSP's grant (POST /consents) or its error. */
export async function authenticate(hub: SwitchHarness, pisp: SimulatedDfsp, dfsp: TestDfsp, consentRequestId: string, authToken: string) {
  await send(hub, 'PATCH', `/consentRequests/${consentRequestId}`, pisp, dfsp.name, { authToken });
  return pisp.waitFor(
    (r) =>
      (r.method === 'POST' && r.path === '/consents' && r.body.consentRequestId === consentRequestId) ||
      isTo('PUT', `/consentRequests/${consentRequestId}/error`)(r),
    20_000,
    'grant or error',
  );
}

/** PUT /consents/{ID} with the signed credential; returns how the DFSP ends the linking: PATCH /consents/{ID} or PUT …/error. */
export async function passCredential(hub: SwitchHarness, pisp: SimulatedDfsp, dfsp: TestDfsp, consentId: string, scopes: Scope[], credential: Credential) {
  await send(hub, 'PUT', `/consents/${consentId}`, pisp, dfsp.name, { scopes, credential });
  return pisp.waitFor((r) => isTo('PATCH', `/consents/${consentId}`)(r) || isTo('PUT', `/consents/${consentId}/error`)(r), 20_000, 'end of linking');
}

/** A whole linking as a PISP runs it, the user reading the bank's secret; returns the consent and the DFSP's last message. */
export async function linkAccount(
  hub: SwitchHarness,
  pisp: SimulatedDfsp,
  dfsp: TestDfsp,
  credential: (consentId: string, scopes: Scope[]) => Credential,
  options: ConsentRequestOptions = {},
) {
  const { request, answer } = await requestConsent(hub, pisp, dfsp, options);
  if (answer.path.endsWith('/error')) throw new Error(`consent request refused: ${JSON.stringify(answer.body)}`);
  const secret = dfsp.backends.thirdparty.secretFor(request.consentRequestId)!.secret;
  const grant = await authenticate(hub, pisp, dfsp, request.consentRequestId, secret);
  if (grant.method !== 'POST') throw new Error(`authToken refused: ${JSON.stringify(grant.body)}`);
  const { consentId, scopes } = grant.body as { consentId: string; scopes: Scope[] };
  const signed = credential(consentId, scopes);
  const finished = await passCredential(hub, pisp, dfsp, consentId, scopes, signed);
  return { request, answer, grant, consentId, scopes, credential: signed, finished };
}
