/**
 * The console's sign-in, as the gateway answers it and the console's page reads it (api/console/signInRoutes.ts,
 * api/console/web/signIn.ts).
 */

/**
 * What the page needs to sign a person in at the identity provider, as a public client (no secret): the provider's
 * endpoints, the console's client ID, what to ask for. None of it is secret: the provider publishes it all.
 */
export interface IdentityProviderSettings {
  name: string;
  issuer: string;
  clientId: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  endSessionEndpoint?: string;
  /** Space-separated, as the authorization request carries it. */
  scope: string;
  /** RFC 8707's resource indicator the console asks its tokens for (OIDC_RESOURCE). */
  resource?: string;
}

/** GET /console/signIn/settings: empty when the hub has no identity provider, or no client for the console there. */
export interface SignInSettings {
  identityProvider?: IdentityProviderSettings;
}
