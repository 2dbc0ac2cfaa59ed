import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, ActivityDependencies } from '../activities';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  dependencies: ActivityDependencies;
  /** A prebuilt workflow bundle (`bundleWorkflowCode`); without one the worker bundles at start. */
  workflowBundlePath?: string;
}

export const workflowsPath = require.resolve('../workflows');

/** The one place production and tests wire a worker: workflows, activities and the task queue. */
export async function createWorker({ connection, namespace, taskQueue, dependencies, workflowBundlePath }: WorkerOptions): Promise<Worker> {
  const bundle =
    workflowBundlePath && fs.existsSync(workflowBundlePath) ? { workflowBundle: { codePath: path.resolve(workflowBundlePath) } } : { workflowsPath };
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: createActivities(dependencies),
    ...bundle,
  });
}
