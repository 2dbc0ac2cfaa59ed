import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** Everything a stream (a request, a response) carries, once it has ended. */
export function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** JSON text parsed; undefined for an empty text or one that is not JSON. */
export function jsonOrUndefined(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch answer's body: parsed if it is JSON, else its text (for example /metrics), undefined if empty. */
export async function answerBody(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === '' ? undefined : (jsonOrUndefined(text) ?? text);
}

/**
 * A server on a free loopback port, standing in for a participant's system in tests; `handle` gets each request
 * with its body read. With `tls` it serves HTTPS (and, with `requestCert`, mutual TLS).
 */
export async function serveLocally(
  handle: (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => void,
  tls?: https.ServerOptions,
): Promise<{ server: http.Server | https.Server; port: number }> {
  const listener: http.RequestListener = (request, response) => {
    readAll(request).then(
      (body) => handle(request, body, response),
      () => response.writeHead(400).end(),
    );
  };
  const server = tls ? https.createServer(tls, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** What a participant's side of a TLS connection holds: the CA it trusts and, for mutual TLS, its certificate. */
export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
}

/**
 * One HTTPS request as a participant sends it, with its client certificate (fetch cannot present one). Rejects when
 * the connection fails, a TLS handshake the server refuses included.
 */
export function httpsRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string | Buffer; tls: ClientTls },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return httpRequest(url, options);
}

/** One HTTP or HTTPS request with exactly the headers given, a Host of the test's own among them (fetch sets its own). */
export function httpRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string | Buffer; tls?: ClientTls },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    // No pooling: each request makes its own handshake, so a test sees what a new connection is allowed.
    const request = (url.startsWith('https:') ? https : http).request(
      url,
      { method: options.method, headers: options.headers, ...options.tls, agent: false },
      (response) => {
        readAll(response).then((body) => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: body.toString('utf-8') }), reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
