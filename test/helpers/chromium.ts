import { chromium, type Browser } from 'playwright-core';
import { debianBinary } from './debianPackage';

/** Where Debian's chromium package puts the browser. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The headless Chromium the console's browser tests drive: CHROMIUM_PATH, else Debian's package, installed here
 * (as root, with apt-get) when missing. Playwright's own browser download cannot work on this project's machines.
 * Undefined when there is none and it cannot be installed; the browser tests then say so.
 */
export function chromiumPath(log: (message: string) => void): string | undefined {
  return process.env.CHROMIUM_PATH || debianBinary(DEBIAN_CHROMIUM, 'chromium', 'the console tests', log);
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
