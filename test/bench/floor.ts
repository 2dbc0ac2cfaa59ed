// The Temporal floor of `npm run bench`: on the same server, the least a signalled workflow costs (start, one
// signal, result), driven at the same concurrency as the hub.

import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { floor, floorGoSignal } from './floorWorkflow';
import type { Sample } from './statistics';

/** One start → signal → result; each workflow ID goes into `started`, for the history sample. */
export function floorIteration(client: Client, taskQueue: string, timeoutMs: number, started: string[]) {
  return async (sample: Sample): Promise<void> => {
    const t0 = performance.now();
    const work = (async () => {
      const workflowId = `benchFloor/${crypto.randomUUID()}`;
      started.push(workflowId);
      const handle = await client.workflow.start(floor, {
        taskQueue,
        workflowId,
        workflowExecutionTimeout: '2 minutes',
      });
      await handle.signal(floorGoSignal);
      await handle.result();
    })();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), timedOut]).finally(() => clearTimeout(timer));
    if (outcome === 'timeout') {
      work.catch(() => undefined);
      return sample.error('workflow timeout');
    }
    sample.transferMs = performance.now() - t0;
  };
}
