import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/*
 * A real OpenID Provider for the tests: panva's oidc-provider (a certified implementation), in this process, on a free
 * port, configured as a scheme would configure its provider for the hub (docs/security.md, "Signing in with OpenID
 * Connect"): the console a public client with PKCE, CORS at the token endpoint for the console's origin, access tokens
 * for the hub's API as JWTs with its audience and a roles claim.
 */

/**
 * oidc-provider 9 is an ES module only, and this project compiles to CommonJS, where tsc turns `import()` into
 * `require()`. A function made at run time is not compiled, so this `import()` stays the real one.
 */
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** A person at the provider: the login its page takes (dev interactions: any password), the roles and groups its tokens carry. */
export interface TestAccount {
  roles: string[];
  groups?: string[];
  email?: string;
}

/** A machine with a secret of its own (client credentials grant): a scheme's script calling the APIs. */
export interface TestMachine {
  secret: string;
  roles: string[];
  groups?: string[];
}

export interface IdentityProviderSettings {
  /** The hub's API, as its access tokens' `aud` and the resource indicator that asks for them (RFC 8707). */
  audience: string;
  /** Another resource server at the same provider, whose tokens the hub must refuse. */
  otherAudience: string;
  /** The console's client ID: a public client, authorization code with PKCE. */
  consoleClientId: string;
  /** The scope an access token for the hub's API is granted. */
  apiScope: string;
  accounts: Record<string, TestAccount>;
  machines?: Record<string, TestMachine>;
}

/** The hub as the tests register it at their provider: its API's audience, another server's, the console's client. */
export const HUB_AT_PROVIDER = {
  audience: 'https://hub.example/api',
  otherAudience: 'https://reports.example/api',
  consoleClientId: 'hub-console',
  apiScope: 'hub',
} as const;

/** The provider's signing key, which tests may sign with themselves (an expired token, another issuer's). */
const KID = 'test-provider-key';

export class TestIdentityProvider {
  private handler?: http.RequestListener;
  private consoleUris: string[] = [];
  /** The path of every request the provider was sent, in order: what the hub fetched from it, and how often. */
  readonly requests: string[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly issuer: string,
    readonly settings: IdentityProviderSettings,
    private readonly privateKey: CryptoKey,
  ) {}

  /**
   * The provider, listening; it answers once `allowConsole` has named the console's address (the hub, which must know
   * the issuer first, starts in between), 503 before.
   */
  static async listen(settings: IdentityProviderSettings): Promise<TestIdentityProvider> {
    let provider: TestIdentityProvider | undefined = undefined;
    const server = http.createServer((request, response) => {
      provider?.requests.push(new URL(request.url ?? '/', 'http://provider').pathname);
      if (provider?.handler) return provider.handler(request, response);
      response.writeHead(503).end('not started yet');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    provider = new TestIdentityProvider(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, settings, privateKey);
    return provider;
  }

  /**
   * Registers the console served at `hubUrl` (its redirect URI and post-logout redirect URI, `${hubUrl}/console/`; CORS
   * at the token endpoint follows from them for a public client) and starts answering.
   */
  async allowConsole(hubUrl: string): Promise<void> {
    this.consoleUris.push(`${hubUrl}/console/`);
    const { default: Provider } = await importModule('oidc-provider');
    const { settings } = this;
    const jwk = { ...(await exportJWK(this.privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
    const resourceServers: Record<string, { scope: string }> = {
      [settings.audience]: { scope: settings.apiScope },
      [settings.otherAudience]: { scope: settings.apiScope },
    };
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: settings.consoleClientId,
          client_name: 'Hub console',
          application_type: 'web',
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          redirect_uris: this.consoleUris,
          post_logout_redirect_uris: this.consoleUris,
        },
        ...Object.entries(settings.machines ?? {}).map(([clientId, machine]) => ({
          client_id: clientId,
          client_secret: machine.secret,
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        })),
      ],
      // CORS at the token endpoint for the console's origin: its page exchanges the code itself.
      clientBasedCORS: (_ctx: unknown, origin: string, client: { clientId: string }) =>
        client.clientId === settings.consoleClientId && this.consoleUris.some((uri) => new URL(uri).origin === origin),
      jwks: { keys: [jwk] },
      cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
      pkce: { required: () => true },
      ttl: { ClientCredentials: 600, AccessToken: 600, Session: 3600, Grant: 3600, Interaction: 600, IdToken: 600, AuthorizationCode: 60 },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        rpInitiatedLogout: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // Only the resource servers it knows, each an audience of its own; their access tokens are JWTs.
          getResourceServerInfo: (_ctx: unknown, indicator: string) => {
            const server = resourceServers[indicator];
            if (!server) throw new Provider.errors.InvalidTarget();
            return { scope: server.scope, audience: indicator, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'RS256' } } };
          },
        },
      },
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
      findAccount: (_ctx: unknown, id: string) => {
        const account = settings.accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: () => ({ sub: id, preferred_username: id, name: id, email: account.email }) };
      },
      // The claims the hub reads, in the access token itself: who (preferred_username) and what (roles, groups).
      extraTokenClaims: (_ctx: unknown, token: { accountId?: string; clientId?: string; kind: string }) => {
        if (token.accountId) {
          const account = settings.accounts[token.accountId];
          return account && { preferred_username: token.accountId, roles: account.roles, groups: account.groups ?? [] };
        }
        const machine = token.clientId ? settings.machines?.[token.clientId] : undefined;
        return machine && { roles: machine.roles, groups: machine.groups ?? [] };
      },
      // The console is the scheme's own application: its users are not asked to consent to it.
      loadExistingGrant: async (ctx: any) => {
        const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        if (ctx.oidc.client.clientId !== settings.consoleClientId) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid profile email');
        grant.addResourceScope(settings.audience, settings.apiScope);
        await grant.save();
        return grant;
      },
    });
    provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider:', error));
    this.handler = provider.callback();
  }

  /** An access token for `clientId`, a machine, through the client credentials grant: a real one, from the provider. */
  async clientCredentials(clientId: string, resource = this.settings.audience): Promise<string> {
    const machine = this.settings.machines![clientId];
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(machine.secret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: this.settings.apiScope }),
    });
    const body = (await response.json()) as { access_token?: string; error_description?: string };
    if (!body.access_token) throw new Error(`the provider issued no token to ${clientId}: ${response.status} ${body.error_description}`);
    return body.access_token;
  }

  /**
   * A token signed here, as the tests need tokens the provider would not issue: with the provider's own key by
   * default (`key` another), its issuer and the hub's audience unless `claims` say otherwise.
   */
  async sign(claims: JWTPayload, options: { key?: CryptoKey | Uint8Array; alg?: string; kid?: string; typ?: string } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, aud: this.settings.audience, iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'RS256', typ: options.typ ?? 'at+jwt', kid: options.kid ?? KID })
      .sign(options.key ?? this.privateKey);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
