import crypto from 'node:crypto';
import path from 'node:path';
import { freePort } from '../../temporal/ports';
import { startProcess } from '../helpers/hubProcesses';
import { stopChildren } from '../../worker/children';
import { PEERS_DIR, Tap } from './peers';

/** One of our connectors run as its own process, as a bank or a PISP would run it, with a tap before its inbound API. */
export interface OurConnector {
  name: string;
  inboundUrl: string;
  outboundUrl: string;
  /** The messages the hub delivered to the connector, and its answers. */
  tap: Tap;
  logFile: string;
  /** Stops it with SIGTERM, as an operator would; its exit code. */
  stop(): Promise<number | null>;
}

/** Our DFSP connector (`npm run dfsp`) over its built-in simulated bank. */
export interface OurDfsp extends OurConnector {
  /** The MSISDNs of its simulated bank's customers, Alice and Bob (SIMULATOR_MSISDN_PREFIX 1 and 2). */
  alice: string;
  bob: string;
  /** An MSISDN of its prefix that the bank does not hold. */
  stranger: string;
}

/** What either connector is started with. */
interface ConnectorOptions {
  name: string;
  switchUrl: string;
  temporalAddress: string;
  /** Sign with this key, and validate what the hub delivers against the directory's keys. */
  jws?: { signingKeyPath: string; verificationKeysDirectory: string };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts `dist/<entry>` on the hub's Temporal (its own namespace, the participant's ID), its inbound and outbound APIs
 * on free ports, and waits until its `/health` answers. Its output goes to `.interop/logs/<name>.log`.
 */
async function startConnectorProcess(entry: string, options: ConnectorOptions, roleEnv: NodeJS.ProcessEnv): Promise<OurConnector> {
  const [inboundPort, outboundPort] = await Promise.all([freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DFSP_ID: options.name,
    PEER_ENDPOINT: options.switchUrl,
    INBOUND_LISTEN_PORT: String(inboundPort),
    OUTBOUND_LISTEN_PORT: String(outboundPort),
    TEMPORAL_ADDRESS: options.temporalAddress,
    LOG_LEVEL: 'info',
    ...(options.jws && {
      JWS_SIGNING_KEY_PATH: options.jws.signingKeyPath,
      VALIDATE_INBOUND_JWS: 'true',
      JWS_VERIFICATION_KEYS_DIRECTORY: options.jws.verificationKeysDirectory,
    }),
    ...roleEnv,
  };
  const logDir = path.join(PEERS_DIR, 'logs');
  const logFile = path.join(logDir, `${options.name}.log`);
  const child = startProcess(entry, options.name, env, logDir);
  const inboundUrl = `http://127.0.0.1:${inboundPort}`;
  // It bundles its workflows at start: that takes a while.
  const deadline = Date.now() + 120_000;
  while (!(await healthy(`${inboundUrl}/health`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChildren([child]);
      throw new Error(`our connector ${options.name} did not become healthy; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const tap = await Tap.start(inboundPort);
  return {
    name: options.name,
    inboundUrl,
    outboundUrl: `http://127.0.0.1:${outboundPort}`,
    tap,
    logFile,
    async stop() {
      await tap.close();
      await stopChildren([child]);
      return child.exitCode;
    },
  };
}

/** Our DFSP connector (`dist/worker/dfsp.js`) over its built-in simulated bank, whose user pages it serves. */
export async function startOurDfsp(options: ConnectorOptions & { currency: string }): Promise<OurDfsp> {
  const prefix = `4479${crypto.randomInt(10 ** 6, 10 ** 7)}`;
  const connector = await startConnectorProcess('worker/dfsp.js', options, {
    ILP_SECRET: `secret-of-${options.name}`,
    SIMULATOR_MSISDN_PREFIX: prefix,
    SIMULATOR_CURRENCY: options.currency,
  });
  return { ...connector, alice: `${prefix}1`, bob: `${prefix}2`, stranger: `${prefix}9` };
}

/** Our PISP connector (`dist/worker/pisp.js`), whose outbound API is the PISP app's. */
export function startOurPisp(options: ConnectorOptions): Promise<OurConnector> {
  return startConnectorProcess('worker/pisp.js', options, { GENERIC_KEY_SECRET: crypto.randomBytes(32).toString('base64') });
}
