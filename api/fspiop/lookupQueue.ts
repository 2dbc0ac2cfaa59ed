import type { Logger } from 'pino';
import type { LookupLimits } from '../../activities/shared/platform/config';
import { HttpError } from '../../activities/shared/platform/httpError';

type Work = { run: () => Promise<unknown>; what: string };

/**
 * The lookups the gateway runs itself once it has acknowledged them (/participants, /parties: Document 2's stateless
 * lookups, which need no workflow), bounded: `concurrency` run at once, up to `queue` more wait their turn, and a
 * request beyond those is refused before it is acknowledged, 503 with 2005 (Server busy), which Document 2 has its
 * sender retry in a while. Without the bound a burst would hold unbounded memory and outbound connections in this
 * process, every lookup slower than the last.
 *
 * The places are shared fairly: one participant holds at most `perParticipant` of them, and the waiting lookups run in
 * turn, one participant's after another's, so a participant asking in a loop waits behind itself, not the others
 * behind it.
 */
export class LookupQueue {
  /** Lookups waiting, by participant, in the order the participants first had one waiting. */
  private readonly waiting = new Map<string, Work[]>();
  /** Lookups taken and not yet finished, running or waiting, by participant. */
  private readonly held = new Map<string, number>();
  private taken = 0;
  private running = 0;

  constructor(
    private readonly limits: LookupLimits,
    private readonly log: Logger,
  ) {}

  /** Takes `work` to run when its turn comes, without waiting for it; throws the 503 when no place is left for `participant`. */
  take(participant: string, work: () => Promise<unknown>, what: string): void {
    if (this.taken >= this.limits.concurrency + this.limits.queue) {
      throw new HttpError(503, 'serverBusy', `the switch has ${this.taken} lookups in hand; try again later`);
    }
    const held = this.held.get(participant) ?? 0;
    if (held >= this.limits.perParticipant) {
      throw new HttpError(503, 'serverBusy', `the switch has ${held} lookups of ${participant} in hand; try again later`);
    }
    this.taken += 1;
    this.held.set(participant, held + 1);
    const queue = this.waiting.get(participant);
    if (queue) queue.push({ run: work, what });
    else this.waiting.set(participant, [{ run: work, what }]);
    this.dispatch();
  }

  /** Starts waiting lookups while places to run are free, the next participant's each time. */
  private dispatch(): void {
    while (this.running < this.limits.concurrency && this.waiting.size > 0) {
      const [participant, queue] = this.waiting.entries().next().value as [string, Work[]];
      const work = queue.shift()!;
      // The participant goes to the back of the line: one lookup each, in turn.
      this.waiting.delete(participant);
      if (queue.length > 0) this.waiting.set(participant, queue);
      this.running += 1;
      void Promise.resolve()
        .then(work.run)
        .catch((err: unknown) => this.log.error({ err, what: work.what, participant }, 'lookup failed'))
        .finally(() => {
          this.running -= 1;
          this.taken -= 1;
          const left = (this.held.get(participant) ?? 1) - 1;
          if (left === 0) this.held.delete(participant);
          else this.held.set(participant, left);
          this.dispatch();
        });
    }
  }
}
