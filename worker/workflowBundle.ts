import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleWorkflowCode, DefaultLogger, type WorkerOptions } from '@temporalio/worker';

/**
 * The workflow code a worker runs: the prebuilt bundle at `bundlePath` if there is one (WORKFLOW_BUNDLE), else the
 * workflows at `workflowsPath`, bundled in a child process. Webpack's heap stays with the process that bundles, since
 * V8 keeps the pages it grew: bundled in the worker itself it held about 110 MB of an idle worker's resident memory
 * for as long as the worker ran; the child returns it to the system when it exits.
 */
export async function workflowCode(
  workflowsPath: string,
  bundlePath?: string,
  interceptorModules: string[] = [],
): Promise<Pick<WorkerOptions, 'workflowBundle'>> {
  // A prebuilt bundle holds no interceptors: a worker that needs some (tracing) bundles its own.
  if (bundlePath && fs.existsSync(bundlePath) && interceptorModules.length === 0) return { workflowBundle: { codePath: path.resolve(bundlePath) } };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'workflow-bundle-'));
  const bundleFile = path.join(directory, 'bundle.js');
  try {
    await promisify(execFile)(process.execPath, [__filename, workflowsPath, bundleFile, ...interceptorModules]);
    return { workflowBundle: { code: fs.readFileSync(bundleFile, 'utf8') } };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** Bundles the workflows at `workflowsPath` (and interceptors) into `bundleFile`, for WORKFLOW_BUNDLE; webpack's warnings and errors go to stderr. */
export async function writeWorkflowBundle(workflowsPath: string, bundleFile: string, workflowInterceptorModules: string[] = []): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: new DefaultLogger('WARN') });
  fs.writeFileSync(bundleFile, code);
}

// The child of `workflowCode`: argv[2]'s workflows (with the interceptor modules after argv[3]) into the file argv[3].
if (require.main === module) {
  writeWorkflowBundle(process.argv[2], process.argv[3], process.argv.slice(4)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
