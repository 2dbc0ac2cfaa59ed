import { readFileSync } from 'node:fs';
import path from 'node:path';
import { msToNumber } from '@temporalio/common/lib/time';
import { DEFAULT_TASK_QUEUE } from '../contracts/conversations';
import { CHANGE_GROUPS, OPERATOR_ROLES, type ChangeGroup, type OperatorRole } from '../contracts/operatorRoles';
import { API_TYPES, type ApiType } from '../contracts/apiType';

/**
 * Every process (worker, gateways, launcher, tests) reads its settings here, from environment
 * variables with safe defaults, so pointing the hub at MySQL or a Temporal cluster is configuration only.
 * docs/configuration.md has the table.
 */
export interface HubConfig {
  /** `sqlite:<file>` (default, under .data/) or `mysql://user:pass@host:port/db`. */
  databaseUrl: string;
  temporalAddress: string;
  /** How the hub's processes prove themselves to Temporal's frontend and check it; undefined: plain gRPC. */
  temporalTls?: TemporalTlsConfig;
  temporalNamespace: string;
  /**
   * TEMPORAL_UI_URL: where operators open the Temporal UI, which the console links each conversation to; by default
   * the UI `npm start`'s dev server serves (TEMPORAL_UI_PORT, 8233) when the hub runs its own Temporal.
   */
  temporalUiUrl?: string;
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
  /**
   * MESSAGE_LOG (on unless `false`): the switch keeps every message it receives and delivers, headers and bodies, for
   * the operator's traces. Bodies hold parties' names and accounts: a scheme that may not keep them turns it off.
   */
  messageLog: boolean;
  /**
   * WORKFLOW_STACK_TRACES (off unless `true`): the worker records where each promise of workflow code was created, for
   * the Temporal UI's Stack Trace tab, at a cost in CPU per message (worker/workflowThread.ts).
   */
  workflowStackTraces: boolean;
  /** WORKFLOW_CACHE_SIZE: workflows the worker keeps in memory between their tasks (worker/createWorker.ts). */
  workflowCacheSize?: number;
  /** MESSAGE_LOG_RETENTION_DAYS: how long the message log keeps an entry (30 days by default). */
  messageLogRetentionDays: number;
  /** MESSAGE_LOG_PER_MINUTE and MESSAGE_LOG_REFUSED_PER_MINUTE: what one participant can make the message log keep. */
  messageLogShare: MessageLogShare;
  transactionRequests: TransactionRequestPolicy;
  authService: AuthServiceConfig;
  /** The gateway's bound on the lookups it runs itself (/participants, /parties). */
  lookups: LookupLimits;
  /** FOLLOW_UPS_PER_SECOND and FOLLOW_UP_BURST: each participant's share of the answers given from records, per gateway process. */
  followUpShare: ShareLimits;
  jws: JwsConfig;
  adminPort: number;
  switchPort: number;
  /** GATEWAY_PROCESSES: copies of the gateway sharing its two ports, to use more than one core. */
  gatewayProcesses: number;
  host: string;
  tls: TlsConfig;
  adminAccess: AdminAccessConfig;
  /** SWITCH_ALLOW_UNAUTHENTICATED: a trusted network or proxy in front of the switch knows who sends. */
  allowUnauthenticatedSwitch: boolean;
  /**
   * API_TYPE: what participants speak on parties, quotes and transfers, `fspiop` (default) or `iso20022`, one for the
   * whole deployment as in Mojaloop's switch (docs/iso20022.md).
   */
  apiType: ApiType;
  /** SETTLEMENT_WINDOW_CLOSE_CRON: when the open settlement window closes by itself (a cron expression, UTC); unset, only on request. */
  settlementWindowCloseCron?: string;
  /** Participants' e-mails; none are sent without SMTP_URL. */
  smtp?: SmtpConfig;
  /** LEDGER_CHECK_INTERVAL: how often the ledger checks its invariants (a Temporal duration: '5 minutes', '30s'). */
  ledgerCheckInterval: string;
  logLevel: string;
}

