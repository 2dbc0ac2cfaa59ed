import { Context } from '@temporalio/activity';
import { NativeConnection, Worker } from '@temporalio/worker';
import { changePerformer } from '../api/admin/approvals/performChange';
import { createActivities, ActivityDependencies } from '../activities';
import { workflowCode } from './workflowBundle';
import { withoutPromiseStacks } from './workflowThread';
import type { Tracing } from '../activities/shared/platform/tracing';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  dependencies: ActivityDependencies;
  /** A prebuilt workflow bundle (`bundleWorkflowCode`); without one the workflows are bundled at start. */
  workflowBundlePath?: string;
  /** OpenTelemetry tracing of its workflows and activities (activities/shared/platform/tracing.ts), when configured. */
  tracing?: Tracing;
  /** WORKFLOW_STACK_TRACES: the SDK records where each promise of workflow code was created (worker/workflowThread.ts). */
  workflowStackTraces?: boolean;
  /** WORKFLOW_CACHE_SIZE: how many workflows the worker keeps in memory between their tasks (1,000 by default). */
  workflowCacheSize?: number;
}

/**
 * Workflows kept in memory between their tasks. The SDK's default follows the heap's ceiling (about 2,300 with V8's
 * default here, 135 under the hub's 384 MB), so a ceiling chosen for memory would silently shrink the cache: a
 * workflow evicted from it replays its whole history at its next task. A conversation holds a few tens of KB.
 */
const WORKFLOW_CACHE_SIZE = 1_000;

export const workflowsPath = require.resolve('../workflows');

/**
 * The admin routes' changes, as an approval's workflow performs them; a settlement's starts or updates its workflow
 * with the worker's own client, on the task queue the approval runs on.
 */
function approvedChanges({ services }: WorkerOptions['dependencies']) {
  return changePerformer({
    ...services,
    temporal: () => ({ client: Context.current().client, taskQueue: Context.current().info.taskQueue }),
  });
}

/** The one place production and tests wire a worker: workflows, activities and the task queue. */
export async function createWorker(options: WorkerOptions): Promise<Worker> {
  const { connection, namespace, taskQueue, dependencies, workflowBundlePath, tracing } = options;
  if (!options.workflowStackTraces) withoutPromiseStacks();
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: createActivities({ performChange: approvedChanges(dependencies), ...dependencies }),
    maxCachedWorkflows: options.workflowCacheSize ?? WORKFLOW_CACHE_SIZE,
    ...tracing?.worker,
    ...(await workflowCode(workflowsPath, workflowBundlePath, tracing?.workflowInterceptorModules)),
  });
}
