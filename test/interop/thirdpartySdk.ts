import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';
import { freePort } from '../../temporal/ports';
import { npmInstall } from '../../temporal/setup';
import { logTo, PEERS_DIR, run, stopper, waitForPort, type Peer } from './peers';

/**
 * Mojaloop's thirdparty-sdk (PISP and third-party DFSP in one program), which npm does not serve: built from the source
 * archive the project is given (mojaloop/thirdparty-sdk v15.1.3), into `.interop/thirdparty-sdk/`, once.
 */
const ARCHIVE = path.resolve(repoRoot, '..', 'shared', 'peers', 'thirdparty-sdk-15.1.3.tar.gz');
const SDK_DIR = path.join(PEERS_DIR, 'thirdparty-sdk');
const ENTRY = path.join(SDK_DIR, 'dist', 'src', 'cli.js');
const STAMP = path.join(SDK_DIR, '.built-from');

/**
 * Release and commit tooling among its devDependencies that nothing here runs, some at versions the registry no longer
 * serves; and two pins its lockfile holds at versions the registry does not serve either.
 */
const UNUSED_DEV_DEPENDENCIES = [
  'release-please',
  '@types/hapi__vision',
  '@types/hapi__hapi',
  '@types/hapi__inert',
  '@immobiliarelabs/standard-version',
  'audit-ci',
  'husky',
  'lint-staged',
  'npm-check-updates',
];
const SERVED_PINS = ['devDependencies.@redocly/cli=1.34.20', 'dependencies.@mojaloop/api-snippets=17.7.5'];

type Log = (message: string) => void;

/** Whether the archive is here: outside this repository, so a checkout elsewhere may not have it. */
export function thirdpartySdkAvailable(): boolean {
  return fs.existsSync(ARCHIVE);
}

/** Unpacks and builds the SDK unless the build of this very archive is there already. */
export async function installThirdpartySdk(log: Log): Promise<void> {
  const archiveHash = crypto.createHash('sha256').update(fs.readFileSync(ARCHIVE)).digest('hex');
  if (fs.existsSync(ENTRY) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf-8') === archiveHash) return;
  const started = Date.now();
  log('interop: building Mojaloop thirdparty-sdk 15.1.3 from its source archive into .interop/thirdparty-sdk/ (once)');
  fs.rmSync(SDK_DIR, { recursive: true, force: true });
  fs.mkdirSync(SDK_DIR, { recursive: true });
  const npm = (...args: string[]) => run('npm', args, process.env, SDK_DIR);
  run('tar', ['xzf', ARCHIVE, '-C', SDK_DIR, '--strip-components=1']);
  const manifest = JSON.parse(fs.readFileSync(path.join(SDK_DIR, 'package.json'), 'utf-8')) as { devDependencies: Record<string, string> };
  const commitTooling = Object.keys(manifest.devDependencies).filter((name) => name.startsWith('@commitlint/'));
  npm('pkg', 'delete', 'scripts.postinstall', ...[...UNUSED_DEV_DEPENDENCIES, ...commitTooling].map((name) => `devDependencies.${name}`));
  npm('pkg', 'set', ...SERVED_PINS);
  await npmInstall(SDK_DIR, log, ['--ignore-scripts']);
  npm('run', 'build');
  fs.writeFileSync(STAMP, archiveHash);
  log(`interop: thirdparty-sdk built (${Math.round((Date.now() - started) / 1000)} s)`);
}

export interface ThirdpartySdk extends Peer {
  inboundPort: number;
  outboundPort: number;
  logFile: string;
}

/**
 * One thirdparty-sdk process as a participant `dfspId`: its inbound API (the hub's TP_CB_URL_* endpoints point at it)
 * and its outbound API (the PISP app's, or unused by a DFSP), its state in its own Redis, no JWS validation (the SDK's
 * validator loads no keys), no TLS. `backend` and `sdkOutgoing` are a DFSP's core-banking backend and its own
 * sdk-scheme-adapter's outbound API, as `host:port`.
 */
export async function startThirdpartySdk(options: {
  dfspId: string;
  hubEndpoint: string;
  redisPort: number;
  authServiceId: string;
  backend?: string;
  sdkOutgoing?: string;
  /** Its private key: every message it sends with a body is signed (JWS_SIGN), as the hub's validation asks. */
  signingKeyPath?: string;
}): Promise<ThirdpartySdk> {
  const [inboundPort, outboundPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    INBOUND_HOST: '127.0.0.1',
    INBOUND_LISTEN_PORT: String(inboundPort),
    OUTBOUND_HOST: '127.0.0.1',
    OUTBOUND_LISTEN_PORT: String(outboundPort),
    REDIS_HOST: '127.0.0.1',
    REDIS_LISTEN_PORT: String(options.redisPort),
    PEER_ENDPOINT: options.hubEndpoint,
    DFSP_ID: options.dfspId,
    AUTH_SERVICE_PARTICIPANT_ID: options.authServiceId,
    DFSP_BACKEND_URI: options.backend ?? '127.0.0.1:9',
    SDK_OUTGOING_URI: options.sdkOutgoing ?? '127.0.0.1:9',
    REQUEST_PROCESSING_TIMEOUT_SECONDS: '30',
    // A PISP's initiate waits this long for the DFSP's authorization request; a refusal it never reports (it listens
    // for one only once the user has approved), so a refused payment's initiate ends here.
    PISP_TRANSACTION_INITIATE_TIMEOUT_IN_SECONDS: '15',
    JWS_SIGN: String(options.signingKeyPath !== undefined),
    ...(options.signingKeyPath ? { JWS_SIGNING_KEY_PATH: options.signingKeyPath } : {}),
    VALIDATE_INBOUND_JWS: 'false',
  };
  const child = spawn(process.execPath, [ENTRY, 'all'], { cwd: SDK_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const name = `thirdparty-sdk-${options.dfspId}`;
  const logFile = logTo(child, name);
  // Its SIGTERM handler can hang on a request in flight: it is killed after a grace period.
  const peer = stopper(name, child, 3_000);
  try {
    // It opens its inbound API first, then the outbound one.
    await waitForPort(outboundPort, name, child, logFile);
  } catch (error) {
    await peer.stop();
    throw error;
  }
  return { ...peer, inboundPort, outboundPort, logFile };
}
