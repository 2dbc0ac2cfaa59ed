import { Semaphore } from 'async-mutex';
import type { Logger } from 'pino';
import type { LookupLimits } from '../../activities/platform/config';
import { HttpError } from '../http/httpError';

/**
 * The lookups the gateway runs itself once it has acknowledged them (/participants, /parties: Document 2's stateless
 * lookups, which need no workflow), bounded: `concurrency` run at once, up to `queue` more wait their turn, and a
 * request beyond those is refused before it is acknowledged, 503 with 2005 (Server busy), which Document 2 has its
 * sender retry in a while. Without the bound a burst would hold unbounded memory and outbound connections in this
 * process, every lookup slower than the last.
 */
export class LookupQueue {
  private readonly running: Semaphore;
  /** Lookups taken and not yet finished: those running and those waiting. */
  private taken = 0;

  constructor(
    private readonly limits: LookupLimits,
    private readonly log: Logger,
  ) {
    this.running = new Semaphore(limits.concurrency);
  }

  /** Takes `work` to run when its turn comes, without waiting for it; throws the 503 when no place is left. */
  take(work: () => Promise<unknown>, what: string): void {
    if (this.taken >= this.limits.concurrency + this.limits.queue) {
      throw new HttpError(503, 'serverBusy', `the switch has ${this.taken} lookups in hand; try again later`);
    }
    this.taken += 1;
    this.running
      .runExclusive(work)
      .catch((err: unknown) => this.log.error({ err, what }, 'lookup failed'))
      .finally(() => {
        this.taken -= 1;
      });
  }
}
