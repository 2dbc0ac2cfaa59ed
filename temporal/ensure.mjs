// Makes a fresh clone runnable; cheap when there is nothing to do.
//
//   node temporal/ensure.mjs          (also: import { ensure } from './temporal/ensure.mjs')
//
//   1. npm dependencies: `npm ci` (or `npm install` without a lockfile) when node_modules is missing or
//      package-lock.json is newer than node_modules/.package-lock.json. Native addons (better-sqlite3) are
//      compiled from source against the local Node headers: prebuilt downloads are not reachable everywhere.
//   2. TypeScript: `tsc -p <repo>` (incremental) into dist/, and the console's browser code into dist/console/.
//   3. the Temporal CLI for the dev server (temporal/cli.mjs).
//
// Plain Node ESM with no npm dependencies: it runs before node_modules exists.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTemporalCli } from './cli.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const IS_WINDOWS = process.platform === 'win32';

const defaultLog = (msg) => process.stderr.write(`${msg}\n`);

/**
 * @param {{ log?: (msg: string) => void, install?: boolean, compile?: boolean, cli?: boolean }} [options]
 * @returns {Promise<{ temporalCli?: string }>}
 */
export async function ensure({ log = defaultLog, install = true, compile = true, cli = true } = {}) {
  const started = Date.now();
  if (install) await ensureDependencies(log);
  if (compile) await compileTypeScript(log);
  const temporalCli = cli ? await ensureTemporalCli({ log }) : undefined;
  log(`ensure: ready (${secondsSince(started)})`);
  return { temporalCli };
}

async function ensureDependencies(log) {
  const nodeModules = join(REPO, 'node_modules');
  const lockfile = join(REPO, 'package-lock.json');
  const hiddenLockfile = join(nodeModules, '.package-lock.json');
  const hasLockfile = existsSync(lockfile);

  let reason;
  if (!existsSync(nodeModules)) reason = 'node_modules is missing';
  else if (hasLockfile && !existsSync(hiddenLockfile)) reason = 'node_modules was not installed by npm';
  else if (hasLockfile && mtime(lockfile) > mtime(hiddenLockfile)) reason = 'package-lock.json changed';
  if (!reason) return;

  log(`ensure: ${reason}`);
  const env = nativeBuildEnv();
  const [npmCmd, npmArgs] = npmCommand();

  let cmd = hasLockfile ? 'ci' : 'install';
  if (cmd === 'ci') {
    // `npm ci` refuses a lockfile that lacks entries, e.g. platform-specific optional packages that the
    // registry used to write it did not serve. `npm install` keeps the locked versions and tolerates that.
    // A dry run finds out in a second, without the wall of usage text npm prints on that error.
    try {
      await run(npmCmd, [...npmArgs, 'ci', '--dry-run', '--no-audit', '--no-fund'], { env, what: 'npm ci --dry-run', quiet: true });
    } catch (err) {
      if (/package\.json and package-lock\.json .*in sync/s.test(err.output ?? '')) {
        log('ensure: package-lock.json lacks some (optional) entries that npm ci insists on; using npm install');
        cmd = 'install';
      }
    }
  }
  log(
    `ensure: running npm ${cmd}${env.npm_config_nodedir ? ` (node headers: ${env.npm_config_nodedir})` : ''}` +
      ' — native addons compile from source, this takes a few minutes',
  );
  const t = Date.now();
  await run(npmCmd, [...npmArgs, cmd, '--no-audit', '--no-fund'], { env, what: `npm ${cmd}` });
  // npm may write package-lock.json after node_modules/.package-lock.json; make the next run see "up to date".
  if (existsSync(hiddenLockfile)) {
    const now = new Date();
    utimesSync(hiddenLockfile, now, now);
  }
  log(`ensure: npm ${cmd} done (${secondsSince(t)})`);
}

/**
 * `npm install` in another folder (the interoperability suite's peers, `.interop/`), with native addons built
 * the same way as the hub's own.
 */
export async function npmInstall(dir, { log = defaultLog, args = [] } = {}) {
  const env = nativeBuildEnv();
  log(`ensure: npm install in ${dir}${env.npm_config_nodedir ? ` (node headers: ${env.npm_config_nodedir})` : ''}`);
  const [npmCmd, npmArgs] = npmCommand();
  await run(npmCmd, [...npmArgs, 'install', '--no-audit', '--no-fund', '--loglevel=error', ...args], { env, cwd: dir, what: `npm install in ${dir}` });
}

// npm's environment for compiling native addons from source (prebuilt downloads are not reachable everywhere).
function nativeBuildEnv() {
  const env = { ...process.env, npm_config_build_from_source: 'true' };
  const nodedir = nodeHeadersDir();
  if (nodedir && !process.env.npm_config_nodedir) env.npm_config_nodedir = nodedir;
  return env;
}

async function compileTypeScript(log) {
  const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) throw new Error(`TypeScript is not installed (${tsc} is missing); run npm install`);
  const t = Date.now();
  log("ensure: compiling TypeScript (tsc -p ., and the console's browser code: tsc -p api/console/web)");
  await run(process.execPath, [tsc, '-p', REPO], { what: 'tsc' });
  await run(process.execPath, [tsc, '-p', join(REPO, 'api', 'console', 'web')], { what: 'tsc (console)' });
  log(`ensure: compiled (${secondsSince(t)})`);
}

// Node headers for node-gyp, so that it does not try to download them. Only used when they match this Node.
function nodeHeadersDir() {
  const candidates = [resolve(dirname(process.execPath), '..'), '/usr'];
  for (const dir of candidates) {
    const header = join(dir, 'include', 'node', 'node_version.h');
    if (!existsSync(header)) continue;
    const text = readFileSync(header, 'utf8');
    const part = (name) => (new RegExp(`#define\\s+${name}\\s+(\\d+)`).exec(text) || [])[1];
    const version = `${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
    if (version === process.versions.node) return dir;
  }
  return undefined;
}

// Under `npm run`/`npm test`, reuse the very npm that is running us; otherwise `npm` from PATH.
function npmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.js$/.test(execPath) && existsSync(execPath)) return [process.execPath, [execPath]];
  return [IS_WINDOWS ? 'npm.cmd' : 'npm', []];
}

// Runs a command, copying everything it prints to our stderr (stdout of this script stays clean). A failure
// carries the last 64 KiB of that output in err.output.
function run(cmd, args, { env = process.env, cwd = REPO, what, quiet = false }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: IS_WINDOWS && cmd.endsWith('.cmd'),
    });
    let output = '';
    const onData = (chunk) => {
      if (!quiet) process.stderr.write(chunk);
      output = (output + chunk.toString('utf8')).slice(-65536);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (err) => reject(Object.assign(new Error(`${what}: could not start ${cmd}: ${err.message}`), { output })));
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(Object.assign(new Error(`${what} failed (exit ${signal ?? code})`), { output }));
    });
  });
}

function mtime(p) {
  return statSync(p).mtimeMs;
}

function secondsSince(t) {
  return `${((Date.now() - t) / 1000).toFixed(1)}s`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensure().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`\nensure: FAILED: ${err.message}\n`);
      process.exit(1);
    },
  );
}
