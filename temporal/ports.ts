import { createServer } from 'node:net';

/**
 * Asks the OS for a TCP port that is free right now on `host`. The port is released before this resolves,
 * so another process could take it in between: callers that spawn a server on it should be ready to retry.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return listenOnce(host, 0);
}

/**
 * A free port between `from` and `to`, tried at random: for a server that stores its ports in a column too small for
 * the OS's ephemeral range (Temporal's cluster membership keeps them as a signed 16-bit number).
 */
export async function freePortBetween(host: string, from: number, to: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    const free = await listenOnce(host, port).then(
      () => true,
      () => false,
    );
    if (free) return port;
  }
  throw new Error(`no free port between ${from} and ${to} on ${host}`);
}

function listenOnce(host: string, wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: wanted, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close((err) => {
        if (err) reject(err);
        else if (!port) reject(new Error(`could not determine a free port on ${host}`));
        else resolve(port);
      });
    });
  });
}
