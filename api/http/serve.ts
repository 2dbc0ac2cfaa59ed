import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { TlsConfig } from '../../activities/shared/platform/config';
import { readCertificate, readPem } from '../../activities/shared/platform/tlsFiles';
import { gatewayServer } from './gateway';

export interface Served {
  server: http.Server | https.Server;
  /** The base URL it answers at, `https://` when it serves TLS. */
  url: string;
}

/**
 * A gateway's server (gatewayServer) listening on `host:port`; port 0 picks a free one.
 */
export function serve(app: Koa, port: number, host: string, tls?: https.ServerOptions): Promise<Served> {
  const server = gatewayServer(app, tls);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const name = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ server, url: `${tls ? 'https' : 'http'}://${name}:${address.port}` });
    });
  });
}

/**
 * The TLS a gateway serves, or undefined for plain HTTP: the hub's server certificate, and, when `clientCaPath` is
 * given, a request for a client certificate that CA signed. `required` refuses the handshake without one (the
 * switch); `checked by the gateway` lets it through for the gateway to answer (the admin API's 401 and 403).
 */
export function gatewayTls(
  tls: TlsConfig,
  clientCaPath: string | undefined,
  clientCertificate: 'required' | 'checked by the gateway',
): https.ServerOptions | undefined {
  if (!tls.server) return undefined;
  const own = readCertificate(tls.server, "the gateways' server");
  if (!clientCaPath) return own;
  return { ...own, ca: readPem(clientCaPath, 'the client certificate CA'), requestCert: true, rejectUnauthorized: clientCertificate === 'required' };
}
