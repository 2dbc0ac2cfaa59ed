import fs from 'node:fs';
import type { SecureContextOptions } from 'node:tls';
import type { TLSConfig } from '@temporalio/client';
import type { CertificateFiles, TemporalTlsConfig, TlsConfig } from './config';

/** A PEM file's text, read at start so that a wrong path stops the process with its name rather than a later handshake. */
export function readPem(filePath: string, what: string): string {
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf-8');
  } catch (error) {
    throw new Error(`cannot read ${what} at ${filePath}: ${(error as Error).message}`);
  }
  if (!text.includes('-----BEGIN ')) throw new Error(`${what} at ${filePath} is not PEM`);
  return text;
}

export function readCertificate(files: CertificateFiles, what: string): { cert: string; key: string } {
  return { cert: readPem(files.certPath, `${what} certificate`), key: readPem(files.keyPath, `${what} key`) };
}

/**
 * What a sender shows and trusts when it calls HTTPS endpoints (the hub calling participants, by default; a connector
 * calling the switch); undefined where Node's defaults hold. `names` name the files in a start-up error.
 */
export function outboundCredentials(
  tls: Pick<TlsConfig, 'outboundClient' | 'outboundCaPath'> | undefined,
  names = { client: "the hub's client", ca: "the participants' server CA" },
): SecureContextOptions | undefined {
  if (!tls?.outboundClient && !tls?.outboundCaPath) return undefined;
  return {
    ...(tls.outboundClient ? readCertificate(tls.outboundClient, names.client) : {}),
    ...(tls.outboundCaPath ? { ca: readPem(tls.outboundCaPath, names.ca) } : {}),
  };
}

/** What Connection.connect and NativeConnection.connect take to reach Temporal's frontend, its TLS files read now. */
export function temporalConnectionOptions(config: { temporalAddress: string; temporalTls?: TemporalTlsConfig }): { address: string; tls?: TLSConfig } {
  const { temporalAddress: address, temporalTls: tls } = config;
  if (!tls) return { address };
  const client = tls.client && readCertificate(tls.client, 'the Temporal client');
  return {
    address,
    tls: {
      serverNameOverride: tls.serverName,
      serverRootCACertificate: tls.caPath ? Buffer.from(readPem(tls.caPath, "Temporal's server CA")) : undefined,
      clientCertPair: client && { crt: Buffer.from(client.cert), key: Buffer.from(client.key) },
    },
  };
}
