import http from 'node:http';
import https from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import canonicalize from 'canonicalize';
import { mediaTypeNameOf, Resource } from '../contracts/conversations';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Callbacks and notifications: Document 2 says they carry no Accept header, and Mojaloop's SDK refuses one that does.
 * The third-party API's PATCHes are requests awaiting answers (PATCH /consentRequests/{ID} its POST /consents), which
 * its OpenAPI document requires to carry Accept: Mojaloop's thirdparty-sdk refuses one without (3102).
 */
export const isCallback = (method: HttpMethod, thirdparty: boolean) => method === 'PUT' || (method === 'PATCH' && !thirdparty);

/**
 * Headers of a message its sender originates (the hub's errors and notifications, a connector's requests and
 * callbacks): FSPIOP-URI and FSPIOP-HTTP-Method name the request as sent, as Mojaloop's services set them (a signature
 * covers them). FSPIOP-URI is the API path (`/transfers/{ID}/error`), without the base path of the receiver's
 * endpoint, as ml-api-adapter derives it. A request carries Accept, which Document 2 requires of requests and forbids
 * in callbacks.
 */
export function originatedHeaders(options: {
  resource: Resource;
  version: string;
  source: string;
  /** Absent on a request the switch routes by its body (GET /parties, POST /quotes to an unnamed payee). */
  destination?: string;
  target: URL;
  method: HttpMethod;
  /** The name its media type gives the resource, where it is not the FSPIOP one (ISO 20022's `iso20022.transfers`). */
  mediaTypeName?: string;
}): Record<string, string> {
  const { pathname, search } = options.target;
  const start = pathname.indexOf(`/${options.resource}`);
  const mediaType = `application/vnd.interoperability.${options.mediaTypeName ?? mediaTypeNameOf(options.resource)}+json;version=${options.version}`;
  return {
    ...(isCallback(options.method, mediaTypeNameOf(options.resource) === 'thirdparty') ? {} : { accept: mediaType }),
    'content-type': mediaType,
    date: new Date().toUTCString(),
    'fspiop-source': options.source,
    ...(options.destination ? { 'fspiop-destination': options.destination } : {}),
    'fspiop-uri': `${start < 0 ? pathname : pathname.slice(start)}${search}`,
    'fspiop-http-method': options.method,
  };
}

/**
 * The text of a body its sender writes itself (the hub's errors and notifications, a connector's messages): its
 * members in sorted order (RFC 8785). Mojaloop's sdk-standard-components 19 signs bodies so and verifies a signature
 * over the body it re-serialises so, whatever order it came in; its 17.x re-serialises in the order received. Sorted
 * text is the same bytes to both, so the signature over it verifies at either.
 */
export function bodyText(body: unknown): string {
  return canonicalize(body)!;
}

/** The connection pools of one sender, by protocol. */
export interface Agents {
  'http:': http.Agent;
  'https:': https.Agent;
}

/**
 * Connections are kept alive between messages: a conversation sends several to the same peer in quick succession.
 * Idle sockets are dropped before a typical server's 5 s keep-alive ends. `credentials` are the sender's client
 * certificate and the CA it trusts, for peers that serve mutual TLS.
 */
export function createAgents(credentials?: SecureContextOptions): Agents {
  return {
    'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
    'https:': new https.Agent({ keepAlive: true, timeout: 4_000, ...credentials }),
  };
}

const defaultAgents = createAgents();

const MAX_ANSWER_BYTES = 65_536;

/** Document 2, Errors rule 2: a 3xx is not retried and needs manual investigation; no sender here follows one. */
export const isRedirect = (status: number) => status >= 300 && status < 400;

/**
 * One HTTP exchange with exactly the headers given (Node's fetch would add Accept, Accept-Language,
 * User-Agent and Sec-Fetch-Mode of its own); resolves with the status once the answer has been read, and the text of
 * a refusal (4xx, 5xx: its ErrorInformation). An acknowledgement's body is drained unread: it says nothing more.
 */
export function httpExchange(
  url: URL,
  method: HttpMethod,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  agents: Agents = defaultAgents,
): Promise<{ status: number; text: string }> {
  const agent = agents[url.protocol as keyof Agents];
  if (!agent) return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  const client = url.protocol === 'https:' ? https : http;
  const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, headers: sent, agent, timeout: timeoutMs }, (response) => {
      const status = response.statusCode ?? 0;
      response.on('error', reject);
      if (status < 400) {
        response.on('end', () => resolve({ status, text: '' }));
        response.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        // A refusal is an ErrorInformation: what a peer sends beyond that is read and dropped.
        if (kept >= MAX_ANSWER_BYTES) return;
        chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('end', () => resolve({ status, text: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8') }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
