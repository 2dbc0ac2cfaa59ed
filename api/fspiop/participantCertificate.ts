import { TLSSocket } from 'node:tls';
import type { Middleware } from 'koa';
import { HttpError } from '../../activities/shared/platform/httpError';

/**
 * With mutual TLS (SWITCH_CLIENT_CA_PATH), the client certificate says who is speaking: its subject CN is the
 * participant's name, its FSPIOP-Source. A message whose FSPIOP-Source names another participant is refused before
 * anything else is read, so no participant can speak in another's name, signed messages or not.
 *
 * The status is 403, which Document 2 reserves for a forbidden request: the sender is authenticated, but not as whom
 * it claims to be. Mojaloop's catalogue has no code for this (3105 is a JWS signature's), and its central-ledger
 * reports an FSPIOP-Source that does not match the payer as 3100 Generic validation error, as this gateway does a
 * sender claiming to be the hub; so 3100 it is.
 *
 * A connection without a client certificate (plain HTTP, or HTTPS without mutual TLS) binds nobody; with mutual TLS
 * the handshake has already refused it. A message without FSPIOP-Source is left to the header check, which names
 * what is missing.
 */
export const participantCertificate: Middleware = async (ctx, next) => {
  const socket = ctx.req.socket;
  const source = ctx.get('FSPIOP-Source');
  if (socket instanceof TLSSocket && source) {
    // Null once the socket has closed under the request: nobody can be bound, so nothing is taken.
    const certificate = socket.getPeerCertificate() ?? { subject: {} };
    if (certificate.subject) {
      const participant = socket.authorized ? certificate.subject.CN : undefined;
      if (typeof participant !== 'string') {
        throw new HttpError(403, 'validationError', 'the client certificate names no participant (one subject CN, signed by the CA)');
      }
      if (participant !== source) {
        throw new HttpError(403, 'validationError', `FSPIOP-Source ${source} is not ${participant}, whose client certificate this connection uses`);
      }
    }
  }
  await next();
};
