import http from 'node:http';
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
 * with its body read.
 */
export async function serveLocally(
  handle: (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => void,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((request, response) => {
    readAll(request).then(
      (body) => handle(request, body, response),
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
