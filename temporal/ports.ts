import { createServer } from 'node:net';

/**
 * Asks the OS for a TCP port that is free right now on `host`. The port is released before this resolves,
 * so another process could take it in between: callers that spawn a server on it should be ready to retry.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
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
