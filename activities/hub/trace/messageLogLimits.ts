import type { MessageLogShare } from '../../shared/platform/config';

/**
 * What one participant can make the message log keep (activities/hub/trace/messageLog.ts): how much of a refused
 * message, how large its headers, and how many entries a minute. A refusal costs its sender nothing, so without these
 * a sender could have the hub keep, for the whole retention, whatever it cares to send.
 */

/** How much of a refused message's body is kept: enough to see what was wrong with it. */
export const REFUSED_BODY_CHARS = 4_096;
/** The headers' column holds 65,535 bytes on MySQL (TEXT); one entry over it would fail its whole batch. */
export const HEADERS_BYTES = 65_535;
/** A refused message's headers: the ones that identify it are far shorter. */
export const REFUSED_HEADERS_BYTES = 8_192;

/** The note that stands in for what was cut, saying how large the whole was. */
const cutNote = (bytes: number) => `… [cut: ${bytes} bytes in all]`;

/** `text` if it has at most `maxChars` characters; otherwise its beginning and a note of its whole size in bytes. */
export function truncated(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return withoutHalfPair(text.slice(0, maxChars)) + cutNote(Buffer.byteLength(text));
}

/**
 * The headers as JSON of at most `maxBytes` bytes (UTF-8): the longest values are cut first, each keeping as much of
 * its beginning as fits and a note of its size, so the short ones that identify a message (source, date, traceparent)
 * stay whole.
 */
export function headersJson(headers: Record<string, string>, maxBytes: number): string {
  const cut = { ...headers };
  const fits = () => Buffer.byteLength(JSON.stringify(cut)) <= maxBytes;
  while (!fits()) {
    const [name, value] = Object.entries(cut).reduce((longest, entry) => (entry[1].length > longest[1].length ? entry : longest));
    const note = cutNote(Buffer.byteLength(headers[name]));
    // Too many names to fit even with short values: no participant's message has them; keep a note rather than fail.
    if (value.length <= note.length) return JSON.stringify({ cut: cutNote(Buffer.byteLength(JSON.stringify(headers))) });
    const keeping = (chars: number) => {
      cut[name] = withoutHalfPair(value.slice(0, chars)) + note;
      return fits();
    };
    if (!keeping(0)) continue;
    // The most of its beginning that fits (JSON escapes some characters longer than others, so it is searched for).
    let [low, high] = [0, value.length - 1];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (keeping(middle)) low = middle;
      else high = middle - 1;
    }
    keeping(low);
  }
  return JSON.stringify(cut);
}

/** A cut that ends between the two halves of a surrogate pair would leave an unpaired half, which JSON escapes longer. */
function withoutHalfPair(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/** Kept; dropped, and the first of its participant's this minute (worth a warning); dropped again. */
export type ShareVerdict = 'kept' | 'firstDropped' | 'dropped';

/**
 * Each participant's share of the log, counted in whole minutes of the clock. Participants are the scheme's (a message
 * whose sender the gateway could not establish counts against one share of its own), so the counts stay as few.
 */
export class LogShares {
  private minute = -1;
  private readonly counts = new Map<string, { kept: number; refused: number; dropped: number }>();

  constructor(private readonly share: MessageLogShare) {}

  take(participant: string, refused: boolean, now: number): ShareVerdict {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts.clear();
    }
    const count = this.counts.get(participant) ?? { kept: 0, refused: 0, dropped: 0 };
    this.counts.set(participant, count);
    if (count.kept >= this.share.perMinute || (refused && count.refused >= this.share.refusedPerMinute)) {
      count.dropped++;
      return count.dropped === 1 ? 'firstDropped' : 'dropped';
    }
    count.kept++;
    if (refused) count.refused++;
    return 'kept';
  }
}
