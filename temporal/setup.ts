import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../activities/shared/platform/config';

type Log = (message: string) => void;

// A real ESM import from this CommonJS module (tsc would turn `import()` into `require()`).
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** One of the plain-Node set-up scripts beside this file, which run before node_modules exists. */
function setupScript<T>(file: 'cli.mjs' | 'ensure.mjs'): Promise<T> {
  return importEsm(pathToFileURL(path.join(repoRoot, 'temporal', file)).href) as Promise<T>;
}

/** The Temporal CLI binary, installed by temporal/cli.mjs on first use (cached afterwards). */
export async function temporalCliPath(log: Log): Promise<string> {
  const { ensureTemporalCli } = await setupScript<{ ensureTemporalCli: (options: { log: Log }) => Promise<string> }>('cli.mjs');
  return ensureTemporalCli({ log });
}

/** The Go toolchain temporal/cli.mjs builds the CLI with, if this machine has one. */
export async function goBinary(): Promise<string | undefined> {
  const { findGo } = await setupScript<{ findGo: () => string | undefined }>('cli.mjs');
  return findGo();
}

/**
 * `npm install` in `dir` (with `args`, such as `--ignore-scripts`), native addons compiled from source as for the hub's
 * own dependencies (temporal/ensure.mjs).
 */
export async function npmInstall(dir: string, log: Log, args: string[] = []): Promise<void> {
  const { npmInstall: install } = await setupScript<{ npmInstall: (dir: string, options: { log: Log; args: string[] }) => Promise<void> }>('ensure.mjs');
  await install(dir, { log, args });
}
