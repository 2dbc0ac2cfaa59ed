import type { ShareLimits } from '../../activities/shared/platform/config';
import { HttpError } from '../../activities/shared/platform/httpError';

/**
 * Each participant's share of the answers the switch gives from its records (a GET, a repeated POST, a late or
 * stranger's callback): every one is a workflow on the same Temporal server that carries everyone's transfers, so one
 * participant asking in a loop would otherwise delay the others' commits and expiries. A token bucket per participant,
 * in this gateway process; a message beyond the share is refused before it is acknowledged, 503 with 2005 (Server
 * busy), which Document 2 has its sender retry in a while. Senders are authenticated participants, so the buckets are
 * as many as the scheme has.
 */
export class ParticipantShares {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limits: ShareLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one place of `participant`'s share, or throws the 503 when it has none left. */
  take(participant: string, what: string): void {
    const now = this.now();
    const last = this.buckets.get(participant);
    const tokens = last ? Math.min(this.limits.burst, last.tokens + ((now - last.at) / 1000) * this.limits.perSecond) : this.limits.burst;
    if (tokens < 1) {
      this.buckets.set(participant, { tokens, at: now });
      throw new HttpError(503, 'serverBusy', `${participant} asks for ${what} faster than its share (${this.limits.perSecond} a second); try again later`);
    }
    this.buckets.set(participant, { tokens: tokens - 1, at: now });
  }
}
