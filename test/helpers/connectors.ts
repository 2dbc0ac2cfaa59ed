import crypto from 'node:crypto';
import pino from 'pino';
import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import type { PispConfig } from '../../activities/pisp/pispConfig';
import { simulatedBackends } from '../../activities/dfsp/simulator/simulated';
import { sampleCustomers, SimulatedBank } from '../../activities/dfsp/simulator/simulatedBank';
import { freePort } from '../../temporal/ports';
import { startDfspConnector } from '../../worker/dfspConnector';
import { startPispConnector } from '../../worker/pispConnector';
import { uniqueName } from './database';
import type { SimulatedDfsp } from './dfsp';
import { AUTH_SERVICE } from './thirdpartyFlows';
import type { RunningConnector } from '../../worker/connector';
import { HUB_ID, type SwitchHarness } from './switchHarness';
import { temporalAddress } from './worker';

/** Each connector role's workflows, bundled once per test run by test/run.ts (WORKFLOW_BUNDLE_DFSP, _PISP). */
export const connectorWorkflowsPaths = {
  WORKFLOW_BUNDLE_DFSP: require.resolve('../../workflows/dfsp'),
  WORKFLOW_BUNDLE_PISP: require.resolve('../../workflows/pisp'),
};

/** The bundle test/run.ts made for a role, if the suite runs under it. */
export const connectorBundle = (role: 'dfsp' | 'pisp'): string | undefined => process.env[`WORKFLOW_BUNDLE_${role.toUpperCase()}`];

export const testLog = () => pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });

/**
 * A connector's configuration against a test switch: free ports, the suite's Temporal dev server, the participant's
 * own namespace and a task queue of its own, and answers awaited for `requestTimeoutMs`.
 */
export function connectorConfig(hub: SwitchHarness, participantId: string, overrides: Partial<ConnectorConfig> = {}): ConnectorConfig {
  return {
    participantId,
    peerEndpoint: hub.url,
    inboundPort: 0,
    outboundPort: 0,
    host: '127.0.0.1',
    temporalAddress: temporalAddress(),
    temporalNamespace: participantId,
    taskQueue: `connector-${crypto.randomUUID()}`,
    authServiceId: 'centralauth',
    hubParticipantName: HUB_ID,
    requestTimeoutMs: 20_000,
    logLevel: 'silent',
    ...overrides,
  };
}

/** Onboards the connector's participant at the hub with its inbound API as every endpoint, as an operator does. */
export async function onboardConnector(hub: SwitchHarness, connector: RunningConnector, options: Parameters<SwitchHarness['onboard']>[2] = {}): Promise<void> {
  await hub.onboard(connector.config.participantId, connector.inboundUrl, options);
}

/** A DFSP connector over a fresh simulated bank, onboarded at the test switch. */
export async function startTestDfsp(
  hub: SwitchHarness,
  options: { name?: string; fundsIn?: number; msisdnPrefix?: string; config?: Partial<ConnectorConfig> } = {},
) {
  const name = options.name ?? uniqueName();
  const bank = new SimulatedBank(name, sampleCustomers(name, 'USD', options.msisdnPrefix));
  // The outbound port is known before start, so the bank's login page (an authUri) can name it.
  const outboundPort = await freePort();
  const backends = simulatedBackends(bank, `http://127.0.0.1:${outboundPort}/simulator/login`);
  const connector = await startDfspConnector(connectorConfig(hub, name, { outboundPort, ...options.config }), testLog(), backends, {
    workflowBundlePath: connectorBundle('dfsp'),
    simulatorPages: true,
  });
  await onboardConnector(hub, connector, { fundsIn: options.fundsIn });
  return { name, bank, backends, connector };
}

/** A PISP connector onboarded at the test switch; `requestTimeoutMs` bounds each call of its app. */
export async function startTestPisp(hub: SwitchHarness, options: { name?: string; requestTimeoutMs?: number; genericKeySecret?: string } = {}) {
  const name = options.name ?? uniqueName();
  const overrides = options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {};
  const config = { ...connectorConfig(hub, name, overrides), genericKeySecret: options.genericKeySecret ?? crypto.randomBytes(32).toString('base64') };
  const connector = await startPispConnector(config, testLog(), connectorBundle('pisp'));
  await onboardConnector(hub, connector, { role: 'pisp', fundsIn: 0 });
  return testPisp(name, config, connector);
}

/**
 * The PISP connector stopped and started again as its process would be: the same participant, namespace, task queue,
 * ports (so the switch's endpoints still reach it) and GENERIC_KEY_SECRET, and nothing of the old process's memory.
 */