/** The server the hub sends participants' e-mails through, and how often it may tell of one position's alarm. */
export interface SmtpConfig {
  /** SMTP_URL: smtp://user:password@host:port. */
  url: string;
  /** NOTIFICATION_EMAIL_FROM: the sender. */
  from: string;
  /**
   * BREACH_EMAIL_INTERVAL_MINUTES: the least time between two alarm e-mails about one participant's position in one
   * currency, to each address: a participant that reserves and releases around its threshold crosses it at will.
   */
  breachEmailIntervalMinutes: number;
}

/** A certificate (PEM, its chain after it) and its private key (PEM). */
export interface CertificateFiles {
  certPath: string;
  keyPath: string;
}

/** The hub's TLS: how its gateways serve, and what it shows and trusts when it calls participants. */
export interface TlsConfig {
  /** The gateways' server certificate: when given, the switch and the admin API serve HTTPS only. */
  server?: CertificateFiles;
  /**
   * The CA (PEM, several may follow each other) that signs participants' client certificates: when given, the switch
   * takes only connections with a client certificate it signed, and a message only from the participant it names.
   */
  switchClientCaPath?: string;
  /** The hub's client certificate, shown to participants' HTTPS endpoints that ask for one (their mTLS). */
  outboundClient?: CertificateFiles;
  /** The CA participants' server certificates must chain to, in place of Node's public CAs. */
  outboundCaPath?: string;
}

/**
 * TLS to Temporal's frontend. Whoever reaches the frontend can signal any workflow, and the workflows believe the
 * FSPIOP-Source a signal carries, so a cluster beyond this machine should require client certificates (mutual TLS)
 * from a CA of its own: one that signs only the hub's processes and Temporal's tools, never participants.
 */
export interface TemporalTlsConfig {
  /** TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH: the client certificate the frontend asks for. */
  client?: CertificateFiles;
  /** TEMPORAL_TLS_CA_PATH: the CA the frontend's certificate must chain to, in place of Node's public CAs. */
  caPath?: string;
  /** TEMPORAL_TLS_SERVER_NAME: the name the frontend's certificate must carry, when it is not TEMPORAL_ADDRESS's host. */
  serverName?: string;
}

/** An ADMIN_API_TOKENS entry: a bare secret is an unnamed admin token, `name:role:secret` a named one. */
export interface AdminToken {
  /** Who holds it: the name audit entries and refusals give; none for a bare secret. */
  name?: string;
  role: OperatorRole;
  secret: string;
}

/**
 * Who may use the admin API. Either credential is enough; with neither, the admin API is open, which the hub allows
 * only on loopback: an open admin API elsewhere would let anyone on the network move money.
 */
export interface AdminAccessConfig {
  /** Bearer tokens (`Authorization: Bearer <secret>`) the admin API accepts, each with its role. */
  tokens: AdminToken[];
  /** The CA of operators' client certificates: a certificate it signed is accepted instead of a token. */
  clientCaPath?: string;
  /** ADMIN_ALLOWED_HOSTS: names the admin API answers to (any port) besides localhost and IP addresses. */
  allowedHosts?: string[];
  /** ADMIN_ALLOWED_ORIGINS: other sites' pages (scheme://host:port) that may call the admin API from a browser. */
  allowedOrigins?: string[];
  /** ADMIN_FOUR_EYES: the kinds of change a second person must approve (docs/security.md, "Four eyes"). */
  fourEyes?: ChangeGroup[];
  /** APPROVAL_TTL: how long a held change waits for its decision before it expires, in milliseconds. */
  approvalTtlMs?: number;
  /** OIDC_*: the scheme's identity provider, whose access tokens the admin and settlement APIs accept. */
  oidc?: OidcConfig;
}

