import crypto from 'node:crypto';
import path from 'node:path';
import { freePort } from '../../temporal/ports';
import { startProcess } from '../helpers/hubProcesses';
import { stopChildren } from '../../worker/children';
import { PEERS_DIR, Tap } from './peers';

/** Our DFSP connector (`npm run dfsp`) run as its own process, as a bank would run it, with a tap before its inbound API. */
export interface OurDfsp {
  name: string;
  inboundUrl: string;
  outboundUrl: string;
  /** The messages the hub delivered to the connector, and its answers. */
  tap: Tap;
  /** The MSISDNs of its simulated bank's customers, Alice and Bob (SIMULATOR_MSISDN_PREFIX 1 and 2). */
  alice: string;
  bob: string;
  /** An MSISDN of its prefix that the bank does not hold. */
  stranger: string;
  logFile: string;
  /** Stops it with SIGTERM, as an operator would; its exit code. */
  stop(): Promise<number | null>;
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
 * Starts `dist/worker/dfsp.js` on the hub's Temporal (its own namespace, the DFSP's ID), its inbound and outbound
 * APIs on free ports, over its built-in simulated bank, and waits until its `/health` answers. Its output goes to
 * `.interop/logs/<name>.log`.
 */
export async function startOurDfsp(options: {
  name: string;
  switchUrl: string;
  temporalAddress: string;
  currency: string;
  /** Sign with this key, and validate what the hub delivers against the directory's keys. */
  jws?: { signingKeyPath: string; verificationKeysDirectory: string };
}): Promise<OurDfsp> {
  const [inboundPort, outboundPort] = await Promise.all([freePort(), freePort()]);
  const prefix = `4479${crypto.randomInt(10 ** 6, 10 ** 7)}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DFSP_ID: options.name,
    PEER_ENDPOINT: options.switchUrl,
    INBOUND_LISTEN_PORT: String(inboundPort),
    OUTBOUND_LISTEN_PORT: String(outboundPort),
    TEMPORAL_ADDRESS: options.temporalAddress,
    ILP_SECRET: `secret-of-${options.name}`,
    SIMULATOR_MSISDN_PREFIX: prefix,
    SIMULATOR_CURRENCY: options.currency,
    LOG_LEVEL: 'info',
    ...(options.jws && {
      JWS_SIGNING_KEY_PATH: options.jws.signingKeyPath,
      VALIDATE_INBOUND_JWS: 'true',
      JWS_VERIFICATION_KEYS_DIRECTORY: options.jws.verificationKeysDirectory,
    }),
  };
  const logDir = path.join(PEERS_DIR, 'logs');
  const logFile = path.join(logDir, `${options.name}.log`);
  const child = startProcess('worker/dfsp.js', options.name, env, logDir);
  const inboundUrl = `http://127.0.0.1:${inboundPort}`;
  // It bundles its workflows at start: that takes a while.
  const deadline = Date.now() + 120_000;
  while (!(await healthy(`${inboundUrl}/health`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChildren([child]);
      throw new Error(`our DFSP connector ${options.name} did not become healthy; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const tap = await Tap.start(inboundPort);
  return {
    name: options.name,
    inboundUrl,
    outboundUrl: `http://127.0.0.1:${outboundPort}`,
    tap,
    alice: `${prefix}1`,
    bob: `${prefix}2`,
    stranger: `${prefix}9`,
    logFile,
    async stop() {
      await tap.close();
      await stopChildren([child]);
      return child.exitCode;
    },
  };
}
