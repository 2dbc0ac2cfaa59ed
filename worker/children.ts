import type { ChildProcess } from 'node:child_process';

/** Stops child processes with SIGTERM and waits until each has exited (one that already has is left alone). */
export function stopChildren(children: ChildProcess[]): Promise<void> {
  return Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  ).then(() => undefined);
}

/**
 * Stops a hub's processes and its Temporal server together, and then this process: on SIGINT or SIGTERM (exit 0), or
 * as soon as any of the processes exits (with its exit code). Returns whether stopping has begun, for a start-up wait
 * to give up on.
 */
export function stopTogether(children: ChildProcess[], temporal: { stop(): Promise<void> } | undefined, log: (message: string) => void): () => boolean {
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await stopChildren(children);
    await temporal?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  for (const child of children) child.once('exit', (code) => void stop(code ?? 1));
  return () => stopping;
}
