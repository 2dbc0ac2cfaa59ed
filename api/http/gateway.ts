import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { errorInformation } from '../../activities/shared/contracts/errors';
import { errorMiddleware } from './errorMiddleware';
import { HttpError } from '../../activities/shared/platform/httpError';
import { httpTiming, httpTracing } from './observability';

export interface GatewayOptions {
  /** Sees each request and its final answer, refusals included (the switch's message log). */
  observe?: Koa.Middleware;
  /** Run in order before the routers (the admin API's authentication, and its refusal of PATCH and DELETE everywhere). */
  guards?: Koa.Middleware[];
  /** Whether a path no router serves belongs to a service of the API that this hub does not offer (501, not 404). */
  notOffered?: (path: string) => boolean;
  /** The Content-Type of an error response, where the API versions its media types. */
  errorMediaType?: (ctx: Koa.Context) => string | undefined;
}

/**
 * A Koa app with what both gateways share: request timing, errors as ErrorInformation, the routers, 405
 * for a method a path does not offer, 501 (2002) for a service the hub does not offer and 404 (3002) for a
 * path no router knows.
 */
export function createGateway(name: string, log: Logger, routers: Router[], options: GatewayOptions = {}): Koa {
  const { guards = [], notOffered, errorMediaType, observe } = options;
  const app = new Koa();
  app.use(httpTiming(name));
  app.use(httpTracing(name));
  if (observe) app.use(observe);
  if (errorMediaType) {
    app.use(async (ctx, next) => {
      await next();
      const mediaType = ctx.status >= 400 ? errorMediaType(ctx) : undefined;
      if (mediaType) ctx.type = mediaType;
    });
  }
  app.use(errorMiddleware(log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      if (notOffered?.(ctx.path)) throw new HttpError(501, 'notImplemented', `${ctx.method} ${ctx.path} is a service this hub does not offer`);
      throw new HttpError(404, 'unknownUri', `${ctx.method} ${ctx.path} is not a known resource`);
    }
  });
  for (const guard of guards) app.use(guard);
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new HttpError(405, 'clientError', `Method not allowed for this resource`) }));
  }
  return app;
}

/** FSPIOP allows headers up to 64 KiB (Document 2, "Limits"; Node's default limit is 16 KiB). */
export const MAX_HEADER_BYTES = 65_536;

/**
 * A gateway's server: HTTPS with `tls`, plain HTTP otherwise. Koa settles each request's promise itself, errors
 * included. A request Node's parser refuses before Koa sees it (headers over 64 KiB, bytes no header may hold) is
 * answered as bad input always is, with ErrorInformation, where Node would answer a bare status.
 */
export function gatewayServer(app: Koa, tls?: https.ServerOptions): http.Server | https.Server {
  const handle = app.callback();
  const listener: http.RequestListener = (request, response) => void handle(request, response);
  const options = { maxHeaderSize: MAX_HEADER_BYTES };
  const server = tls ? https.createServer({ ...options, ...tls }, listener) : http.createServer(options, listener);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => refuseUnparsed(error, socket));
  return server;
}

function refuseUnparsed(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, information] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', errorInformation('tooLargePayload', `headers exceed ${MAX_HEADER_BYTES} bytes`)]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', errorInformation('clientError', 'the request did not arrive in time')]
        : [400, 'Bad Request', errorInformation('malformedSyntax', 'the request is not valid HTTP')];
  const body = JSON.stringify({ errorInformation: information });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
