import crypto from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { Context, Middleware } from 'koa';
import type { AdminAccessConfig, AdminScope } from '../../activities/platform/config';
import { HttpError } from '../http/httpError';

/** Who the request's credential names, for what follows authentication: a token's name and scope, or an operator's certificate. */
export interface AdminCaller {
  name?: string;
  scope: AdminScope;
}

/** The caller authentication recorded; none where the admin API is open, or the path is one it lets through. */
export const adminCaller = (ctx: Context): AdminCaller | undefined => ctx.state.adminCaller;

const digest = (token: string) => crypto.createHash('sha256').update(token).digest();

/** How the client certificate of the request's connection stands: none shown, signed by the admin CA, or not. */
function certificateOf(ctx: Context): 'none' | 'accepted' | 'refused' {
  const socket = ctx.req.socket;
  if (!(socket instanceof TLSSocket) || !socket.getPeerCertificate().subject) return 'none';
  return socket.authorized ? 'accepted' : 'refused';
}

/**
 * The admin API's authentication, when it has credentials to check (AdminAccessConfig): a client certificate the
 * admin CA signed, or `Authorization: Bearer <token>` with a configured token. As Document 3 has it, a request with
 * neither is 401 Unauthorized (authentication required), one whose credential is wrong 403 Forbidden (denied now
 * and later: sending it again will not help). `/health` stays open: orchestrators' probes carry no credentials, and
 * it tells nothing but whether the hub is up; and so does what `alsoOpen` names (the console's page and scripts, which
 * hold no data). It records who the credential names (adminCaller) for adminScopes to judge what they may do.
 */
export function adminAuthentication(access: AdminAccessConfig, alsoOpen: (urlPath: string) => boolean = () => false): Middleware | undefined {
  if (access.tokens.length === 0 && !access.clientCaPath) return undefined;
  // Compared as digests of one length, in constant time, so the time of a refusal says nothing of a token.
  const accepted = access.tokens.map(({ name, scope, secret }) => ({ caller: { name, scope }, digest: digest(secret) }));
  const challenge = access.tokens.length > 0 ? 'Bearer realm="hub-admin"' : undefined;
  const credentials = [challenge && 'a bearer token', access.clientCaPath && 'a client certificate'].filter(Boolean).join(' or ');
  return async (ctx, next) => {
    if (ctx.path === '/health' || alsoOpen(ctx.path)) return next();
    const certificate = certificateOf(ctx);
    if (certificate === 'accepted') {
      ctx.state.adminCaller = { scope: 'admin' } satisfies AdminCaller;
      return next();
    }
    const bearer = /^Bearer +([^\s]+) *$/i.exec(ctx.get('Authorization'));
    if (bearer) {
      const given = digest(bearer[1]);
      const token = accepted.find((token) => crypto.timingSafeEqual(token.digest, given));
      if (!token) throw new HttpError(403, 'clientError', 'Forbidden: the bearer token is not one this hub accepts');
      ctx.state.adminCaller = token.caller;
      return next();
    }
    if (certificate === 'refused') throw new HttpError(403, 'clientError', 'Forbidden: the client certificate is not one the admin CA signed');
    // RFC 7235: a 401 names the scheme that would do; a client certificate has none, it goes in the TLS handshake.
    if (challenge) ctx.set('WWW-Authenticate', challenge);
    throw new HttpError(401, 'clientError', `Unauthorized: authentication required (${credentials})`);
  };
}
