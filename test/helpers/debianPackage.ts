import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * The program at `binary`, installed from Debian's `pkg` (as root, with apt-get) when it is missing, for the tests
 * that drive a real one (Chromium, Prometheus) on a clean machine. Undefined when it is missing and cannot be
 * installed; `purpose` says in the log what will then fail.
 */
export function debianBinary(binary: string, pkg: string, purpose: string, log: (message: string) => void): string | undefined {
  if (fs.existsSync(binary)) return binary;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) {
    log(`test: no ${binary} (install the Debian package ${pkg}): ${purpose} will fail`);
    return undefined;
  }
  const started = Date.now();
  log(`test: installing ${pkg} from the Debian packages for ${purpose} (once)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', pkg]]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) {
      log(`test: apt-get ${args.join(' ')} failed (exit ${result.status})`);
      return undefined;
    }
  }
  log(`test: ${pkg} installed (${Math.round((Date.now() - started) / 1000)} s)`);
  return fs.existsSync(binary) ? binary : undefined;
}
