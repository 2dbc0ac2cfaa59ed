import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';
import { freePort } from '../../temporal/ports';
import { npmInstall } from '../../temporal/setup';
import { jsonOrUndefined, readAll, serveLocally } from '../helpers/http';

/**
 * The real Mojaloop peers of the interoperability suite, installed from npm into `.interop/` (apart from the
 * hub's own dependencies) at the versions pinned in `test/interop/peers/package.json`.
 */
const PEERS_SOURCE = path.join(repoRoot, 'test', 'interop', 'peers');
export const PEERS_DIR = path.join(repoRoot, '.interop');
const SDK_ENTRY = path.join(PEERS_DIR, 'node_modules', '@mojaloop', 'sdk-scheme-adapter', 'src', 'index.js');

type Log = (message: string) => void;

/**
 * Runs a set-up command to its end (in `cwd`, by default the current directory); one that fails throws. What it prints
 * goes to stderr, with the suite's log: stdout holds the suite's checks alone.
 */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 2, 'inherit'], env, cwd });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** Installs the pinned peers once; a later run with the same pins does nothing. */
export async function installPeers(log: Log): Promise<void> {
  // The pins are the manifest and its lockfile: a change to either installs again.
  const pins = ['package.json', 'package-lock.json'].map((file) => fs.readFileSync(path.join(PEERS_SOURCE, file), 'utf-8')).join('\n');
  const stamp = path.join(PEERS_DIR, '.installed');
  if (fs.existsSync(SDK_ENTRY) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf-8') === pins) return;
  fs.mkdirSync(PEERS_DIR, { recursive: true });
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    if (fs.existsSync(path.join(PEERS_SOURCE, file))) fs.copyFileSync(path.join(PEERS_SOURCE, file), path.join(PEERS_DIR, file));
  }
  const started = Date.now();
  log('interop: installing the Mojaloop peers from npm into .interop/ (native modules compile from source; once)');
  await npmInstall(PEERS_DIR, log);
  fs.writeFileSync(stamp, pins);
  log(`interop: peers installed (${Math.round((Date.now() - started) / 1000)} s)`);
}

/** `redis-server`, installed from the Debian packages if it is missing (as CI's root may). */
export function redisServerPath(log: Log): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server || ls /usr/bin/redis-server 2>/dev/null'], { encoding: 'utf-8' }).stdout.trim().split('\n')[0];
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('redis-server is not installed: apt-get install redis-server');
  log('interop: installing redis-server from the Debian packages');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], env);
  return '/usr/bin/redis-server';
}

/** A child process the suite started, stopped with it. */
export interface Peer {
  name: string;
  stop(): Promise<void>;
}

/** Stops `child` with SIGTERM; with `killAfterMs`, one whose SIGTERM handler hangs is killed after that grace. */
export function stopper(name: string, child: ChildProcess, killAfterMs?: number): Peer {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name,
    stop: () =>
      new Promise<void>((resolve) => {
        if (ended()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        if (killAfterMs !== undefined) setTimeout(() => ended() || child.kill('SIGKILL'), killAfterMs).unref();
      }),
  };
}

/** Keeps a child's output in a log file under .interop/logs, for a look after a failed check. */
export function logTo(child: ChildProcess, name: string): string {
  const dir = path.join(PEERS_DIR, 'logs');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.log`);
  const out = fs.createWriteStream(file, { fd: fs.openSync(file, 'w') });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  return file;
}

/** Waits until `port` takes connections: a TCP connect, whatever the server speaks over it (HTTP or TLS). */
export async function waitForPort(port: number, what: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}; see ${logFile}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
      socket.setTimeout(1_000, () => socket.destroy());
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms; see ${logFile}`);
}

