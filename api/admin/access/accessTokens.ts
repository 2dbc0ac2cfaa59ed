import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type RemoteJWKSet } from 'jose';
import type { Logger } from 'pino';
import type { OidcConfig } from '../../../activities/shared/platform/config';
import { OPERATOR_ROLES, type AdminCaller, type OperatorRole } from '../../../activities/shared/contracts/operatorRoles';
import { HttpError } from '../../../activities/shared/platform/httpError';

/*
 * The scheme's OpenID Provider, as the admin API sees it: where its keys are (discovery), and whether an access token
 * it issued is a credential here (signature, issuer, audience, expiry), for whom and with which roles.
 */

/** What the hub and the console use of the provider's discovery document (OpenID Connect Discovery 1.0, section 3). */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
}

/**
 * Signatures the hub accepts: the provider's private key signs, anyone may check with its public one. Never HS*,
 * whose key would be a secret the hub shares (a public client has none), nor `none` (jose refuses it anyway).
 */
export const ACCESS_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/**
 * The JWT types an access token may declare (`typ`): RFC 9068's, and plain JWT as Keycloak and Entra ID send. Another
 * (a logout token, `logout+jwt`, which also names the client as its audience) is not an access token.
 */
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);

/** How long discovery's answer is kept, and how long after a failed discovery the hub waits before it asks again. */
const METADATA_MAX_AGE_MS = 60 * 60_000;
const RETRY_AFTER_FAILURE_MS = 30_000;
/** How long the hub waits for the provider's discovery document or keys before it gives up on a request. */
const FETCH_TIMEOUT_MS = 5_000;
/** A name longer than this is not taken for one (audit entries and refusals quote it). */
const MAX_NAME_LENGTH = 200;

