// Finds (or provides) the `temporal` CLI that runs the Temporal dev server.
//
// Plain Node ESM with no npm dependencies: it runs before node_modules exists.
//
// Order of preference:
//   1. $TEMPORAL_CLI (an explicit path; an error if it does not exist)
//   2. a `temporal` (v1.x) on PATH
//   3. the cached build in <repo>/.temporal/bin/temporal (git-ignored)
//   4. build it with Go:   go install github.com/temporalio/cli/cmd/temporal@v1.5.1
//      (minutes; retried once with GOTOOLCHAIN=go1.25.4 if the local toolchain fails)
//   5. no Go: download the official v1.5.1 release archive from GitHub and extract it
//
// Steps 4 and 5 are guarded by a lock directory so that two concurrent callers never build into the same
// folder; the binary is moved into place atomically, so a later run never sees a half-written file.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEMPORAL_CLI_VERSION = '1.5.1';
export const FALLBACK_GOTOOLCHAIN = 'go1.25.4';

const IS_WINDOWS = process.platform === 'win32';
const EXE = IS_WINDOWS ? 'temporal.exe' : 'temporal';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STATE_DIR = join(REPO_ROOT, '.temporal');
const BIN_DIR = join(STATE_DIR, 'bin');
export const CACHED_CLI = join(BIN_DIR, EXE);
const LOCK_DIR = join(STATE_DIR, 'install.lock');
const PROGRESS_EVERY_MS = 15_000;

const defaultLog = (msg) => process.stderr.write(`${msg}\n`);

/**
 * @param {{ log?: (msg: string) => void }} [options]
 * @returns {Promise<string>} absolute path of a usable `temporal` binary
 */