/**
 * The scheme's OpenID Provider (docs/security.md, "Signing in with OpenID Connect"): people sign in to the console there
 * (authorization code with PKCE, the console a public client), and its access tokens (JWTs) are credentials of the
 * admin and settlement APIs, their roles read from a claim.
 */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer identifier, exactly as its tokens' `iss` and its discovery document give it. */
  issuer: string;
  /** OIDC_CLIENT_ID: the console's client at the provider (public: no secret); without it the console offers no sign-in there. */
  clientId?: string;
  /** OIDC_AUDIENCE: what an access token for the hub's APIs carries in `aud` (by default the console's client ID). */
  audience: string;
  /** OIDC_RESOURCE: a resource indicator (RFC 8707) the console asks its tokens for, for providers that choose the audience by it. */
  resource?: string;
  /** OIDC_SCOPES: the scopes the console asks for. */
  scopes: string[];
  /** OIDC_ROLES_CLAIM: the claim that holds the caller's roles or groups; a dotted path reaches into objects (`realm_access.roles`). */
  rolesClaim: string;
  /**
   * OIDC_ROLE_MAP: which hub roles each value of the roles claim (a group's name, the provider's role) gives; without
   * it, a value that is a hub role's name is that role.
   */
  roleMap?: ReadonlyMap<string, readonly OperatorRole[]>;
  /** OIDC_NAME_CLAIM: the claim that names the caller in audit entries and refusals; unset, preferred_username, email or sub. */
  nameClaim?: string;
  /** OIDC_CLOCK_SKEW_SECONDS: how far the provider's clock and the hub's may differ when `exp` and `nbf` are checked. */
  clockSkewSeconds: number;
  /** OIDC_PROVIDER_NAME: the provider as the console's "Sign in with …" names it; by default the issuer's host. */
  providerName: string;
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

/** How much of the switch's follow-up work one participant may ask for: a steady rate and a burst above it. */
export interface ShareLimits {
  perSecond: number;
  burst: number;
}

/**
 * How many entries one participant may add to the message log a minute, in one process (the messages it sends, and
 * apart those delivered to it), and how many of those may be messages the switch refused.
 */
export interface MessageLogShare {
  perMinute: number;
  refusedPerMinute: number;
}

/** How many lookups a gateway runs at once, and how many more wait their turn before it answers 503 (2005). */
export interface LookupLimits {
  concurrency: number;
  queue: number;
  /** LOOKUP_SHARE: the most of those places one participant may hold. */
  perParticipant: number;
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

export const repoRoot = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../../..' : '../../..');

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function atLeastOne(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback);
  if (value < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return value;
}

/** A Temporal duration ('5 minutes', '30s') of a second or more, refused at start rather than when a schedule is made of it. */
function interval(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name] || fallback;
  let ms: number;
  try {
    ms = msToNumber(value as Parameters<typeof msToNumber>[0]);
  } catch {
    throw new Error(`${name} must be a duration such as "5 minutes" or "30s", got "${value}"`);
  }
  if (!(ms >= 1000)) throw new Error(`${name} must be a second or more, got "${value}"`);
  return value;
}

export function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function apiType(env: NodeJS.ProcessEnv): ApiType {
  const value = env.API_TYPE || 'fspiop';
  if (!(API_TYPES as readonly string[]).includes(value)) throw new Error(`API_TYPE must be ${API_TYPES.join(' or ')}, got "${value.slice(0, 64)}"`);
  return value as ApiType;
}

