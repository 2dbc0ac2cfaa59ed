// The third-party scenario of `npm run bench -- --mode thirdparty` (Document 1, "Payment flow"): a PISP pays from
// an account linked once at the payer DFSP, both scripted here as real HTTP servers; every message crosses the
// switch, the user's GENERIC signature is verified by the Auth service the hub hosts, and the money moves by the
// FSPIOP quote and transfer of the other modes, so the ledger check covers it.

import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { adminCall, quoteStep, randomAmount, transferStep, TRANSFER_EXPIRY_MS, CURRENCY, type Parties } from './payments';
import type { Sample } from './statistics';
import { endpointsOf, type ReceivedRequest, type SimulatedDfsp } from '../helpers/dfsp';
import { GenericSigner } from '../helpers/softAuthenticator';
import { sendAccepted, switchAt, type Sender } from '../helpers/switchHarness';
import {
  AUTH_SERVICE,
  authorizationRequest,
  finishLinking,
  genericCredential,
  linkThroughSwitch,
  thirdpartyTransactionRequest,
} from '../helpers/thirdpartyFlows';

/** The PISP, the payer DFSP's simulator, and the consent linking them. */
export interface ThirdpartyScene {
  /** Sends their messages to the switch. */
  sender: Sender;
  pisp: SimulatedDfsp;
  dfsp: SimulatedDfsp;
  consentId: string;
  signer: GenericSigner;
  /** Every transaction request sent, for the history sample of the breakdown. */
  transactionRequestIds: string[];
}

/** A PISP as an operator onboards one: a participant with the third-party endpoints, no money of its own. */
export async function provisionPisp(adminUrl: string, pisp: SimulatedDfsp): Promise<void> {
  await adminCall(adminUrl, 'POST', '/participants', { name: pisp.name, currency: CURRENCY });
  await adminCall(adminUrl, 'PUT', `/participants/${pisp.name}`, { isActive: true });
  for (const endpoint of endpointsOf('pisp', pisp.url)) await adminCall(adminUrl, 'POST', `/participants/${pisp.name}/endpoints`, endpoint);
  // The bench keeps no list of what the PISP received: each step waits for its own message.
  pisp.react(() => void (pisp.received.length = 0));
}

/** Links an account at `dfsp` for `pisp` through the switch, its GENERIC credential registered with the Auth service. */
export async function linkAccount(switchUrl: string, pisp: SimulatedDfsp, dfsp: SimulatedDfsp): Promise<ThirdpartyScene> {
  const sender = switchAt(switchUrl);
  const signer = new GenericSigner();
  const registered = dfsp.waitFor((r) => r.method === 'PUT' && r.path.startsWith('/consents/') && r.headers['fspiop-source'] === AUTH_SERVICE, 30_000);
  const { consentId } = await linkThroughSwitch(sender, dfsp, pisp, (id, scopes) => genericCredential(signer, id, scopes));
  const answer = await registered;
  if (answer.body?.credential?.status !== 'VERIFIED') throw new Error(`the Auth service did not register the credential: ${answer.raw}`);
  await finishLinking(sender, dfsp, pisp, consentId);
  return { sender, pisp, dfsp, consentId, signer, transactionRequestIds: [] };
}

/**
 * One third-party payment, timed from the PISP's request to the PISP hearing it completed: the request reaches the
 * DFSP, which answers RECEIVED, quotes, asks the PISP for the user's authorization, has the signed challenge
 * verified by the Auth service, transfers, and tells the PISP. Each step waits for its message to arrive.
 */
export function thirdpartyIteration(scene: ThirdpartyScene, parties: Parties) {
  const { sender, pisp, dfsp, consentId, signer } = scene;
  const { timeoutMs, payeeName } = parties;
  const send = (method: string, path: string, source: string, destination: string, body: object) =>
    sendAccepted(sender, method, path, source, destination, body);
  const arrival = (at: SimulatedDfsp, method: string, path: string, what: string) =>
    at.waitFor((r: ReceivedRequest) => r.method === method && r.path.split('?')[0] === path, timeoutMs, what);

  return async (sample: Sample): Promise<void> => {
    const request = thirdpartyTransactionRequest(dfsp.name, payeeName, TRANSFER_EXPIRY_MS);
    request.amount.amount = randomAmount();
    const id = request.transactionRequestId;
    scene.transactionRequestIds.push(id);
    const t0 = performance.now();

    const requested = dfsp.waitFor((r) => r.method === 'POST' && r.body?.transactionRequestId === id, timeoutMs, 'the transaction request');
    await send('POST', '/thirdpartyRequests/transactions', pisp.name, dfsp.name, request);
    await requested;
    const received = arrival(pisp, 'PUT', `/thirdpartyRequests/transactions/${id}`, 'RECEIVED');
    await send('PUT', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, {
      transactionId: crypto.randomUUID(),
      transactionRequestState: 'RECEIVED',
    });
    await received;

    const agreed = await quoteStep(parties, sample, { amount: request.amount.amount, extra: { transactionRequestId: id } });
    if (!agreed) return;

    const challenge = crypto.randomBytes(32).toString('base64');
    const authorization = authorizationRequest(request, challenge);
    const asked = arrival(pisp, 'POST', '/thirdpartyRequests/authorizations', 'the authorization request');
    await send('POST', '/thirdpartyRequests/authorizations', dfsp.name, pisp.name, authorization);
    await asked;
    const authorized = arrival(dfsp, 'PUT', `/thirdpartyRequests/authorizations/${authorization.authorizationRequestId}`, 'the authorization');
    await send('PUT', `/thirdpartyRequests/authorizations/${authorization.authorizationRequestId}`, pisp.name, dfsp.name, {
      responseType: 'ACCEPTED',
      signedPayload: { signedPayloadType: 'GENERIC', genericSignedPayload: signer.sign(challenge) },
    });
    await authorized;

    const verificationRequestId = crypto.randomUUID();
    const verified = dfsp.waitFor(
      (r) => r.method === 'PUT' && r.path.startsWith(`/thirdpartyRequests/verifications/${verificationRequestId}`),
      timeoutMs,
      'the verification',
    );
    await send('POST', '/thirdpartyRequests/verifications', dfsp.name, AUTH_SERVICE, {
      verificationRequestId,
      challenge,
      consentId,
      signedPayloadType: 'GENERIC',
      genericSignedPayload: signer.sign(challenge),
    });
    const verification = await verified;
    if (verification.body?.authenticationResponse !== 'VERIFIED')
      return sample.error(`verification ${verification.path.endsWith('/error') ? 'error' : verification.body?.authenticationResponse}`);

    await transferStep(parties, agreed, sample);
    if (sample.errorKind !== undefined) return;
    const told = arrival(pisp, 'PATCH', `/thirdpartyRequests/transactions/${id}`, 'the outcome');
    await send('PATCH', `/thirdpartyRequests/transactions/${id}`, dfsp.name, pisp.name, { transactionRequestState: 'ACCEPTED', transactionState: 'COMPLETED' });
    await told;
    sample.transferMs = performance.now() - t0;
  };
}
