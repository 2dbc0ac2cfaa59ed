import { call, expectOk, SignInNeeded, token } from './api.js';
import { h, type Child } from './dom.js';
import type { IdentityProviderSettings } from '../../../activities/shared/contracts/signIn.js';

/*
 * Signing in: with a token of the admin API typed in, or at the scheme's identity provider with OpenID Connect's
 * authorization code flow and PKCE (RFC 7636, S256), the console a public client (it holds no secret; the code
 * verifier, made here for each sign-in, is what binds the code to this tab). The state and verifier wait in this tab's
 * sessionStorage while the browser is at the provider; the access token the code is exchanged for is the bearer token
 * of every call after, as a typed token is.
 */

/** Who the hub takes the caller for (POST /console/signIn). */
export interface Caller {
  name?: string;
  roles: string[];
  credential: string;
}

const PENDING = 'hub-console-sign-in';
const ID_TOKEN = 'hub-console-id-token';
const CALLER = 'hub-console-caller';

/** A sign-in under way at the provider: what the answer must match, and the page to go back to. */
interface Pending {
  state: string;
  verifier: string;
  issuer: string;
  hash: string;
}

/** Where the provider sends the browser back, and where it goes after signing out there: the console itself. */
const redirectUri = () => `${location.origin}/console/`;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const randomText = (length: number) => base64url(crypto.getRandomValues(new Uint8Array(length)));

let settings: Promise<IdentityProviderSettings | undefined> | undefined;

/** The hub's identity provider, if it has one for the console (asked once per page); a provider the hub cannot reach throws. */
export function identityProvider(): Promise<IdentityProviderSettings | undefined> {
  settings ??= fetch('/console/signIn/settings', { headers: { accept: 'application/json' } }).then(async (response) => {
    const body = (await response.json().catch(() => undefined)) as
      { identityProvider?: IdentityProviderSettings; errorInformation?: { errorDescription: string } } | undefined;
    if (!response.ok) {
      settings = undefined;
      throw new Error(body?.errorInformation?.errorDescription ?? `answered ${response.status}`);
    }
    return body?.identityProvider;
  });
  return settings;
}

/** Sends the browser to the provider to sign in, with a fresh state and PKCE code verifier kept for its return. */
async function goToProvider(provider: IdentityProviderSettings): Promise<void> {
  const pending: Pending = { state: randomText(16), verifier: randomText(32), issuer: provider.issuer, hash: location.hash };
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier))));
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(provider.authorizationEndpoint);
  const parameters: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: redirectUri(),
    scope: provider.scope,
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: provider.resource,
  };
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  location.assign(url.href);
}

/**
 * When the provider has sent the browser back (`/console/?code=…&state=…`, or `?error=…`): checks that the answer is
 * for the sign-in this tab started, from the provider it went to (RFC 9207's `iss`, when given), exchanges the code for
 * an access token at the token endpoint, and takes the address back to the page the operator was on. Nothing to do
 * on any other load. A failure throws SignInNeeded saying what went wrong.
 */
export async function comeBack(): Promise<void> {
  const answer = new URLSearchParams(location.search);
  if (!answer.has('state') && !answer.has('code') && !answer.has('error')) return;
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as Pending | null;
  sessionStorage.removeItem(PENDING);
  // The code leaves the address bar (and the history) at once: it is used once, here.
  history.replaceState(null, '', `${location.pathname}${pending?.hash ?? ''}`);
  if (!pending || answer.get('state') !== pending.state) throw new SignInNeeded('the answer from the identity provider is not for a sign-in this tab started');
  if (answer.has('error')) throw new SignInNeeded(`the identity provider answered ${answer.get('error_description') || answer.get('error')}`);
  const provider = await identityProvider();
  if (!provider || provider.issuer !== pending.issuer || (answer.has('iss') && answer.get('iss') !== provider.issuer)) {
    throw new SignInNeeded('the answer came from another identity provider than the one this sign-in went to');
  }
  const code = answer.get('code');
  if (!code) throw new SignInNeeded('the identity provider gave no authorization code');
  const exchange: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri(),
    client_id: provider.clientId,
    code_verifier: pending.verifier,
    ...(provider.resource ? { resource: provider.resource } : {}),
  };
  const response = await fetch(provider.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(exchange),
    credentials: 'omit',
  }).catch((error: Error) => {
    throw new SignInNeeded(`the identity provider's token endpoint cannot be reached (${error.message})`);
  });
  const tokens = (await response.json().catch(() => ({}))) as { access_token?: unknown; id_token?: unknown; error?: string; error_description?: string };
  if (!response.ok || typeof tokens.access_token !== 'string') {
    throw new SignInNeeded(`the identity provider gave no access token (${tokens.error_description || tokens.error || response.status})`);
  }
  token.set(tokens.access_token, 'oidc');
  if (typeof tokens.id_token === 'string') sessionStorage.setItem(ID_TOKEN, tokens.id_token);
  else sessionStorage.removeItem(ID_TOKEN);
  sessionStorage.removeItem(CALLER);
}