/** A compact JWS: three base64url parts. A bearer that is not one is no access token of the provider. */
export const looksLikeJwt = (bearer: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(bearer);

/** The claim at `path`: a claim of that very name (Auth0's are URLs, dots and all), else a dotted path into objects. */
export function claimAt(payload: JWTPayload, path: string): unknown {
  if (Object.hasOwn(payload, path)) return payload[path];
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The hub roles a roles claim gives: its values (an array of strings, or one string) through `map`; without a map,
 * those that are a hub role's name. Anything else in the claim is ignored.
 */
export function rolesFrom(claim: unknown, map?: ReadonlyMap<string, readonly OperatorRole[]>): OperatorRole[] {
  const values = (Array.isArray(claim) ? claim : [claim]).filter((value): value is string => typeof value === 'string');
  const roles = values.flatMap((value) =>
    map ? (map.get(value) ?? []) : (OPERATOR_ROLES as readonly string[]).includes(value) ? [value as OperatorRole] : [],
  );
  return OPERATOR_ROLES.filter((role) => roles.includes(role));
}

/** Who a token names: OIDC_NAME_CLAIM (else preferred_username, then email), then its subject, then its client. */
export function nameFrom(payload: JWTPayload, nameClaim?: string): string | undefined {
  const claims = [...(nameClaim ? [nameClaim] : ['preferred_username', 'email']), 'sub', 'client_id'];
  for (const claim of claims) {
    const value = claimAt(payload, claim);
    if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH && !/[\u0000-\u001f\u007f]/.test(value)) return value.trim();
  }
  return undefined;
}

/** A refusal of the token itself: 403, as a wrong static token is; the console takes it as "sign in again". */
const refused = (reason: string) => new HttpError(403, 'clientError', `Forbidden: ${reason}`);

/**
 * Why jose would not take a token, as a refusal says it: never quoting the token, and short, as ErrorInformation's
 * description is (128 characters with the code's words); the settings it names say which issuer and audience.
 */
function refusalOf(error: unknown): HttpError | undefined {
  if (error instanceof errors.JWTExpired) {
    const exp = typeof error.payload.exp === 'number' ? ` at ${new Date(error.payload.exp * 1000).toISOString()}` : '';
    return refused(`the access token expired${exp}`);
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return refused('the access token is from another issuer than OIDC_ISSUER');
    if (error.claim === 'aud') return refused("the access token's audience is not this hub's (OIDC_AUDIENCE)");
    if (error.claim === 'nbf') return refused('the access token is not valid yet');
    if (error.reason === 'missing') return refused(`the access token has no ${error.claim} claim`);
    return refused(`the access token's ${error.claim} claim is not one this hub accepts`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused("the access token's signature does not verify with the identity provider's keys");
  if (error instanceof errors.JWKSNoMatchingKey) return refused('the access token is signed by a key the identity provider does not publish');
  if (error instanceof errors.JOSEAlgNotAllowed) return refused('the access token is signed with an algorithm this hub does not accept');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return refused('the bearer token is neither one this hub accepts nor an access token it can read');
  }
  return undefined;
}

/** A string field of the discovery document that is an http(s) URL, as the issuer's scheme allows. */
function endpoint(document: Record<string, unknown>, field: string, issuer: URL, required: boolean): string | undefined {
  const value = document[field];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !URL.canParse(value)) throw new Error(`discovery gives no ${field}`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== issuer.protocol) throw new Error(`discovery's ${field} is not https://`);
  return value;
}

/**
 * The provider: its metadata (discovered from `${issuer}/.well-known/openid-configuration`, kept an hour, asked again at
 * most every 30 s after a failure) and its keys (jose's remote key set, which fetches them again on an unknown `kid`
 * at most every 30 s): no caller can make the hub fetch more than that, and none waits more than a fetch's timeout.
 */
export class IdentityProvider {
  private metadata?: { value: ProviderMetadata; at: number };
  /** A discovery under way; it never rejects: it leaves `metadata` or `failure` behind. */
  private pending?: Promise<void>;
  private failure?: { error: Error; at: number };
  private keys?: { uri: string; set: RemoteJWKSet };

  constructor(
    readonly config: OidcConfig,
    private readonly log?: Logger,
  ) {}

  /** The provider's metadata, discovered or remembered (past its hour while a new discovery runs); 503 when there is none. */
  async discover(): Promise<ProviderMetadata> {
    const now = Date.now();
    const fresh = this.metadata && now - this.metadata.at < METADATA_MAX_AGE_MS;
    if (!fresh && !this.pending && !(this.failure && now - this.failure.at < RETRY_AFTER_FAILURE_MS)) {
      this.pending = this.fetchMetadata().then(
        (value) => {
          this.metadata = { value, at: Date.now() };
          this.failure = undefined;
        },
        (error: Error) => {
          this.failure = { error, at: Date.now() };
          this.log?.warn({ issuer: this.config.issuer, err: error.message }, 'the identity provider could not be discovered');
        },
      );
      void this.pending.finally(() => (this.pending = undefined));
    }
    const known = () => this.metadata?.value;
    if (known()) return known()!;
    await this.pending;
    if (known()) return known()!;
    throw new HttpError(503, 'serviceUnavailable', `the identity provider cannot be reached (${this.failure?.error.message})`);
  }

  private async fetchMetadata(): Promise<ProviderMetadata> {
    const issuer = new URL(this.config.issuer);
    const url = `${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch((error: Error) => {
      throw new Error(`discovery: ${error.name === 'TimeoutError' ? 'no answer in time' : (error.cause as Error | undefined)?.message || error.message}`);
    });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const document = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof document !== 'object' || document === null) throw new Error('discovery gave no JSON object');
    // OpenID Connect Discovery 1.0, 4.3: the issuer in the document must be the one asked for, exactly.
    if (document.issuer !== this.config.issuer) throw new Error(`discovery names another issuer, ${String(document.issuer).slice(0, 100)}`);
    return {
      issuer: this.config.issuer,
      authorization_endpoint: endpoint(document, 'authorization_endpoint', issuer, true)!,
      token_endpoint: endpoint(document, 'token_endpoint', issuer, true)!,
      jwks_uri: endpoint(document, 'jwks_uri', issuer, true)!,
      end_session_endpoint: endpoint(document, 'end_session_endpoint', issuer, false),
    };
  }

  /** The origins the console's page fetches from (the token endpoint's, for the code exchange): its CSP's connect-src. */
  browserOrigins(): string[] {
    const origins = [new URL(this.config.issuer).origin];
    if (this.metadata) origins.push(new URL(this.metadata.value.token_endpoint).origin);
    return [...new Set(origins)];
  }

  private keySet(uri: string): RemoteJWKSet {
    if (this.keys?.uri !== uri) {
      this.keys = {
        uri,
        set: createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS, cooldownDuration: RETRY_AFTER_FAILURE_MS, cacheMaxAge: 10 * 60_000 }),
      };
    }
    return this.keys.set;
  }

  /**
   * The caller an access token names, with the roles its claim gives; a token that is not a valid access token of
   * this provider for this hub, or gives no role here, is refused 403 saying why; a provider that cannot be reached
   * to check it is 503.
   */
  async verify(token: string): Promise<AdminCaller> {
    const { config } = this;
    const metadata = await this.discover();
    let verified;
    try {
      verified = await jwtVerify(token, this.keySet(metadata.jwks_uri), {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ACCESS_TOKEN_ALGORITHMS,
        clockTolerance: config.clockSkewSeconds,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) throw refusal;
      this.log?.warn({ issuer: config.issuer, err: (error as Error).message }, "the identity provider's keys could not be fetched");
      throw new HttpError(503, 'serviceUnavailable', "the identity provider's keys cannot be had to check the access token");
    }
    const { payload, protectedHeader } = verified;
    if (protectedHeader.typ !== undefined && !ACCESS_TOKEN_TYPES.has(protectedHeader.typ.toLowerCase())) {
      throw refused('the token is not an access token (its typ says otherwise)');
    }
    const name = nameFrom(payload, config.nameClaim);
    const roles = rolesFrom(claimAt(payload, config.rolesClaim), config.roleMap);
    if (roles.length === 0) {
      const why = config.roleMap ? `OIDC_ROLE_MAP maps no value of its ${config.rolesClaim} claim` : `its ${config.rolesClaim} claim names none`;
      throw refused(`${name ?? 'the caller'} has no role at this hub: ${why}`);
    }
    return { name, roles, credential: 'oidc' };
  }
}
