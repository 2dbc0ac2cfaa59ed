import crypto from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { Context, Middleware } from 'koa';
import { adminApiAuthenticated, type AdminAccessConfig } from '../../../activities/shared/platform/config';
import type { AdminCaller } from '../../../activities/shared/contracts/operatorRoles';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { IdentityProvider, looksLikeJwt } from './accessTokens';

/** The caller authentication found (permissions.ts judges what it may do); none on a path open to all. */
export const adminCaller = (ctx: Context): AdminCaller | undefined => ctx.state.adminCaller;

/** Where no credential is configured (loopback only, config.ts): whoever calls is an unnamed admin. */
const OPEN: AdminCaller = { roles: ['admin'], credential: 'open' };

const digest = (token: string) => crypto.createHash('sha256').update(token).digest();

/** The client certificate of the request's connection: none shown, one the admin CA signed (with its subject's name), or another. */
function certificateOf(ctx: Context): { state: 'none' | 'refused' } | { state: 'accepted'; name?: string } {
  const socket = ctx.req.socket;
  if (!(socket instanceof TLSSocket)) return { state: 'none' };
  const certificate = socket.getPeerCertificate();
  if (!certificate.subject) return { state: 'none' };
  if (!socket.authorized) return { state: 'refused' };
  const name = certificate.subject.CN;
  return { state: 'accepted', name: typeof name === 'string' && name !== '' ? name : undefined };
}

/**
 * RFC 6750's challenge on a refused bearer token, which the console reads to tell "sign in again" from "your role does
 * not allow this" (permissions.ts sends `insufficient_scope`): both are 403, as Document 3 has a wrong credential.
 */
export const INVALID_TOKEN = 'Bearer realm="hub-admin", error="invalid_token"';

/**
 * The admin API's authentication (AdminAccessConfig): a client certificate the admin CA signed (an admin, named by
 * its subject's common name), or `Authorization: Bearer <token>` with a configured token (named, with its role) or an
 * access token of the identity provider (OIDC_*: named and with the roles its claims give, accessTokens.ts). As
 * Document 3 has it, a request with neither is 401 Unauthorized (authentication required), one whose credential is
 * wrong 403 Forbidden (denied now and later: sending it again will not help). `isOpen` names what needs no credential
 * (the routes that declare `open`: /health, the console's page and scripts), which it lets through without a caller.
 */
export function adminAuthentication(
  access: AdminAccessConfig,
  isOpen: (method: string, urlPath: string) => boolean,
  identityProvider = access.oidc && new IdentityProvider(access.oidc),
): Middleware {
  // Compared as digests of one length, in constant time, so the time of a refusal says nothing of a token.
  const accepted = access.tokens.map(({ name, role, secret }) => ({
    caller: { name, roles: [role], credential: 'token' } satisfies AdminCaller,
    digest: digest(secret),
  }));
  const challenge = access.tokens.length > 0 || identityProvider ? 'Bearer realm="hub-admin"' : undefined;
  const credentials = [
    access.tokens.length > 0 && 'a bearer token',
    identityProvider && `an access token of ${identityProvider.config.issuer}`,
    access.clientCaPath && 'a client certificate',
  ]
    .filter(Boolean)
    .join(' or ');
  const open = !adminApiAuthenticated(access);
  return async (ctx, next) => {
    if (isOpen(ctx.method, ctx.path)) return next();
    if (open) {
      ctx.state.adminCaller = OPEN;
      return next();
    }
    const certificate = certificateOf(ctx);
    if (certificate.state === 'accepted') {
      ctx.state.adminCaller = { name: certificate.name, roles: ['admin'], credential: 'certificate' } satisfies AdminCaller;
      return next();
    }
    const bearer = /^Bearer +([^\s]+) *$/i.exec(ctx.get('Authorization'));
    if (bearer) {
      const given = digest(bearer[1]);
      const token = accepted.find((token) => crypto.timingSafeEqual(token.digest, given));
      if (token) {
        ctx.state.adminCaller = token.caller;
        return next();
      }
      try {
        if (!identityProvider || !looksLikeJwt(bearer[1])) throw new HttpError(403, 'clientError', 'Forbidden: the bearer token is not one this hub accepts');
        ctx.state.adminCaller = await identityProvider.verify(bearer[1]);
      } catch (error) {
        if (error instanceof HttpError && error.status === 403) ctx.set('WWW-Authenticate', INVALID_TOKEN);
        throw error;
      }
      return next();
    }
    if (certificate.state === 'refused') throw new HttpError(403, 'clientError', 'Forbidden: the client certificate is not one the admin CA signed');
    // RFC 7235: a 401 names the scheme that would do; a client certificate has none, it goes in the TLS handshake.
    if (challenge) ctx.set('WWW-Authenticate', challenge);
    throw new HttpError(401, 'clientError', `Unauthorized: authentication required (${credentials})`);
  };
}