function list(env: NodeJS.ProcessEnv, name: string, fallback = ''): string[] {
  return (env[name] || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function certificateFiles(env: NodeJS.ProcessEnv, certName: string, keyName: string): CertificateFiles | undefined {
  const [certPath, keyPath] = [env[certName], env[keyName]];
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) throw new Error(`${certName} and ${keyName} go together: set both or neither`);
  return { certPath, keyPath };
}

/** TEMPORAL_TLS_*: TLS is on as soon as one is set. Shared by the hub's processes and the connectors. */
export function temporalTlsConfig(env: NodeJS.ProcessEnv): TemporalTlsConfig | undefined {
  const client = certificateFiles(env, 'TEMPORAL_TLS_CERT_PATH', 'TEMPORAL_TLS_KEY_PATH');
  const caPath = env.TEMPORAL_TLS_CA_PATH || undefined;
  const serverName = env.TEMPORAL_TLS_SERVER_NAME || undefined;
  return client || caPath || serverName ? { client, caPath, serverName } : undefined;
}

/** Whether `host` is reachable from this machine only: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A bearer token short enough to be guessed would make the admin API open in all but name. */
const MIN_TOKEN_LENGTH = 16;

function tlsConfig(env: NodeJS.ProcessEnv): TlsConfig {
  const server = certificateFiles(env, 'TLS_CERT_PATH', 'TLS_KEY_PATH');
  const switchClientCaPath = env.SWITCH_CLIENT_CA_PATH || undefined;
  if (switchClientCaPath && !server) throw new Error('SWITCH_CLIENT_CA_PATH needs TLS_CERT_PATH and TLS_KEY_PATH: client certificates come with HTTPS');
  return {
    server,
    switchClientCaPath,
    outboundClient: certificateFiles(env, 'OUTBOUND_TLS_CERT_PATH', 'OUTBOUND_TLS_KEY_PATH'),
    outboundCaPath: env.OUTBOUND_TLS_CA_PATH || undefined,
  };
}

/**
 * One ADMIN_API_TOKENS entry. The secret is everything after the second colon, so it may hold colons of its own; an
 * entry with one colon is neither form, and is refused rather than guessed at. Errors never quote a secret.
 */
function adminToken(entry: string): AdminToken {
  const named = /^([^:]*):([^:]*):(.*)$/.exec(entry);
  if (!named && entry.includes(':')) throw new Error('an ADMIN_API_TOKENS entry is a secret alone or name:role:secret; one has a single colon');
  const [name, role, secret] = named ? named.slice(1) : [undefined, 'admin', entry];
  if (name !== undefined && !/^[\w.@-]+$/.test(name)) {
    throw new Error(`an ADMIN_API_TOKENS name is letters, digits and . _ @ -, got "${name.slice(0, 64)}"`);
  }
  const which = name ? ` (token ${name})` : '';
  if (!OPERATOR_ROLES.includes(role as OperatorRole)) {
    throw new Error(`an ADMIN_API_TOKENS role is one of ${OPERATOR_ROLES.join(', ')}, got "${role.slice(0, 64)}"${which}`);
  }
  if (secret.length < MIN_TOKEN_LENGTH) throw new Error(`every ADMIN_API_TOKENS secret must have at least ${MIN_TOKEN_LENGTH} characters${which}`);
  return { name, role: role as OperatorRole, secret };
}

/** The host name (IPv6 in brackets) of an HTTP Host header, lower case; undefined if it is not one (a path, a user). */
export function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    return url.username || url.password || url.pathname !== '/' || url.search || url.hash ? undefined : url.hostname;
  } catch {
    return undefined;
  }
}

/** An ADMIN_ALLOWED_HOSTS entry: a name (or address), without scheme or port, as the Host header compares with it. */
function allowedHost(entry: string): string {
  const hostname = hostnameOf(entry);
  if (!hostname || new URL(`http://${entry}`).port) throw new Error(`ADMIN_ALLOWED_HOSTS has "${entry}": give host names alone, without scheme or port`);
  return hostname;
}

/** An ADMIN_ALLOWED_ORIGINS entry, in the form a browser's Origin header takes: scheme://host[:port], nothing after. */
function allowedOrigin(entry: string): string {
  const url = URL.canParse(entry) ? new URL(entry) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`ADMIN_ALLOWED_ORIGINS has "${entry}": give origins as scheme://host:port (https://ops.example.org:8443)`);
  }
  return url.origin;
}

/** Whether `url` is http(s) with nothing a browser or a token's `iss` would not carry (user, query, fragment). */
function plainUrl(raw: string, name: string, example: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`${name} must be an https:// URL without query or fragment (${example}), got "${raw.slice(0, 100)}"`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname.replace(/^\[(.*)\]$/, '$1'))) {
    throw new Error(`${name} must be https:// (tokens and keys would travel in the clear), got "${raw.slice(0, 100)}"; http:// is for loopback only`);
  }
  return url;
}

/** The widest clock skew a token's expiry is given: more would keep an expired token alive. */
const MAX_CLOCK_SKEW_SECONDS = 300;

/**
 * OIDC_ROLE_MAP: `value:role,…`, a value of the roles claim and the hub role it gives. The role is after the last
 * colon, so a value may hold colons of its own (`urn:example:group:hub-finance:finance`); a value may appear more than
 * once, to give several roles.
 */