export async function ensureTemporalCli({ log = defaultLog } = {}) {
  const explicit = process.env.TEMPORAL_CLI;
  if (explicit) {
    const p = resolve(explicit);
    if (!isExecutable(p)) throw new Error(`TEMPORAL_CLI=${explicit} is not an executable file`);
    return p;
  }

  const onPath = which('temporal');
  if (onPath && onPath !== CACHED_CLI) {
    const version = cliVersion(onPath);
    if (version && (version.major >= 1 || version.dev)) return onPath;
    log(`temporal: ignoring ${onPath} (version ${version ? version.text : 'unknown'}; need v1.x)`);
  }

  if (isExecutable(CACHED_CLI)) return CACHED_CLI;

  mkdirSync(BIN_DIR, { recursive: true });
  const release = await acquireLock(log);
  try {
    // Somebody else may have finished while we waited for the lock.
    if (isExecutable(CACHED_CLI)) return CACHED_CLI;

    const go = findGo();
    if (go) {
      await buildWithGo(go, log);
    } else {
      log(`temporal: no Go toolchain found; downloading the v${TEMPORAL_CLI_VERSION} release from GitHub`);
      await downloadRelease(log);
    }
    if (!isExecutable(CACHED_CLI)) throw new Error(`temporal CLI was not produced at ${CACHED_CLI}`);
    log(`temporal: CLI ready at ${CACHED_CLI}`);
    return CACHED_CLI;
  } finally {
    release();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Go build

export function findGo() {
  const candidates = [
    which('go'),
    process.env.GOROOT && join(process.env.GOROOT, 'bin', IS_WINDOWS ? 'go.exe' : 'go'),
    IS_WINDOWS ? 'C:\\Program Files\\Go\\bin\\go.exe' : '/usr/local/go/bin/go',
    IS_WINDOWS ? undefined : '/usr/lib/go/bin/go',
  ];
  for (const c of candidates) {
    if (c && isExecutable(c)) {
      const r = spawnSync(c, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (r.status === 0) return c;
    }
  }
  return undefined;
}

async function buildWithGo(go, log) {
  const pkg = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;
  const attempts = [{}, { GOTOOLCHAIN: FALLBACK_GOTOOLCHAIN }];
  let lastError;
  for (const [i, extraEnv] of attempts.entries()) {
    const label = extraEnv.GOTOOLCHAIN ? ` with GOTOOLCHAIN=${extraEnv.GOTOOLCHAIN}` : '';
    if (i === 0) {
      log(`temporal: building the Temporal CLI v${TEMPORAL_CLI_VERSION} with ${goVersion(go)} (one-time, takes a few minutes)`);
    } else {
      log(`temporal: retrying the build${label}`);
    }
    try {
      await runGoInstall(go, pkg, extraEnv, log);
      return;
    } catch (err) {
      lastError = err;
      log(`temporal: build failed${label}: ${err.message}`);
    }
  }
  throw new Error(`could not build the Temporal CLI with Go (full output in ${join(STATE_DIR, 'build.log')}): ${lastError.message}`);
}

function runGoInstall(go, pkg, extraEnv, log) {
  // Build into a scratch GOBIN and rename into place, so .temporal/bin never holds a partial binary.
  const gobin = join(STATE_DIR, `gobin-${process.pid}`);
  rmSync(gobin, { recursive: true, force: true });
  mkdirSync(gobin, { recursive: true });
  const env = {
    ...process.env,
    GOBIN: gobin,
    // The official release is built the same way; it also avoids needing a C compiler.
    CGO_ENABLED: process.env.CGO_ENABLED ?? '0',
    ...extraEnv,
  };
  if (!env.GOPATH && !env.HOME && !env.USERPROFILE) env.GOPATH = join(STATE_DIR, 'gopath');
  const args = ['install', '-v', `-ldflags=-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION}`, pkg];
  const logFile = join(STATE_DIR, 'build.log');
  const out = createWriteStream(logFile, { flags: 'a' });
  out.write(
    `\n$ ${Object.entries(extraEnv)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}GOBIN=${gobin} ${go} ${args.join(' ')}\n`,
  );

  return new Promise((resolvePromise, reject) => {
    const started = Date.now();
    let compiled = 0;
    let downloaded = 0;
    let last = '';
    const tail = [];
    const child = spawn(go, args, { cwd: STATE_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk) => {
      out.write(chunk);
      for (const line of chunk.toString('utf8').split('\n')) {
        const l = line.trim();
        if (!l) continue;
        tail.push(l);
        if (tail.length > 30) tail.shift();
        if (l.startsWith('go: downloading')) downloaded++;
        else if (!l.startsWith('go:') && !l.includes(' ')) {
          compiled++;
          last = l;
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setInterval(() => {
      const parts = [`${elapsed(started)}`];
      if (downloaded) parts.push(`${downloaded} modules downloaded`);
      parts.push(`${compiled} packages compiled`);
      if (last) parts.push(`last: ${last}`);
      log(`temporal:   still building… ${parts.join(', ')}`);
    }, PROGRESS_EVERY_MS);
    const finish = (err) => {
      clearInterval(timer);
      out.end();
      if (err) {
        rmSync(gobin, { recursive: true, force: true });
        reject(err);
        return;
      }
      try {
        const built = join(gobin, EXE);
        if (!existsSync(built)) throw new Error(`go install succeeded but ${built} is missing`);
        renameSync(built, CACHED_CLI);
        rmSync(gobin, { recursive: true, force: true });
        log(`temporal: built in ${elapsed(started)}`);
        resolvePromise();
      } catch (e) {
        rmSync(gobin, { recursive: true, force: true });
        reject(e);
      }
    };
    child.on('error', (e) => finish(e));
    child.on('close', (code, signal) => {
      if (code === 0) finish();
      else finish(new Error(`go install exited with ${signal ?? code}; last output:\n    ${tail.slice(-12).join('\n    ')}`));
    });
  });
}

function goVersion(go) {
  const r = spawnSync(go, ['version'], { encoding: 'utf8' });
  return (r.stdout || '').trim().split(' ')[2] || 'go';
}

// ---------------------------------------------------------------------------------------------------------
// Release download (no Go)

async function downloadRelease(log) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  if (!os || !arch) {
    throw new Error(`no Temporal CLI release for ${process.platform}/${process.arch}; install Go (https://go.dev/dl) or set TEMPORAL_CLI`);
  }
  const v = TEMPORAL_CLI_VERSION;
  const base = `https://github.com/temporalio/cli/releases/download/v${v}`;
  const name = `temporal_cli_${v}_${os}_${arch}.tar.gz`; // Windows has a .tar.gz too; tar ships with Windows 10+
  const work = join(STATE_DIR, `download-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const archive = await fetchBytes(`${base}/${name}`, log);
    const sums = (await fetchBytes(`${base}/checksums.txt`, log)).toString('utf8');
    const expected = sums
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((p) => p[1] === name)?.[0];
    if (!expected) throw new Error(`checksums.txt does not list ${name}`);
    const actual = createHash('sha256').update(archive).digest('hex');
    if (actual !== expected) throw new Error(`checksum mismatch for ${name}: expected ${expected}, got ${actual}`);
    const file = join(work, name);
    writeFileSync(file, archive);
    const tar = spawnSync('tar', ['-xzf', file, '-C', work], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar failed to extract ${name}: ${tar.stderr || tar.error?.message}`);
    const extracted = join(work, EXE);
    if (!existsSync(extracted)) throw new Error(`${name} does not contain ${EXE}`);
    renameSync(extracted, CACHED_CLI);
  } catch (err) {
    throw new Error(
      `could not download the Temporal CLI (${err.message}). Install Go (https://go.dev/dl), ` +
        `put a temporal v1.x on PATH, or set TEMPORAL_CLI=/path/to/temporal`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function fetchBytes(url, log) {
  log(`temporal: GET ${url}`);
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(5 * 60_000) });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

// ---------------------------------------------------------------------------------------------------------
// Lock: a directory created atomically, holding the owner's pid. Stale locks (dead owner) are taken over.

async function acquireLock(log) {
  const pidFile = join(LOCK_DIR, 'pid');
  const started = Date.now();
  let lastReport = started;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      writeFileSync(pidFile, String(process.pid));
      const release = () => rmSync(LOCK_DIR, { recursive: true, force: true });
      const onExit = () => release();
      process.once('exit', onExit);
      return () => {
        process.removeListener('exit', onExit);
        release();
      };
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(pidFile, 'utf8'));
    } catch {
      /* being created or removed */
    }
    const ageMs = (() => {
      try {
        return Date.now() - statSync(LOCK_DIR).mtimeMs;
      } catch {
        return 0;
      }
    })();
    if ((Number.isInteger(owner) && owner > 0 && !isAlive(owner)) || (Number.isNaN(owner) && ageMs > 10_000)) {
      log(`temporal: removing stale lock ${LOCK_DIR}`);
      rmSync(LOCK_DIR, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - lastReport >= PROGRESS_EVERY_MS || lastReport === started) {
      log(`temporal: waiting for another process (pid ${owner}) to finish installing the CLI… ${elapsed(started)}`);
      lastReport = Date.now();
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------------------
// helpers

function isExecutable(p) {
  try {
    if (!statSync(p).isFile()) return false;
    if (!IS_WINDOWS) accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function which(cmd) {
  const exts = IS_WINDOWS ? (process.env.PATHEXT || '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = resolve(dir, cmd + ext);
      if (isExecutable(p)) return p;
    }
  }
  return undefined;
}

function cliVersion(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const text = `${r.stdout || ''}`.trim();
  const m = /version\s+v?(\d+)\.(\d+)\.(\d+)(\S*)/.exec(text);
  if (!m) return undefined;
  return { text: `${m[1]}.${m[2]}.${m[3]}${m[4]}`, major: Number(m[1]), dev: m[1] === '0' && m[2] === '0' && m[3] === '0' };
}

function elapsed(since) {
  const s = Math.round((Date.now() - since) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

// `node temporal/cli.mjs` prints the path (handy in scripts: TEMPORAL_CLI=$(node temporal/cli.mjs)).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureTemporalCli().then(
    (p) => process.stdout.write(`${p}\n`),
    (err) => {
      process.stderr.write(`temporal: ${err.message}\n`);
      process.exit(1);
    },
  );
}
