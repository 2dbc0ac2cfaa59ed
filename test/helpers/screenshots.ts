import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';

/**
 * Where a browser test saves its pictures: with UPDATE_SCREENSHOTS, into test/console/screenshots (docs/console.md
 * shows them); otherwise a temporary folder, so a test run never changes the repository.
 */
export const screenshotsDir = (): string =>
  process.env.UPDATE_SCREENSHOTS ? path.join(repoRoot, 'test', 'console', 'screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