export async function restartTestPisp(pisp: Awaited<ReturnType<typeof startTestPisp>>) {
  await pisp.connector.stop();
  const port = (url: string) => Number(new URL(url).port);
  const config = { ...pisp.config, inboundPort: port(pisp.connector.inboundUrl), outboundPort: port(pisp.connector.outboundUrl) };
  return testPisp(pisp.name, config, await startPispConnector(config, testLog(), connectorBundle('pisp')));
}

function testPisp(name: string, config: PispConfig, connector: RunningConnector) {
  /** Calls the connector's outbound API as the PISP's app does: JSON in, status and JSON out. */
  const app = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${connector.outboundUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { name, config, connector, app };
}

/** How a scripted third-party DFSP (playThirdpartyDfsp) behaves; by default it links and pays as Document 1 says. */
export interface ThirdpartyDfspScript {
  /** The channel it offers the user: OTP (the default) or WEB, with an authUri. */
  channel?: 'OTP' | 'WEB';
  /** The secret the user is sent out of band (OTP) or given at the authUri (WEB). */
  authToken?: string;
  /** Refuses every consent request with this error (PUT /consentRequests/{ID}/error). */
  consentRequestError?: { errorCode: string; errorDescription: string };
  /** Refuses every transaction request with this error (PUT /thirdpartyRequests/transactions/{ID}/error). */
  transactionRequestError?: { errorCode: string; errorDescription: string };
  /** Takes transaction requests and never answers them. */
  silentOnTransactions?: boolean;
  /** The users it knows, by user ID, for GET /accounts. */
  accounts?: Record<string, Array<{ accountNickname: string; address: string; currency: string }>>;
  /** Asks the PISP for an authorization only once this has settled. */
  authorizationHeldUntil?: Promise<void>;
  /** Sends the final PATCH of a transaction request only once this has settled. */
  outcomeHeldUntil?: Promise<void>;
}

/**
 * A payer DFSP on the third-party API, played by a SimulatedDfsp: it answers GET /accounts, takes consent requests,
 * grants the consent once the authToken is right, registers the PISP's credential with the hub's Auth service and tells
 * the PISP it is VERIFIED; for a transaction request it asks the PISP for an authorization over a random challenge,
 * has the Auth service verify the signature, and sends the final PATCH (REJECTED when the user rejected). Its linked
 * consents are kept by account address, as its payer.partyIdentifier names them: an account linked again is paid
 * from under the first consent granted over it. It answers a status query (GET /thirdpartyRequests/transactions/{ID},
 * payment rule 8) with the request's state.
 */
export function playThirdpartyDfsp(hub: SwitchHarness, dfsp: SimulatedDfsp, script: ThirdpartyDfspScript = {}): void {
  const { channel = 'OTP', authToken = '123456' } = script;
  const consents = new Map<string, { consentRequestId: string; scopes: Array<{ address: string; actions: string[] }> }>();
  const consentOfAccount = new Map<string, string>();
  const pending = new Map<string, { transactionRequestId: string; challenge: string; consentId?: string }>();
  const stateOf = new Map<string, string>();
  // The PISP a consent or payment came from, for what the DFSP tells it once the Auth service has answered.
  const pispOf = new Map<string, string>();
  const send = async (method: string, path: string, destination: string, body?: object) => {
    const { status, body: answer } = await hub.fspiop(method, path, { source: dfsp.name, destination, body });
    if (status >= 300) throw new Error(`${dfsp.name}: ${method} ${path} refused ${status} ${JSON.stringify(answer)}`);
  };
  dfsp.react(async ({ method, path, headers, body }) => {
    const from = headers['fspiop-source'] as string;
    const [, resource, id, sub] = path.split('/');
    if (method === 'GET' && resource === 'accounts') {
      const userId = decodeURIComponent(id);
      const accounts = script.accounts?.[userId];
      if (accounts) await send('PUT', `/accounts/${id}`, from, { accounts });
      else await send('PUT', `/accounts/${id}/error`, from, { errorInformation: { errorCode: '6205', errorDescription: 'No user found for this identifier' } });
    } else if (method === 'POST' && resource === 'consentRequests') {
      if (script.consentRequestError)
        return send('PUT', `/consentRequests/${body.consentRequestId}/error`, from, { errorInformation: script.consentRequestError });
      consents.set(body.consentRequestId, { consentRequestId: body.consentRequestId, scopes: body.scopes });
      const answer =
        channel === 'WEB'
          ? { scopes: body.scopes, authChannels: ['WEB'], callbackUri: body.callbackUri, authUri: `https://${dfsp.name}.example.org/login` }
          : { scopes: body.scopes, authChannels: ['OTP'] };
      await send('PUT', `/consentRequests/${body.consentRequestId}`, from, answer);
    } else if (method === 'PATCH' && resource === 'consentRequests') {
      if (body.authToken !== authToken)
        return send('PUT', `/consentRequests/${id}/error`, from, {
          errorInformation: { errorCode: '7200', errorDescription: 'Generic Thirdparty account linking error - invalid authToken' },
        });
      const consentId = crypto.randomUUID();
      const requested = consents.get(id)!;
      consents.set(consentId, requested);
      await send('POST', '/consents', from, { consentId, consentRequestId: id, scopes: requested.scopes, status: 'ISSUED' });
    } else if (method === 'PUT' && resource === 'consents' && from !== AUTH_SERVICE) {
      // The PISP's signed credential goes to the Auth service to be verified and registered.
      const { consentRequestId } = consents.get(id)!;
      pispOf.set(id, from);
      await send('POST', '/consents', AUTH_SERVICE, { consentId: id, consentRequestId, scopes: body.scopes, credential: body.credential, status: 'ISSUED' });
    } else if (method === 'PUT' && resource === 'consents' && from === AUTH_SERVICE) {
      const { pisp, scopes } = { pisp: pispOf.get(id)!, ...consents.get(id)! };
      if (sub === 'error') return send('PUT', `/consents/${id}/error`, pisp, body);
      for (const scope of scopes) if (!consentOfAccount.has(scope.address)) consentOfAccount.set(scope.address, id);
      await send('PATCH', `/consents/${id}`, pisp, { credential: { status: 'VERIFIED' } });
    } else if (method === 'POST' && resource === 'thirdpartyRequests' && id === 'transactions') {
      if (script.silentOnTransactions) return;
      const transactionRequestId = body.transactionRequestId;
      pispOf.set(transactionRequestId, from);
      if (script.transactionRequestError)
        return send('PUT', `/thirdpartyRequests/transactions/${transactionRequestId}/error`, from, { errorInformation: script.transactionRequestError });
      stateOf.set(transactionRequestId, 'RECEIVED');
      await send('PUT', `/thirdpartyRequests/transactions/${transactionRequestId}`, from, {
        transactionId: crypto.randomUUID(),
        transactionRequestState: 'RECEIVED',
      });
      await script.authorizationHeldUntil;
      const authorizationRequestId = crypto.randomUUID();
      const challenge = crypto.randomBytes(32).toString('hex');
      pending.set(authorizationRequestId, { transactionRequestId, challenge, consentId: consentOfAccount.get(body.payer.partyIdentifier) });
      const money = body.amount;
      await send('POST', '/thirdpartyRequests/authorizations', from, {
        authorizationRequestId,
        transactionRequestId,
        challenge,
        transferAmount: money,
        payeeReceiveAmount: money,
        fees: { amount: '0', currency: money.currency },
        payer: body.payer,
        payee: body.payee,
        transactionType: body.transactionType,
        expiration: body.expiration,
      });
    } else if (method === 'GET' && resource === 'thirdpartyRequests' && id === 'transactions') {
      const state = stateOf.get(sub);
      if (!state || pispOf.get(sub) !== from)
        return send('PUT', `/thirdpartyRequests/transactions/${sub}/error`, from, {
          errorInformation: { errorCode: '3206', errorDescription: 'Transaction request ID not found' },
        });
      await send('PUT', `/thirdpartyRequests/transactions/${sub}`, from, { transactionId: crypto.randomUUID(), transactionRequestState: state });
    } else if (method === 'PUT' && resource === 'thirdpartyRequests' && id === 'authorizations') {
      const authorization = pending.get(sub)!;
      const { transactionRequestId, challenge, consentId } = authorization;
      await script.outcomeHeldUntil;
      if (body.responseType === 'REJECTED')
        return send('PATCH', `/thirdpartyRequests/transactions/${transactionRequestId}`, from, {
          transactionRequestState: 'REJECTED',
          transactionState: 'REJECTED',
        });
      // Payment rule 6: the hub's Auth service verifies the signed challenge against the consent's credential.
      const verificationRequestId = crypto.randomUUID();
      pending.set(verificationRequestId, authorization);
      await send('POST', '/thirdpartyRequests/verifications', AUTH_SERVICE, { verificationRequestId, challenge, consentId, ...body.signedPayload });
    } else if (method === 'PUT' && resource === 'thirdpartyRequests' && id === 'verifications') {
      const { transactionRequestId } = pending.get(sub)!;
      const pisp = pispOf.get(transactionRequestId)!;
      stateOf.set(transactionRequestId, 'ACCEPTED');
      if (path.endsWith('/error'))
        return send('PUT', `/thirdpartyRequests/transactions/${transactionRequestId}/error`, pisp, {
          errorInformation: { errorCode: '7105', errorDescription: 'Authorization received from PISP failed DFSP validation' },
        });
      await send('PATCH', `/thirdpartyRequests/transactions/${transactionRequestId}`, pisp, {
        transactionRequestState: 'ACCEPTED',
        transactionState: 'COMPLETED',
      });
    }
  });
}