/**
 * Who the hub takes this tab's credential for. Asked once per credential with POST /console/signIn, which the audit
 * trail records as the sign-in; remembered for the tab after that.
 */
export async function identify(): Promise<Caller> {
  const known = sessionStorage.getItem(CALLER);
  if (known) return JSON.parse(known) as Caller;
  const caller = expectOk(await call<Caller>('POST', '/console/signIn', {}));
  sessionStorage.setItem(CALLER, JSON.stringify(caller));
  return caller;
}

/** The caller as the header shows them: their name and roles. */
export function callerLabel(caller: Caller): Child[] {
  const name = caller.name ?? (caller.credential === 'open' ? 'open hub' : 'unnamed');
  return [h('b', { class: 'name' }, name), ' ', h('span', { class: 'roles' }, caller.roles.join(', '))];
}

/**
 * Forgets the credential. One had from the identity provider is ended there too when it has an end_session_endpoint
 * (RP-Initiated Logout), which sends the browser back to the console: the next person at this browser must sign in
 * at the provider again. Whether the browser went there.
 */
export async function signOut(): Promise<boolean> {
  const fromProvider = token.get() !== undefined && token.kind() === 'oidc';
  const idToken = sessionStorage.getItem(ID_TOKEN);
  token.clear();
  sessionStorage.removeItem(ID_TOKEN);
  sessionStorage.removeItem(CALLER);
  const provider = fromProvider ? await identityProvider().catch(() => undefined) : undefined;
  if (!provider?.endSessionEndpoint) return false;
  const url = new URL(provider.endSessionEndpoint);
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('post_logout_redirect_uri', redirectUri());
  if (idToken) url.searchParams.set('id_token_hint', idToken);
  location.assign(url.href);
  return true;
}

/**
 * The sign-in screen: "Sign in with <provider>" when the hub has one, and the admin API token form. `refused` is why
 * the last credential was not taken (the hub's or the provider's words), `onToken` takes a typed token.
 */
export function signInScreen(refused: { reason: string; kind: 'token' | 'oidc' } | undefined, onToken: (value: string) => void): HTMLElement {
  const input = h('input', { name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-label': 'Admin API token' }) as HTMLInputElement;
  const withProvider = h('div', { class: 'identity-provider' });
  const asked = h('p', {}, 'This hub asks for a token of its admin API (ADMIN_API_TOKENS).');
  const screen = h(
    'form',
    {
      class: 'sign-in',
      onsubmit: (event: Event) => {
        event.preventDefault();
        onToken(input.value.trim());
      },
    },
    h('h1', {}, 'Sign in'),
    refused?.kind === 'oidc' ? h('p', { class: 'outcome', role: 'alert' }, `The sign-in was refused: ${refused.reason}.`) : '',
    withProvider,
    asked,
    input,
    h('button', { type: 'submit' }, 'Sign in'),
    refused?.kind === 'token' ? h('p', { class: 'outcome' }, 'That token was refused.') : '',
  );
  identityProvider().then(
    (provider) => {
      if (!provider) return;
      withProvider.append(h('button', { type: 'button', class: 'provider', onclick: () => goToProvider(provider) }, `Sign in with ${provider.name}`));
      asked.textContent = 'Or with a token of its admin API (ADMIN_API_TOKENS):';
    },
    (error: Error) =>
      withProvider.append(h('p', { class: 'outcome', role: 'alert' }, `Signing in at the identity provider is not possible now: ${error.message}`)),
  );
  return screen;
}
