import { integer } from '../activities/shared/platform/config';

/**
 * The Node flags `npm start` starts the hub's processes with (and the bench and the tests that run the hub as it
 * does). V8 takes a heap's ceiling from the machine's memory (about 4 GB on a machine of 24) and lets the heap grow far
 * past what it holds before it collects: the one-process hub, about 100 MB of it live, held 521 MB after ten minutes of
 * payments at concurrency 10. A ceiling of HUB_HEAP_MB (384 by default) makes V8 collect sooner, at no cost in
 * payments a second that the bench could see (docs/benchmarks.md, Memory). In a container Node takes the ceiling
 * from the container's memory limit instead.
 */
export function hubNodeFlags(env: NodeJS.ProcessEnv): string[] {
  return [`--max-old-space-size=${integer(env, 'HUB_HEAP_MB', 384)}`];
}