export async function startRedis(redisServer: string, name: string): Promise<Peer & { url: string }> {
  const port = await freePort();
  const child = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const logFile = logTo(child, name);
  const peer = stopper(name, child);
  const deadline = Date.now() + 15_000;
  while (!fs.readFileSync(logFile, 'utf-8').includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Not yet handed to the caller, so nobody else would stop it.
      await peer.stop();
      throw new Error(`redis-server did not start; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...peer, url: `redis://127.0.0.1:${port}` };
}

/** An SDK DFSP's JWS keys: its own private key, and the directory of everyone's public keys (the hub's too). */
export interface SdkJws {
  signingKeyPath: string;
  verificationKeysDirectory: string;
}

export interface SdkAdapter extends Peer {
  dfspId: string;
  inboundPort: number;
  outboundUrl: string;
}

/** A DFSP's certificates for mutual TLS with the hub (PEM files). */
export interface SdkTls {
  /** The scheme CA: it signs the hub's server certificate (and every DFSP's certificates). */
  caPath: string;
  /**
   * The CA that signs the hub's client certificate and nothing else: the SDK's inbound API checks only that a client
   * certificate chains to the CA it trusts, not whose it is, so trusting the scheme CA there would let any DFSP call
   * another's inbound API as the hub.
   */
  hubClientCaPath: string;
  /** The SDK's inbound server certificate, for 127.0.0.1. */
  server: { certPath: string; keyPath: string };
  /** Its client certificate towards the hub, subject CN = its DFSP_ID. */
  client: { certPath: string; keyPath: string };
}

/**
 * A stock `@mojaloop/sdk-scheme-adapter` as a DFSP's connector: FSPIOP towards the hub (`peerEndpoint`), its
 * backend behind it, state in its own Redis; no management API. With `jws` it signs every message with a body (PUT
 * /parties too) and validates every one it receives; with `tls`, mutual TLS both ways (its inbound API takes only the
 * hub's client certificate, and it calls the hub over HTTPS with its own).
 */
export async function startSdkAdapter(options: {
  dfspId: string;
  peerEndpoint: string;
  backendPort: number;
  cacheUrl: string;
  expirySeconds: number;
  tls?: SdkTls;
  jws?: SdkJws;
}): Promise<SdkAdapter> {
  const jws = String(options.jws !== undefined);
  const [inboundPort, outboundPort, testPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DFSP_ID: options.dfspId,
    // A Mojaloop deployment names each service; here the hub is all of them.
    PEER_ENDPOINT: options.peerEndpoint,
    ALS_ENDPOINT: options.peerEndpoint,
    QUOTES_ENDPOINT: options.peerEndpoint,
    TRANSFERS_ENDPOINT: options.peerEndpoint,
    BACKEND_ENDPOINT: `127.0.0.1:${options.backendPort}`,
    CACHE_URL: options.cacheUrl,
    INBOUND_LISTEN_PORT: String(inboundPort),
    OUTBOUND_LISTEN_PORT: String(outboundPort),
    TEST_LISTEN_PORT: String(testPort),
    METRICS_SERVER_LISTEN_PORT: String(metricsPort),
    JWS_SIGN: jws,
    JWS_SIGN_PUT_PARTIES: jws,
    VALIDATE_INBOUND_JWS: jws,
    VALIDATE_INBOUND_PUT_PARTIES_JWS: jws,
    ...(options.jws && { JWS_SIGNING_KEY_PATH: options.jws.signingKeyPath, JWS_VERIFICATION_KEYS_DIRECTORY: options.jws.verificationKeysDirectory }),
    AUTO_ACCEPT_PARTY: 'true',
    AUTO_ACCEPT_QUOTES: 'true',
    EXPIRY_SECONDS: String(options.expirySeconds),
    REQUEST_PROCESSING_TIMEOUT_SECONDS: '40',
    ILP_SECRET: `secret-of-${options.dfspId}`,
    LOG_INDENT: '0',
    // A payee of third-party payments: the thirdparty-sdk DFSP's transfer has an ID of its own, not its quote's
    // transactionId, and is matched to the quote by the transactionId in its ILP packet.
    ALLOW_DIFFERENT_TRANSFER_TRANSACTION_ID: 'true',
    ...(options.tls && {
      INBOUND_MUTUAL_TLS_ENABLED: 'true',
      IN_CA_CERT_PATH: options.tls.hubClientCaPath,
      IN_SERVER_CERT_PATH: options.tls.server.certPath,
      IN_SERVER_KEY_PATH: options.tls.server.keyPath,
      OUTBOUND_MUTUAL_TLS_ENABLED: 'true',
      OUT_CA_CERT_PATH: options.tls.caPath,
      OUT_CLIENT_CERT_PATH: options.tls.client.certPath,
      OUT_CLIENT_KEY_PATH: options.tls.client.keyPath,
    }),
  };
  const child = spawn(process.execPath, [SDK_ENTRY], { cwd: PEERS_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logFile = logTo(child, `sdk-${options.dfspId}`);
  const peer = stopper(`sdk-${options.dfspId}`, child);
  try {
    await waitForPort(outboundPort, `sdk-scheme-adapter ${options.dfspId}`, child, logFile);
    await waitForPort(inboundPort, `sdk-scheme-adapter ${options.dfspId}`, child, logFile);
  } catch (error) {
    await peer.stop();
    throw error;
  }
  return { ...peer, dfspId: options.dfspId, inboundPort, outboundUrl: `http://127.0.0.1:${outboundPort}` };
}

/** One message the hub sent a DFSP, and how the DFSP's SDK answered it. */
export interface Tapped {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  status: number;
  answer: string;
}

export interface WaitOptions {
  /** How many of the messages to pass over: those that came before the step waiting. */
  since?: number;
  timeoutMs?: number;
}

/** The first of `seen` from the `since`-th on that matches, waiting for it (it grows as messages come) up to `timeoutMs`. */
export async function waitForMessage<T>(
  seen: T[],
  predicate: (message: T) => boolean,
  { since = 0, timeoutMs = 20_000 }: WaitOptions = {},
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = seen.slice(since).find(predicate);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A recording pass-through in front of an SDK's inbound API: the hub's messages reach the SDK unchanged and
 * the SDK's answers reach the hub unchanged; the suite reads what crossed (for example a 400 from the SDK).
 */
export class Tap {
  readonly seen: Tapped[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<Tap> {
    let tap: Tap | undefined;
    const { server, port } = await serveLocally((req, raw, res) => {
      const forward = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        void readAll(answer).then((answerBytes) => {
          const text = raw.toString('utf-8');
          tap!.seen.push({
            method: req.method!,
            path: req.url!,
            headers: req.headers,
            raw: text,
            body: jsonOrUndefined(text),
            status: answer.statusCode ?? 0,
            answer: answerBytes.toString('utf-8'),
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(answerBytes);
        });
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(raw);
    });
    tap = new Tap(server, port);
    return tap;
  }

  /** The first message from the `since`-th on that matches, waiting for it up to `timeoutMs`. */
  waitFor(predicate: (message: Tapped) => boolean, options: WaitOptions = {}): Promise<Tapped | undefined> {
    return waitForMessage(this.seen, predicate, options);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
