import fs from 'node:fs';
import path from 'node:path';
import { certificateFiles, flag, integer, isLoopback, temporalTlsConfig, type CertificateFiles, type TemporalTlsConfig } from '../shared/platform/config';

/**
 * INBOUND_MUTUAL_TLS_ENABLED (the sdk-scheme-adapter's settings): the inbound API serves HTTPS and takes a connection
 * only with a client certificate IN_CA_CERT_PATH signed whose subject CN is the switch's name (HUB_PARTICIPANT_NAME),
 * so whatever arrives on it came through the switch. The CA may sign participants' certificates too, as a scheme's CA
 * does, as long as it signs that name for the switch alone.
 */
export interface InboundTlsConfig {
  /** IN_SERVER_CERT_PATH, IN_SERVER_KEY_PATH */
  server: CertificateFiles;
  /** IN_CA_CERT_PATH: the CA that signs the switch's client certificate. */
  caPath: string;
}

/** OUTBOUND_MUTUAL_TLS_ENABLED: what the connector shows the switch (its client certificate) and trusts of it. */
export interface OutboundTlsConfig {
  /** OUT_CLIENT_CERT_PATH, OUT_CLIENT_KEY_PATH: its subject CN is DFSP_ID, as the switch requires. */
  client: CertificateFiles;
  /** OUT_CA_CERT_PATH: the CA the switch's server certificate chains to, in place of Node's public CAs. */
  caPath?: string;
}

/** What every connector needs to take part in a scheme, named as Mojaloop's SDKs name it where they have the setting. */
export interface ConnectorConfig {
  /** DFSP_ID: the participant's FSPIOP-Source, as the hub's admin API knows it. */
  participantId: string;
  /** PEER_ENDPOINT: the switch's FSPIOP base URL every outgoing message goes to. */
  peerEndpoint: string;
  /** INBOUND_LISTEN_PORT: where the switch delivers requests and callbacks (the participant's registered endpoints). */
  inboundPort: number;
  /** OUTBOUND_LISTEN_PORT: the API the participant's own systems call (the PISP's app, the DFSP's core banking). */
  outboundPort: number;
  host: string;
  temporalAddress: string;
  /** TEMPORAL_TLS_*, as for the hub's processes. */
  temporalTls?: TemporalTlsConfig;
  /** TEMPORAL_NAMESPACE: the participant's own namespace, created if missing; by default its DFSP_ID. */
  temporalNamespace: string;
  taskQueue: string;
  /** AUTH_SERVICE_ID: the participant of the Auth service that holds consents (the hub's, by default). */
  authServiceId: string;
  /**
   * HUB_PARTICIPANT_NAME: the switch's own FSPIOP-Source (the hub's setting of that name). What the switch says as
   * itself (its errors, its answer to GET /transfers, its PATCH) decides a transfer; a message with a participant's
   * name, which the switch relays but the participant could also send straight to the connector, does not alone.
   */
  hubParticipantName: string;
  /** REQUEST_TIMEOUT_MS: how long a call waits for the callback that answers it (the SDKs' default: 60 s). */
  requestTimeoutMs: number;
  logLevel: string;
  /**
   * ILP_SECRET: the DFSP's secret for the fulfilments of its quotes as payee (the sdk-scheme-adapter's setting of that
   * name). It must stay the same across restarts, or a quote given before one cannot be fulfilled after it.
   */
  ilpSecret?: string;
  /** JWS_SIGNING_KEY_PATH: the participant's private key; with it every message with a body is signed, as Mojaloop's SDK signs. */
  jwsSigningKeyPath?: string;
  /** VALIDATE_INBOUND_JWS: whether what the switch delivers must be signed (off by default; Mojaloop's SDK has it on). */
  validateInboundJws?: boolean;
  /** JWS_VERIFICATION_KEYS_DIRECTORY: the senders' public keys as `<fspId>.pem`, the hub's among them. */
  jwsVerificationKeysDirectory?: string;
  inboundTls?: InboundTlsConfig;
  outboundTls?: OutboundTlsConfig;
  /** INBOUND_ALLOW_UNAUTHENTICATED: a trusted network in front of the inbound API lets only the switch reach it. */
  allowUnauthenticatedInbound?: boolean;
}