function roleMap(env: NodeJS.ProcessEnv): Map<string, OperatorRole[]> | undefined {
  const entries = list(env, 'OIDC_ROLE_MAP');
  if (entries.length === 0) return undefined;
  const map = new Map<string, OperatorRole[]>();
  for (const entry of entries) {
    const colon = entry.lastIndexOf(':');
    const [value, role] = [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
    if (colon < 0 || value === '') throw new Error(`an OIDC_ROLE_MAP entry is value:role (hub-finance:finance), got "${entry.slice(0, 100)}"`);
    if (!OPERATOR_ROLES.includes(role as OperatorRole)) {
      throw new Error(`an OIDC_ROLE_MAP role is one of ${OPERATOR_ROLES.join(', ')}, got "${role.slice(0, 64)}" (for ${value.slice(0, 100)})`);
    }
    map.set(value, [...new Set([...(map.get(value) ?? []), role as OperatorRole])]);
  }
  return map;
}

/** A claim's name (or dotted path): no spaces, nothing empty between the dots. */
function claimName(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const value = env[name]?.trim() || fallback;
  if (value !== undefined && !/^[^\s.]+(?:\.[^\s.]+)*$/.test(value))
    throw new Error(`${name} is a claim's name or a dotted path to it (realm_access.roles), got "${value.slice(0, 100)}"`);
  return value;
}

const OIDC_SETTINGS = [
  'OIDC_CLIENT_ID',
  'OIDC_AUDIENCE',
  'OIDC_RESOURCE',
  'OIDC_SCOPES',
  'OIDC_ROLES_CLAIM',
  'OIDC_ROLE_MAP',
  'OIDC_NAME_CLAIM',
  'OIDC_CLOCK_SKEW_SECONDS',
  'OIDC_PROVIDER_NAME',
];

/** OIDC_*: undefined without OIDC_ISSUER, which every other setting needs. */
function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) {
    const stray = OIDC_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0)
      throw new Error(`${stray.sort().join(', ')} ${stray.length > 1 ? 'need' : 'needs'} OIDC_ISSUER: set the identity provider's issuer, or none of them`);
    return undefined;
  }
  const url = plainUrl(issuer, 'OIDC_ISSUER', 'https://login.example.org/realms/hub');
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  const audience = env.OIDC_AUDIENCE?.trim() || clientId;
  if (!audience) {
    throw new Error(
      "OIDC_ISSUER needs OIDC_CLIENT_ID (the console's client at the identity provider), or OIDC_AUDIENCE alone when no one signs in to the console there",
    );
  }
  const resource = env.OIDC_RESOURCE?.trim() || undefined;
  if (resource && (!URL.canParse(resource) || new URL(resource).hash)) {
    throw new Error(`OIDC_RESOURCE is a resource indicator, an absolute URI without fragment (https://hub.example.org/api), got "${resource.slice(0, 100)}"`);
  }
  const clockSkewSeconds = integer(env, 'OIDC_CLOCK_SKEW_SECONDS', 30);
  if (clockSkewSeconds > MAX_CLOCK_SKEW_SECONDS) {
    throw new Error(`OIDC_CLOCK_SKEW_SECONDS is at most ${MAX_CLOCK_SKEW_SECONDS}: more would keep expired tokens alive, got "${env.OIDC_CLOCK_SKEW_SECONDS}"`);
  }
  const scopes = (env.OIDC_SCOPES || 'openid profile').split(/[\s,]+/).filter(Boolean);
  return {
    issuer,
    clientId,
    audience,
    resource,
    scopes,
    rolesClaim: claimName(env, 'OIDC_ROLES_CLAIM', 'roles')!,
    roleMap: roleMap(env),
    nameClaim: claimName(env, 'OIDC_NAME_CLAIM'),
    clockSkewSeconds,
    providerName: env.OIDC_PROVIDER_NAME?.trim() || url.host,
  };
}

