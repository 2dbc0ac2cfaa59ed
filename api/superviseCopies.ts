import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { superviseMetrics } from './http/observability';

const RESTART_DELAY_MS = 1_000;

/**
 * With more than one copy asked for, this process becomes their supervisor and serves nothing itself: Node's cluster
 * module lets every copy listen on the same ports, accepts each connection here and hands it to the copies in
 * turn, so the copies sit behind one address with no proxy. A copy that dies after it served is replaced; one that
 * dies before it ever listened (a setting or a dependency it cannot get past) would only die again, so that stops
 * them all and this process with exit code 1. SIGTERM or SIGINT stops them all (each drains as a lone gateway does)
 * and then this process. A scrape of /metrics, whichever copy it reaches, gets every copy's (superviseMetrics).
 * Returns true in the supervisor.
 */
export function superviseCopies(copies: number, log: Logger): boolean {
  if (copies <= 1 || !cluster.isPrimary) return false;
  // Round-robin is the default on Linux but not on Windows, where the OS's choice can starve a copy.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  let stopping = false;
  let exitCode = 0;
  const served = new Set<number>();
  const stop = (code: number) => {
    stopping = true;
    exitCode = code;
    const live = Object.values(cluster.workers ?? {});
    if (live.length === 0) process.exit(exitCode);
    for (const copy of live) copy?.process.kill('SIGTERM');
  };
  cluster.on('listening', (copy) => served.add(copy.id));
  cluster.on('exit', (copy, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (!served.has(copy.id)) {
      log.error({ pid: copy.process.pid, code, signal }, 'a gateway copy exited before it listened; stopping the others');
      return stop(1);
    }
    log.error({ pid: copy.process.pid, code, signal }, 'a gateway copy exited; starting another');
    setTimeout(() => !stopping && cluster.fork(), RESTART_DELAY_MS);
  });
  superviseMetrics();
  for (let i = 0; i < copies; i++) cluster.fork();
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  log.info({ copies }, 'gateway copies started');
  return true;
}
