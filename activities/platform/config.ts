import path from 'node:path';
import { DEFAULT_TASK_QUEUE } from '../../api/contracts/conversations';

/**
 * Every process (worker, gateways, launcher, tests) reads its settings here, from environment
 * variables with safe defaults, so pointing the hub at MySQL or a Temporal cluster is configuration only.
 * The README has the table.
 */
export interface HubConfig {
  /** `sqlite:<file>` (default, under .data/) or `mysql://user:pass@host:port/db`. */
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  /**
   * The hub's one identity, as in Mojaloop: the participant that owns the HUB_* accounts and the FSPIOP-Source
   * of the messages the hub originates (errors, timeouts, notifications).
   */
  hubParticipantName: string;
  /**
   * Document 3 creates participants inactive until an operator activates them; central-ledger creates them
   * active, and Mojaloop's onboarding scripts rely on that.
   */
  newParticipantsActive: boolean;
  transactionRequests: TransactionRequestPolicy;
  authService: AuthServiceConfig;
  jws: JwsConfig;
  adminPort: number;
  switchPort: number;
  host: string;
  logLevel: string;
}

/** How the hub keeps transaction requests and how long their conversations stay open. */
export interface TransactionRequestPolicy {
  /**
   * Days a transaction request's record answers GET and repeats after its last answer: Document 2 has a server
   * keep rejected transaction objects for a scheme-agreed period. After it, the request is unknown (3206).
   */
  retentionDays: number;
  /**
   * Seconds a transaction request's workflow stays open after its last message, to record the authorizations that
   * follow in the same place; it closes sooner once the payer's answer is final and no authorization is open.
   */
  idleSeconds: number;
}

/** The Auth service the hub hosts (Document 1): its participant name and what FIDO credentials must be made for. */
export interface AuthServiceConfig {
  /** The FSPIOP-Destination DFSPs address it by, and the owner of the CONSENT entries it registers. */
  participantId: string;
  /** The WebAuthn relying party ID whose hash a FIDO authenticator signs: the PISP app's domain. */
  rpId: string;
  /** The origins a FIDO credential may be created and used from (clientDataJSON.origin): the PISP app's. */
  origins: string[];
}

/** End-to-end signatures (FSPIOP-Signature), configured as Mojaloop's SDK configures them where it has the setting. */
export interface JwsConfig {
  /** JWS_VALIDATE: whether participants' messages must be signed, unless the admin API says otherwise for one. */
  validate: boolean;
  /** JWS_VERIFICATION_KEYS_DIRECTORY: participants' public keys as `<fspId>.pem`; a key set through the admin API wins. */
  verificationKeysDirectory?: string;
  /** JWS_SIGNING_KEY_PATH: the hub's private key, with which it signs the messages it originates; unset, it signs none. */
  signingKeyPath?: string;
}

export const repoRoot = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..');

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  return {
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(repoRoot, '.data', 'hub.sqlite')}`,
    temporalAddress: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    hubParticipantName: env.HUB_PARTICIPANT_NAME || 'Hub',
    newParticipantsActive: flag(env, 'NEW_PARTICIPANTS_ACTIVE'),
    transactionRequests: {
      retentionDays: integer(env, 'TRANSACTION_REQUEST_RETENTION_DAYS', 30),
      idleSeconds: integer(env, 'TRANSACTION_REQUEST_IDLE_SECONDS', 600),
    },
    authService: {
      participantId: env.AUTH_SERVICE_ID || 'centralauth',
      rpId: env.AUTH_SERVICE_RP_ID || 'localhost',
      origins: (env.AUTH_SERVICE_ORIGINS || 'http://localhost:3000')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    },
    jws: {
      validate: flag(env, 'JWS_VALIDATE'),
      verificationKeysDirectory: env.JWS_VERIFICATION_KEYS_DIRECTORY || undefined,
      signingKeyPath: env.JWS_SIGNING_KEY_PATH || undefined,
    },
    adminPort: integer(env, 'ADMIN_PORT', 3001),
    switchPort: integer(env, 'SWITCH_PORT', 3000),
    host: env.HOST || '127.0.0.1',
    logLevel: env.LOG_LEVEL || 'info',
  };
}
