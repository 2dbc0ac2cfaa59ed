import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleWorkflowCode, DefaultLogger, type WorkerOptions } from '@temporalio/worker';

/**
 * The workflow code a worker runs: the prebuilt bundle at `bundlePath` if there is one (WORKFLOW_BUNDLE), else the
 * workflows at `workflowsPath`, bundled in a child process. Webpack's heap stays with the process that bundles, since
 * V8 keeps the pages it grew: bundled in the worker itself it cost 50 to 120 MB of the worker's resident memory for as
 * long as it ran (`npm run bench -- --soak`); the child returns them to the system when it exits.
 */
export async function workflowCode(workflowsPath: string, bundlePath?: string): Promise<Pick<WorkerOptions, 'workflowBundle'>> {
  if (bundlePath && fs.existsSync(bundlePath)) return { workflowBundle: { codePath: path.resolve(bundlePath) } };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'workflow-bundle-'));
  const bundleFile = path.join(directory, 'bundle.js');
  try {
    await promisify(execFile)(process.execPath, [__filename, workflowsPath, bundleFile]);
    return { workflowBundle: { code: fs.readFileSync(bundleFile, 'utf8') } };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** In the child: bundles argv[2]'s workflows into the file argv[3]; webpack's warnings and errors go to stderr. */
async function bundleInto(workflowsPath: string, bundleFile: string): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  fs.writeFileSync(bundleFile, code);
}

if (require.main === module) {
  bundleInto(process.argv[2], process.argv[3]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
