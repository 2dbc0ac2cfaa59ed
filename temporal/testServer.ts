import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../activities/shared/platform/config';

type Log = (message: string) => void;

const POM = path.join(repoRoot, 'temporal', 'test-server', 'pom.xml');
const INSTALL_DIR = path.join(repoRoot, '.temporal', 'test-server');
const LAUNCHER = path.join(INSTALL_DIR, 'temporal-test-server');
/** Holds the hash of the pom the installed jars came from, so a changed version installs afresh. */
const STAMP = path.join(INSTALL_DIR, 'installed-from');

/**
 * Temporal's time-skipping test server for `@temporalio/testing`, as a path to run, installed on first use: with Java
 * and Maven at hand, the Java SDK's test server from Maven Central (temporal/test-server/pom.xml) behind a launcher
 * script; without them, undefined, and the SDK downloads its native build of the same server itself.
 */
export async function timeSkippingServerPath(log: Log): Promise<string | undefined> {
  const wanted = crypto.createHash('sha256').update(readFileSync(POM)).digest('hex');
  if (existsSync(LAUNCHER) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) return LAUNCHER;
  if (!answers('java', '-version') || !answers('mvn', '--version')) {
    log('test server: no Java and Maven here; @temporalio/testing will download its own build');
    return undefined;
  }
  log('test server: installing the Java SDK time-skipping test server with Maven (once)');
  const started = Date.now();
  rmSync(INSTALL_DIR, { recursive: true, force: true });
  mkdirSync(INSTALL_DIR, { recursive: true });
  const lib = path.join(INSTALL_DIR, 'lib');
  await run('mvn', ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${lib}`, '-DincludeScope=runtime']);
  // The core SDK starts the server as `<path> <port>`, which is exactly the Java test server's own command line.
  writeFileSync(LAUNCHER, `#!/bin/sh\nexec java -cp '${lib}/*' io.temporal.testserver.TestServer "$@"\n`);
  chmodSync(LAUNCHER, 0o755);
  writeFileSync(STAMP, wanted);
  log(`test server: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return LAUNCHER;
}

function answers(command: string, ...args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Runs a command quietly; what it printed goes into the error if it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}
