import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The headless Chromium the console's browser tests drive: CHROMIUM_PATH, else Debian's package, installed here
 * (as root, with apt-get) when missing. Playwright's own browser download cannot work on this project's machines.
 * Undefined when there is none and it cannot be installed; the browser tests then say so.
 */
export function chromiumPath(log: (message: string) => void): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (fs.existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) {
    log('test: no Chromium (install the Debian package chromium, or set CHROMIUM_PATH): the console tests will fail');
    return undefined;
  }
  const started = Date.now();
  log('test: installing Chromium from the Debian packages for the console tests (once)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) {
      log(`test: apt-get ${args.join(' ')} failed (exit ${result.status})`);
      return undefined;
    }
  }
  log(`test: Chromium installed (${Math.round((Date.now() - started) / 1000)} s)`);
  return fs.existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/**
 * Headless Chromium at `executablePath`, driven by playwright-core. This machine's network is closed: without these
 * flags Chromium keeps trying to reach Google's services.
 */
export function launchChromium(executablePath: string | undefined): Promise<Browser> {
  if (!executablePath) throw new Error('no Chromium: npm test installs the Debian package chromium when run as root, or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