function adminAccessConfig(env: NodeJS.ProcessEnv, tls: TlsConfig): AdminAccessConfig {
  const tokens = list(env, 'ADMIN_API_TOKENS').map(adminToken);
  const clientCaPath = env.ADMIN_CLIENT_CA_PATH || undefined;
  if (clientCaPath && !tls.server) throw new Error('ADMIN_CLIENT_CA_PATH needs TLS_CERT_PATH and TLS_KEY_PATH: client certificates come with HTTPS');
  const allowedHosts = list(env, 'ADMIN_ALLOWED_HOSTS').map(allowedHost);
  const allowedOrigins = list(env, 'ADMIN_ALLOWED_ORIGINS').map(allowedOrigin);
  const oidc = oidcConfig(env);
  const fourEyes = list(env, 'ADMIN_FOUR_EYES').map(changeGroup);
  // Four eyes compares who asks with who approves: on an open admin API everyone is the same unnamed admin.
  if (fourEyes.length > 0 && tokens.every((token) => !token.name) && !clientCaPath && !oidc) {
    throw new Error('ADMIN_FOUR_EYES needs operators with names: set ADMIN_API_TOKENS as name:role:secret, ADMIN_CLIENT_CA_PATH or OIDC_ISSUER');
  }
  return { tokens, clientCaPath, allowedHosts, allowedOrigins, oidc, fourEyes, approvalTtlMs: duration(env, 'APPROVAL_TTL', '24h') };
}

