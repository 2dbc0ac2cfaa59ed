import crypto from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { Context, Middleware } from 'koa';
import type { AdminAccessConfig } from '../../activities/platform/config';
import { HttpError } from '../http/httpError';

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
 * hold no data).
 */
export function adminAuthentication(access: AdminAccessConfig, alsoOpen: (urlPath: string) => boolean = () => false): Middleware | undefined {
  if (access.tokens.length === 0 && !access.clientCaPath) return undefined;
  // Compared as digests of one length, in constant time, so the time of a refusal says nothing of a token.
  const accepted = access.tokens.map(digest);
  const challenge = access.tokens.length > 0 ? 'Bearer realm="hub-admin"' : undefined;
  const credentials = [challenge && 'a bearer token', access.clientCaPath && 'a client certificate'].filter(Boolean).join(' or ');
  return async (ctx, next) => {
    if (ctx.path === '/health' || alsoOpen(ctx.path)) return next();
    const certificate = certificateOf(ctx);
    if (certificate === 'accepted') return next();
    const bearer = /^Bearer +([^\s]+) *$/i.exec(ctx.get('Authorization'));
    if (bearer) {
      const given = digest(bearer[1]);
      if (!accepted.some((token) => crypto.timingSafeEqual(token, given)))
        throw new HttpError(403, 'clientError', 'Forbidden: the bearer token is not one this hub accepts');
      return next();
    }
    if (certificate === 'refused') throw new HttpError(403, 'clientError', 'Forbidden: the client certificate is not one the admin CA signed');
    // RFC 7235: a 401 names the scheme that would do; a client certificate has none, it goes in the TLS handshake.
    if (challenge) ctx.set('WWW-Authenticate', challenge);
    throw new HttpError(401, 'clientError', `Unauthorized: authentication required (${credentials})`);
  };
}
