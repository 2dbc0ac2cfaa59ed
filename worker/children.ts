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
