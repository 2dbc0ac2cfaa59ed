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
}

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
    ...tracing?.worker,
    ...(await workflowCode(workflowsPath, workflowBundlePath, tracing?.workflowInterceptorModules)),
  });
}
