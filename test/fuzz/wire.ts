import net from 'node:net';

/** A request as bytes on the wire: header values need not be valid HTTP, which a client library would refuse to send. */
export interface WireRequest {
  method: string;
  /** The request target, sent as it is (no encoding, no normalisation). */
  target: string;
  headers: Array<[string, string | Buffer]>;
  body: Buffer;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends one request on a connection of its own (Connection: close) and reads the answer until the server closes it.
 * A server may answer before it has read the whole body (a payload over its limit) and close: the write then fails,
 * and what it answered is still the answer. No answer at all is an error.
 */
export function sendOnWire(url: string, request: WireRequest, timeoutMs = 60_000): Promise<WireAnswer> {
  const { hostname, port } = new URL(url);
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    `Content-Length: ${request.body.length}`,
  ].join('\r\n');
  const headerLines = request.headers.map(([name, value]) =>
    Buffer.concat([Buffer.from(`\r\n${name}: `, 'latin1'), typeof value === 'string' ? Buffer.from(value, 'latin1') : value]),
  );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    let failure: Error | undefined;
    socket.on('error', (error) => (failure = error));
    socket.on('close', () => {
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) resolve(answer);
      else reject(failure ?? new Error('the connection closed without an answer'));
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), ...headerLines, Buffer.from('\r\n\r\n', 'latin1'), request.body]));
  });
}

/** An HTTP/1.1 answer: status line, headers, and a body by Content-Length, chunked, or up to the close. */
function parseAnswer(bytes: Buffer): WireAnswer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') return { status: Number(status[1]), headers, body: dechunk(rest) };
  const length = headers['content-length'];
  return { status: Number(status[1]), headers, body: length === undefined ? rest : rest.subarray(0, Number(length)) };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
