import { flag, integer, temporalTlsConfig, type TemporalTlsConfig } from '../platform/config';

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
   * itself (its errors, its answer to GET /transfers, its PATCH) settles a transfer; a message with a participant's
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
  };
}
