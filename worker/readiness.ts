import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { healthCheck } from '../workflows';

export interface ReadinessOptions {
  /** The admin API's /health address. */
  healthUrl: string;
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  timeoutMs: number;
  /** Why start-up has already failed (a process exited), checked between polls; undefined while all is well. */
  failed?: () => string | undefined;
}

/**
 * Waits until the hub really works: the gateway's /health answers OK, and a `healthCheck` workflow runs
 * to completion, which proves a worker polls the task queue and its activities reach the database.
 */
export async function waitUntilReady(options: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const failure = options.failed?.();
    if (failure) throw new Error(failure);
    try {
      const response = await fetch(options.healthUrl);
      if (response.ok) break;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${options.healthUrl} was not healthy within ${options.timeoutMs / 1000} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const connection = await Connection.connect({ address: options.temporalAddress });
  try {
    await new Client({ connection, namespace: options.namespace }).workflow.execute(healthCheck, {
      taskQueue: options.taskQueue,
      workflowId: `healthCheck/${crypto.randomUUID()}`,
      workflowExecutionTimeout: Math.max(1_000, deadline - Date.now()),
    });
  } finally {
    await connection.close();
  }
}