export function loadConnectorConfig(role: 'dfsp' | 'pisp', env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  const participantId = env.DFSP_ID;
  if (!participantId) throw new Error(`DFSP_ID must name the ${role.toUpperCase()} (its participant ID at the hub)`);
  return {
    participantId,
    peerEndpoint: env.PEER_ENDPOINT || 'http://127.0.0.1:3000',
    inboundPort: integer(env, 'INBOUND_LISTEN_PORT', 4000),
    outboundPort: integer(env, 'OUTBOUND_LISTEN_PORT', 4001),
    host: env.HOST || '127.0.0.1',
    temporalAddress: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    temporalTls: temporalTlsConfig(env),
    temporalNamespace: env.TEMPORAL_NAMESPACE || participantId,
    taskQueue: env.TEMPORAL_TASK_QUEUE || `${role}-connector`,
    authServiceId: env.AUTH_SERVICE_ID || 'centralauth',
    hubParticipantName: env.HUB_PARTICIPANT_NAME || 'Hub',
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000),
    logLevel: env.LOG_LEVEL || 'info',
    ilpSecret: env.ILP_SECRET || undefined,
    jwsSigningKeyPath: env.JWS_SIGNING_KEY_PATH || undefined,
    validateInboundJws: flag(env, 'VALIDATE_INBOUND_JWS'),
    jwsVerificationKeysDirectory: env.JWS_VERIFICATION_KEYS_DIRECTORY || undefined,
    inboundTls: inboundTlsConfig(env),
    outboundTls: outboundTlsConfig(env),
    allowUnauthenticatedInbound: flag(env, 'INBOUND_ALLOW_UNAUTHENTICATED'),
  };
}

function required(env: NodeJS.ProcessEnv, name: string, because: string): string {
  const value = env[name];
  if (!value) throw new Error(`${because} needs ${name}`);
  return value;
}

function inboundTlsConfig(env: NodeJS.ProcessEnv): InboundTlsConfig | undefined {
  if (!flag(env, 'INBOUND_MUTUAL_TLS_ENABLED')) return undefined;
  const because = 'INBOUND_MUTUAL_TLS_ENABLED=true';
  const server = certificateFiles(env, 'IN_SERVER_CERT_PATH', 'IN_SERVER_KEY_PATH');
  if (!server) throw new Error(`${because} needs IN_SERVER_CERT_PATH and IN_SERVER_KEY_PATH`);
  return { server, caPath: required(env, 'IN_CA_CERT_PATH', because) };
}

function outboundTlsConfig(env: NodeJS.ProcessEnv): OutboundTlsConfig | undefined {
  if (!flag(env, 'OUTBOUND_MUTUAL_TLS_ENABLED')) return undefined;
  const client = certificateFiles(env, 'OUT_CLIENT_CERT_PATH', 'OUT_CLIENT_KEY_PATH');
  if (!client) throw new Error('OUTBOUND_MUTUAL_TLS_ENABLED=true needs OUT_CLIENT_CERT_PATH and OUT_CLIENT_KEY_PATH');
  return { client, caPath: env.OUT_CA_CERT_PATH || undefined };
}

/**
 * Why the connector must not serve as configured, or undefined. A transfer's outcome is believed when the switch says
 * it (its FSPIOP-Source, HUB_PARTICIPANT_NAME), so the connector must know that the switch is the sender: by the
 * connection (INBOUND_MUTUAL_TLS_ENABLED, the switch's client certificate), or by the signature of every message
 * with a body (VALIDATE_INBOUND_JWS, with the switch's key; a message without one is then never taken as the
 * switch's), or because nothing but the switch can reach it (loopback, or INBOUND_ALLOW_UNAUTHENTICATED=true for a
 * trusted network in front of it).
 */
export function connectorExposureProblem(config: ConnectorConfig): string | undefined {
  const { host, inboundTls, validateInboundJws, jwsVerificationKeysDirectory, hubParticipantName } = config;
  if (validateInboundJws) {
    const hubKey = jwsVerificationKeysDirectory && path.join(jwsVerificationKeysDirectory, `${hubParticipantName}.pem`);
    if (!hubKey || !fs.existsSync(hubKey)) {
      return `VALIDATE_INBOUND_JWS=true needs the switch's public key as ${hubParticipantName}.pem in JWS_VERIFICATION_KEYS_DIRECTORY: without it every message the switch says as itself (its errors, its PATCH) is refused`;
    }
  }
  if (isLoopback(host) || inboundTls || validateInboundJws || config.allowUnauthenticatedInbound) return undefined;
  return (
    `HOST ${host} is beyond loopback, so the inbound API must know that the switch sends: set INBOUND_MUTUAL_TLS_ENABLED=true ` +
    `(the switch's client certificate), VALIDATE_INBOUND_JWS=true (every message with a body signed), or INBOUND_ALLOW_UNAUTHENTICATED=true ` +
    `if a trusted network in front of it lets only the switch through`
  );
}