/** An ADMIN_FOUR_EYES entry: one of the change groups the admin routes declare. */
function changeGroup(entry: string): ChangeGroup {
  if (!(CHANGE_GROUPS as readonly string[]).includes(entry)) throw new Error(`ADMIN_FOUR_EYES names ${CHANGE_GROUPS.join(', ')}; got "${entry.slice(0, 64)}"`);
  return entry as ChangeGroup;
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A length of time as `90s`, `30m`, `24h` or `7d`, in milliseconds. */
function duration(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const given = env[name] || fallback;
  const parsed = /^(\d+)([smhd])$/.exec(given.trim());
  if (!parsed || Number(parsed[1]) === 0) throw new Error(`${name} is a length of time such as 90s, 30m, 24h or 7d; got "${given.slice(0, 64)}"`);
  return Number(parsed[1]) * DURATION_UNITS_MS[parsed[2]];
}

/** Whether the admin API asks callers for a credential: a token, a client certificate, or the identity provider's access token. */
export const adminApiAuthenticated = (access: AdminAccessConfig): boolean => access.tokens.length > 0 || Boolean(access.clientCaPath) || Boolean(access.oidc);

/**
 * Why the gateways must not serve as configured, or undefined. On loopback only this machine can call them; beyond it,
 * anyone on the network could, so both APIs must know who speaks: the admin API by a credential, the switch by
 * participants' client certificates (SWITCH_ALLOW_UNAUTHENTICATED=true says that a trusted network or proxy in front of
 * it does). Signatures are not enough: Mojaloop signs only messages with a body, so a forged GET or DELETE (a party's
 * entry removed, a consent revoked) would carry none. An admin CA that is the participants' CA would make every DFSP an
 * operator. Checked by the processes that serve (the gateway, `npm start`), not by the worker, which serves nothing.
 */
export function exposureProblem(config: HubConfig): string | undefined {
  const { host, tls, adminAccess, jws } = config;
  const { switchClientCaPath } = tls;
  if (adminAccess.clientCaPath && switchClientCaPath && readFileSync(adminAccess.clientCaPath).equals(readFileSync(switchClientCaPath))) {
    return "ADMIN_CLIENT_CA_PATH is the participants' CA (SWITCH_CLIENT_CA_PATH): every DFSP's certificate would open the admin API; give operators a CA of their own";
  }
  if (isLoopback(host)) return undefined;
  if (!adminApiAuthenticated(adminAccess)) {
    return `HOST ${host} is beyond loopback, so the admin API must require authentication: set ADMIN_API_TOKENS (bearer tokens) or ADMIN_CLIENT_CA_PATH (client certificates), or OIDC_ISSUER (an identity provider's access tokens)`;
  }
  if (!switchClientCaPath && !config.allowUnauthenticatedSwitch) {
    return (
      `HOST ${host} is beyond loopback, so the switch must know who sends every message: set SWITCH_CLIENT_CA_PATH (mutual TLS), ` +
      `or SWITCH_ALLOW_UNAUTHENTICATED=true if a trusted network or proxy in front of it does${jws.validate ? ' (JWS_VALIDATE=true binds only messages with a body to their sender: an unsigned GET or DELETE would be believed)' : ''}`
    );
  }
  return undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const host = env.HOST || '127.0.0.1';
  const tls = tlsConfig(env);
  return {
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(repoRoot, '.data', 'hub.sqlite')}`,
    temporalAddress: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    temporalTls: temporalTlsConfig(env),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalUiUrl: env.TEMPORAL_UI_URL || (env.TEMPORAL_ADDRESS ? undefined : `http://127.0.0.1:${env.TEMPORAL_UI_PORT || 8233}`),
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    hubParticipantName: env.HUB_PARTICIPANT_NAME || 'Hub',
    newParticipantsActive: flag(env, 'NEW_PARTICIPANTS_ACTIVE'),
    messageLog: env.MESSAGE_LOG === undefined || env.MESSAGE_LOG === '' || flag(env, 'MESSAGE_LOG'),
    workflowStackTraces: flag(env, 'WORKFLOW_STACK_TRACES'),
    workflowCacheSize: env.WORKFLOW_CACHE_SIZE ? integer(env, 'WORKFLOW_CACHE_SIZE', 0) : undefined,
    messageLogRetentionDays: integer(env, 'MESSAGE_LOG_RETENTION_DAYS', 30),
    messageLogShare: {
      perMinute: atLeastOne(env, 'MESSAGE_LOG_PER_MINUTE', 60_000),
      refusedPerMinute: integer(env, 'MESSAGE_LOG_REFUSED_PER_MINUTE', 600),
    },
    transactionRequests: {
      retentionDays: integer(env, 'TRANSACTION_REQUEST_RETENTION_DAYS', 30),
      idleSeconds: integer(env, 'TRANSACTION_REQUEST_IDLE_SECONDS', 600),
    },
    authService: {
      participantId: env.AUTH_SERVICE_ID || 'centralauth',
      rpId: env.AUTH_SERVICE_RP_ID || 'localhost',
      origins: list(env, 'AUTH_SERVICE_ORIGINS', 'http://localhost:3000'),
    },
    lookups: {
      concurrency: atLeastOne(env, 'LOOKUP_CONCURRENCY', 32),
      queue: integer(env, 'LOOKUP_QUEUE', 1000),
      perParticipant: atLeastOne(env, 'LOOKUP_SHARE', 250),
    },
    followUpShare: { perSecond: atLeastOne(env, 'FOLLOW_UPS_PER_SECOND', 5), burst: atLeastOne(env, 'FOLLOW_UP_BURST', 20) },
    jws: {
      validate: flag(env, 'JWS_VALIDATE'),
      verificationKeysDirectory: env.JWS_VERIFICATION_KEYS_DIRECTORY || undefined,
      signingKeyPath: env.JWS_SIGNING_KEY_PATH || undefined,
    },
    adminPort: integer(env, 'ADMIN_PORT', 3001),
    switchPort: integer(env, 'SWITCH_PORT', 3000),
    gatewayProcesses: atLeastOne(env, 'GATEWAY_PROCESSES', 1),
    host,
    tls,
    adminAccess: adminAccessConfig(env, tls),
    allowUnauthenticatedSwitch: flag(env, 'SWITCH_ALLOW_UNAUTHENTICATED'),
    apiType: apiType(env),
    settlementWindowCloseCron: env.SETTLEMENT_WINDOW_CLOSE_CRON || undefined,
    smtp: env.SMTP_URL
      ? {
          url: env.SMTP_URL,
          from: env.NOTIFICATION_EMAIL_FROM || 'hub@localhost',
          breachEmailIntervalMinutes: integer(env, 'BREACH_EMAIL_INTERVAL_MINUTES', 60),
        }
      : undefined,
    ledgerCheckInterval: interval(env, 'LEDGER_CHECK_INTERVAL', '5 minutes'),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
