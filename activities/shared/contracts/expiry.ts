/**
 * Expiry's one home: how an expiration is read, when it has lapsed, and how long is left until it does. The gateway,
 * the activities and the workflows all decide by these functions, so the payer's check at prepare, the workflow's
 * timer, the ledger's refusal of a late commit and the reservation sweep can never disagree on a boundary. It imports
 * nothing and reads no clock: workflow code hands in workflow time, activities the wall clock.
 */

declare const checked: unique symbol;

/**
 * An expiration as FSPIOP carries it (its DateTime: an ISO 8601 date, time and zone), known to name a real instant:
 * only `parseExpiration` and `expirationAt` make one. It stays the text that came, since the hub passes a message on as
 * it came and Temporal records it as JSON; the brand says it was read once, at the edge.
 */
export type Expiration = string & { readonly [checked]: 'Expiration' };

/** When something lapses: an expiration as it came, or the instant a record or the ledger stored for it. */
export type Expiry = Expiration | Date;

/**
 * The DateTime's lexical form: date, time to the second, an optional fraction, and a zone that is required, since a
 * time without one would be read in the hub's own zone. Ranges and the calendar are checked after the match.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Epoch milliseconds of a DateTime, or NaN for text that names no instant (a 30 February, a 24th hour, no zone). */
function instantOfText(text: string): number {
  const match = DATE_TIME.exec(text);
  if (!match) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match.slice(7);
  if (hour > 23 || minute > 59 || second > 59 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return NaN;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  at.setUTCFullYear(year, month - 1, day);
  // A day the month does not have rolls over into the next: the round trip tells.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return NaN;
  at.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return at.getTime() - (sign === '-' ? -offsetMs : offsetMs);
}

/** The expiration `text` names, or undefined when it names no real instant (garbage, an impossible date, no zone). */
export function parseExpiration(text: string): Expiration | undefined {
  return Number.isNaN(instantOfText(text)) ? undefined : (text as Expiration);
}

/** The expiration of an instant (epoch milliseconds), in UTC: for a message or a deadline the code makes itself. */
export function expirationAt(instant: number): Expiration {
  return new Date(instant).toISOString() as Expiration;
}

/** The instant (epoch milliseconds) at which it lapses. */
export function instantOf(expiry: Expiry): number {
  return typeof expiry === 'string' ? instantOfText(expiry) : expiry.getTime();
}

/**
 * Whether it has lapsed at `now`. At the expiration instant itself it has: central-ledger's fulfil handler refuses a
 * commit whose expirationDate <= now (3303), and a transfer whose expiration is now could only ever be refused.
 */
export function lapsed(expiry: Expiry, now: number | Date): boolean {
  return instantOf(expiry) <= (typeof now === 'number' ? now : now.getTime());
}

/** Milliseconds left from `now` until it lapses; zero or less once it has. */
export function msUntil(expiry: Expiry, now: number): number {
  return instantOf(expiry) - now;
}
