import crypto from 'node:crypto';
import type { thirdparty } from '@mojaloop/api-snippets';
import { consentChallenge } from '../../activities/shared/contracts/challenges';
import type { Client } from '@temporalio/client';
import type { ObservedConversation } from '../../activities/shared/contracts/observedConversations';
import { observedConversationQuery } from '../../workflows/kit/observer';
import type { SimulatedDfsp } from './dfsp';
import { pollUntil } from './polling';
import { quoteBody } from './fspiopBodies';
import { GenericSigner } from './softAuthenticator';
import { sendAccepted as send, type Sender, type SwitchHarness } from './switchHarness';

/** The Auth service the hub hosts, by its default participant name. */
export const AUTH_SERVICE = 'centralauth';

type Credential = thirdparty.Schemas.SignedCredential;

/** The scopes of a consent to one account at `dfsp`. */
export const scopesAt = (dfsp: SimulatedDfsp, account = crypto.randomUUID().slice(0, 8)): thirdparty.Schemas.Scope[] => [
  { address: `${dfsp.name}.account.${account}`, actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'] },
];

/** A GENERIC credential signing the consent's registration challenge (Document 1, challenge derivation). */
export const genericCredential = (signer: GenericSigner, consentId: string, scopes: thirdparty.Schemas.Scope[]): Credential => ({
  credentialType: 'GENERIC',
  status: 'PENDING',
  genericPayload: signer.register(consentChallenge({ consentId, scopes })),
});

export interface Linking {
  consentRequestId: string;
  consentId: string;
  scopes: thirdparty.Schemas.Scope[];
  credential: Credential;
}

/**
 * A linking through the switch (Document 1, "Linking"), OTP channel, up to the registration of the credential with
 * the hub's Auth service: the PISP's consent request, the DFSP's answer, the PISP's authToken, the DFSP's grant, the
 * PISP's signed credential, and the DFSP's POST /consents to the Auth service. `credential` signs the challenge.
 */
export async function linkThroughSwitch(
  hub: Sender,
  dfsp: SimulatedDfsp,
  pisp: SimulatedDfsp,
  credential: (consentId: string, scopes: thirdparty.Schemas.Scope[]) => Credential,
): Promise<Linking> {
  const consentRequestId = crypto.randomUUID();
  const consentId = crypto.randomUUID();
  const scopes = scopesAt(dfsp, consentId.slice(0, 8));
  const request = { consentRequestId, userId: 'user@example.org', scopes, authChannels: ['OTP'], callbackUri: 'https://pisp.example.org/linked' };
  await send(hub, 'POST', '/consentRequests', pisp.name, dfsp.name, request);
  await send(hub, 'PUT', `/consentRequests/${consentRequestId}`, dfsp.name, pisp.name, { scopes, authChannels: ['OTP'] });
  await send(hub, 'PATCH', `/consentRequests/${consentRequestId}`, pisp.name, dfsp.name, { authToken: '123456' });
  await send(hub, 'POST', '/consents', dfsp.name, pisp.name, { consentId, consentRequestId, scopes, status: 'ISSUED' });
  const signed = credential(consentId, scopes);
  await send(hub, 'PUT', `/consents/${consentId}`, pisp.name, dfsp.name, { scopes, credential: signed });
  await send(hub, 'POST', '/consents', dfsp.name, AUTH_SERVICE, { consentId, consentRequestId, scopes, credential: signed, status: 'ISSUED' });
  return { consentRequestId, consentId, scopes, credential: signed };
}

/** The DFSP tells the PISP the credential is registered (PATCH /consents/{ID}): the linking is done. */
export function finishLinking(hub: Sender, dfsp: SimulatedDfsp, pisp: SimulatedDfsp, consentId: string): Promise<void> {
  return send(hub, 'PATCH', `/consents/${consentId}`, dfsp.name, pisp.name, { credential: { status: 'VERIFIED' } });
}

/** A PISP's third-party transaction request from a linked account at `dfsp` to a payee at `payee`. */
export function thirdpartyTransactionRequest(dfsp: string, payee: string, expiresInMs: number) {
  return {
    transactionRequestId: crypto.randomUUID(),
    payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '27713803912', fspId: payee } },
    payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: `${dfsp}.account`, fspId: dfsp },
    amountType: 'SEND',
    amount: { amount: '10', currency: 'USD' },
    transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    expiration: new Date(Date.now() + expiresInMs).toISOString(),
  };
}

