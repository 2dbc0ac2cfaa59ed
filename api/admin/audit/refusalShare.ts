/**
 * How many refused attempts without an established caller the trail records a minute, per gateway process. Such an
 * attempt costs its sender nothing (no credential, or a wrong one), so without a bound anyone who reaches the admin
 * port could grow the trail, append-only, without end. Changes and refusals of authenticated callers are not bounded.
 */
export const REFUSALS_PER_MINUTE = 120;

/** A minute whose refusals over the share were not recorded: the trail gets one entry that counts them. */
export interface DroppedMinute {
  from: Date;
  dropped: number;
}

/** The share, counted in whole minutes of the clock, and the minutes that went over it, until they are written down. */
export class RefusalShare {
  private minute = -1;
  private kept = 0;
  private dropped = 0;
  private readonly over: DroppedMinute[] = [];

  constructor(private readonly perMinute = REFUSALS_PER_MINUTE) {}

  /** Whether a refusal at `now` is recorded; if not, it is counted. */
  take(now: number): boolean {
    this.roll(now);
    if (this.kept >= this.perMinute) {
      this.dropped++;
      return false;
    }
    this.kept++;
    return true;
  }

  /** The minutes before `now` that dropped refusals, each once. */
  takeOver(now: number): DroppedMinute[] {
    this.roll(now);
    return this.over.splice(0);
  }

  private roll(now: number): void {
    const minute = Math.floor(now / 60_000);
    if (minute === this.minute) return;
    if (this.dropped > 0) this.over.push({ from: new Date(this.minute * 60_000), dropped: this.dropped });
    [this.minute, this.kept, this.dropped] = [minute, 0, 0];
  }
}
