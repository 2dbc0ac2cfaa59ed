import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../activities/config';

// A real ESM import from this CommonJS module (tsc would turn `import()` into `require()`).
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** The Temporal CLI binary, installed by temporal/cli.mjs on first use (cached afterwards). */
export async function temporalCliPath(log: (message: string) => void): Promise<string> {
  const { ensureTemporalCli } = (await importEsm(pathToFileURL(path.join(repoRoot, 'temporal', 'cli.mjs')).href)) as {
    ensureTemporalCli: (options: { log: (message: string) => void }) => Promise<string>;
  };
  return ensureTemporalCli({ log });
}
