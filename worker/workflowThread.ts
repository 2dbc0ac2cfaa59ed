import path from 'node:path';
import workerThreads from 'node:worker_threads';

/** Loaded first in the SDK's workflow thread: see `withoutPromiseStacks`. */
const PRELOAD = path.join(__dirname, 'workflowThreadPreload.js');
const SDK_WORKFLOW_THREAD = path.join('workflow', 'workflow-worker-thread.js');

let installed = false;

/**
 * A thread takes its parent's flags, but refuses V8's heap flags in a list it is given (ERR_WORKER_INVALID_EXEC_ARGV):
 * those are the process's (worker/nodeFlags.ts) and apply to the thread's heap anyway.
 */
const threadFlags = (flags: string[]) => flags.filter((flag) => !/^--max-(old|semi)-space-size\b/.test(flag));

/**
 * Starts the Temporal SDK's workflow thread without promise hooks. With them the SDK records, for every promise
 * workflow code creates, where it was created (a stack captured and mapped through the bundle's source map), so that
 * the Temporal UI's Stack Trace tab can show where a running workflow waits. A payment creates about 150 promises,
 * and recording them was about 40% of the workflow thread's CPU under `npm run bench` (docs/benchmarks.md). The SDK has
 * no setting for it, but runs without it wherever Node's `v8.promiseHooks.createHook` is unavailable (as under Bun),
 * answering the stack trace query with a notice: the preload makes it so in that thread alone. Replay, the
 * determinism checks and the stacks of workflow failures are unchanged. Applies to every worker this process creates
 * afterwards; WORKFLOW_STACK_TRACES=true leaves the SDK as it is.
 */
export function withoutPromiseStacks(): void {
  if (installed) return;
  installed = true;
  const SdkWorker = workerThreads.Worker;
  class WorkflowThread extends SdkWorker {
    constructor(filename: string | URL, options: workerThreads.WorkerOptions = {}) {
      const sdkThread = String(filename).endsWith(SDK_WORKFLOW_THREAD);
      super(filename, sdkThread ? { ...options, execArgv: [...threadFlags(options.execArgv ?? process.execArgv), '--require', PRELOAD] } : options);
    }
  }
  // The SDK reads worker_threads.Worker when it starts its thread, from the module object every importer shares.
  (workerThreads as { Worker: typeof SdkWorker }).Worker = WorkflowThread;
}