/** The payer DFSP's authorization request for a third-party transaction request, with its challenge. */
export function authorizationRequest(request: ReturnType<typeof thirdpartyTransactionRequest>, challenge: string) {
  const money = { amount: request.amount.amount, currency: request.amount.currency };
  return {
    authorizationRequestId: crypto.randomUUID(),
    transactionRequestId: request.transactionRequestId,
    challenge,
    transferAmount: money,
    payeeReceiveAmount: money,
    fees: { amount: '0', currency: money.currency },
    payer: request.payer,
    payee: request.payee,
    transactionType: request.transactionType,
    expiration: request.expiration,
  };
}

/**
 * A PISP's payment from a linked account (Document 1, "Payment flow") through the switch, the DFSP verifying the
 * user's GENERIC signature with the hub's Auth service: the request, RECEIVED, the payer DFSP's quote, the
 * authorization and its answer, the consent registered and the verification, the final PATCH. `reached` is awaited
 * after the steps whose outcome the observer learns from the Auth service, so the messages keep their order.
 */
export async function payFromLinkedAccount(
  hub: SwitchHarness,
  { pisp, dfsp, payee }: { pisp: SimulatedDfsp; dfsp: SimulatedDfsp; payee: string },
  reached: (transactionRequestId: string, state: string) => Promise<void>,
): Promise<string> {
  const request = thirdpartyTransactionRequest(dfsp.name, payee, 60_000);
  const id = request.transactionRequestId;
  await send(hub, 'POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
  await send(hub, 'PUT', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, {
    transactionId: crypto.randomUUID(),
    transactionRequestState: 'RECEIVED',
  });
  await send(hub, 'POST', '/quotes', dfsp.name, payee, { ...quoteBody(dfsp.name, payee, request.amount.amount), transactionRequestId: id });
  const challenge = crypto.randomBytes(32).toString('base64');
  const authorization = authorizationRequest(request, challenge);
  await send(hub, 'POST', '/thirdpartyRequests/authorizations', dfsp.name, pisp.name, authorization);
  const signer = new GenericSigner();
  await send(hub, 'PUT', `/thirdpartyRequests/authorizations/${authorization.authorizationRequestId}`, pisp.name, dfsp.name, {
    responseType: 'ACCEPTED',
    signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) },
  });
  await reached(id, 'AUTHORIZED');
  const consentId = crypto.randomUUID();
  const scopes = scopesAt(dfsp);
  await send(hub, 'POST', '/consents', dfsp.name, AUTH_SERVICE, {
    consentId,
    scopes,
    credential: genericCredential(signer, consentId, scopes),
    status: 'ISSUED',
  });
  await dfsp.waitFor((r) => r.method === 'PUT' && r.path === `/consents/${consentId}`);
  const verification = {
    verificationRequestId: crypto.randomUUID(),
    challenge,
    consentId,
    signedPayloadType: 'GENERIC',
    genericSignedPayload: signer.sign(challenge),
  };
  await send(hub, 'POST', '/thirdpartyRequests/verifications', dfsp.name, AUTH_SERVICE, verification);
  await reached(id, 'VERIFIED');
  await send(hub, 'PATCH', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, {
    transactionRequestState: 'ACCEPTED',
    transactionState: 'COMPLETED',
  });
  return id;
}

/** An observer's view once it has reached `state` (it follows behind the routing), or as it stands after ten seconds. */
export function observerReaching(client: Client, workflowId: string, state: string): Promise<ObservedConversation> {
  const handle = client.workflow.getHandle(workflowId);
  return pollUntil(
    () => handle.query(observedConversationQuery),
    (view) => view.state === state,
  );
}
