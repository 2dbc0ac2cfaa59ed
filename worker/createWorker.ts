import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, ActivityDependencies } from '../activities';
import { workflowCode } from './workflowBundle';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  dependencies: ActivityDependencies;
  /** A prebuilt workflow bundle (`bundleWorkflowCode`); without one the workflows are bundled at start. */
  workflowBundlePath?: string;
}

export const workflowsPath = require.resolve('../workflows');

/** The one place production and tests wire a worker: workflows, activities and the task queue. */
export async function createWorker({ connection, namespace, taskQueue, dependencies, workflowBundlePath }: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: createActivities(dependencies),
    ...(await workflowCode(workflowsPath, workflowBundlePath)),
  });
}
